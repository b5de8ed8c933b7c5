// The chart of a South African company (issue 14, migration 0022): the accounts a (Pty) Ltd
// needs, with their types, subtypes and system keys; a company's legal form, and "Drawings"
// only for a sole proprietor or a partnership; companies made before 0022 get the new accounts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { post, seedDefaultChart } from './index.ts';

let t: TestApp;
const cleanups: Array<() => Promise<void>> = [];
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
  for (const c of cleanups.reverse()) await c();
});

interface AccountBody {
  id: string;
  code: string;
  name: string;
  type: string;
  subtype: string;
  systemKey: string | null;
  isControl: boolean;
  isActive: boolean;
}

async function chart(b: Registered, companyId = b.companyId): Promise<AccountBody[]> {
  const res = await as(t.app, b.token, companyId)({ method: 'GET', url: '/api/accounts' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** The accounts 0022 adds: code → [type, subtype, system key] (the migration's table). */
const NEW_ACCOUNTS: Record<string, [string, string, string]> = {
  '1110': ['asset', 'receivable', 'credit_loss_allowance'],
  '2110': ['liability', 'current_liability', 'vat_control'],
  '2120': ['liability', 'current_liability', 'income_tax_payable'],
  '2130': ['liability', 'current_liability', 'dividends_tax_payable'],
  '2140': ['liability', 'current_liability', 'dividends_payable'],
  '2410': ['liability', 'current_liability', 'credit_card'],
  '2420': ['liability', 'current_liability', 'income_in_advance'],
  '2450': ['liability', 'current_liability', 'loans_current_portion'],
  '2510': ['liability', 'non_current_liability', 'shareholder_loan'],
  '2900': ['liability', 'current_liability', 'suspense'],
  '3300': ['equity', 'equity', 'dividends_declared'],
  '3400': ['equity', 'equity', 'opening_balances'],
  '9000': ['expense', 'income_tax', 'income_tax'],
};

const drawingsOf = (accounts: AccountBody[]) => accounts.find((a) => a.systemKey === 'drawings');

describe('the chart of a (Pty) Ltd', () => {
  test('a new company is a pty_ltd with every new account, its type, subtype and system key', async () => {
    const b = await register(t.app);
    const company = (
      await as(t.app, b.token)({ method: 'GET', url: `/api/companies/${b.companyId}` })
    ).json();
    assert.equal(company.legalForm, 'pty_ltd');
    const accounts = await chart(b);
    const byCode = new Map(accounts.map((a) => [a.code, a]));
    for (const [code, [type, subtype, systemKey]] of Object.entries(NEW_ACCOUNTS)) {
      const a = byCode.get(code);
      assert.ok(a, `the chart has ${code}`);
      assert.deepEqual(
        [a.type, a.subtype, a.systemKey, a.isActive, a.isControl],
        [type, subtype, systemKey, true, false],
        code,
      );
    }
    assert.equal(byCode.get('9000')?.name, 'Income tax expense');
    assert.equal(byCode.get('2110')?.name, 'VAT control (SARS)');
    // A (Pty) Ltd has no drawings: neither the account nor its code.
    assert.equal(drawingsOf(accounts), undefined);
    assert.equal(byCode.get('3200'), undefined);
    // Every system key once, and the old chart is still there.
    const keys = accounts.map((a) => a.systemKey).filter(Boolean);
    assert.equal(new Set(keys).size, keys.length);
    for (const key of ['bank', 'vat_input', 'vat_output', 'retained_earnings', 'share_capital']) {
      assert.ok(keys.includes(key), key);
    }
  });

  test('an account of subtype income_tax can be added (deferred tax); not under another type', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token, b.companyId);
    const add = await api({
      method: 'POST',
      url: '/api/accounts',
      payload: { code: '9010', name: 'Deferred tax expense', type: 'expense', subtype: 'income_tax' },
    });
    assert.equal(add.statusCode, 201, add.body);
    const wrong = await api({
      method: 'POST',
      url: '/api/accounts',
      payload: { code: '9020', name: 'X', type: 'liability', subtype: 'income_tax' },
    });
    assert.equal(assertProblem(wrong, 400).field, 'subtype');
  });
});

describe('legal form and drawings', () => {
  test('a sole proprietor and a partnership have Drawings (3200, equity); the other forms not', async () => {
    const b = await register(t.app, { plan: 'business' }); // 3 companies
    const api = as(t.app, b.token);
    for (const legalForm of ['sole_proprietor', 'partnership']) {
      const res = await api({
        method: 'POST',
        url: '/api/companies',
        payload: { name: `A ${legalForm}`, legalForm },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().legalForm, legalForm);
      const drawings = drawingsOf(await chart(b, res.json().id));
      assert.ok(drawings, `${legalForm} has drawings`);
      assert.deepEqual(
        [drawings.code, drawings.name, drawings.type, drawings.subtype, drawings.isActive],
        ['3200', 'Drawings', 'equity', 'equity', true],
      );
    }
    const bad = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'X', legalForm: 'llc' },
    });
    assert.equal(assertProblem(bad, 400).field, 'legalForm');
  });

  test('changing the form adds or activates drawings, or deactivates them; a user cannot toggle them', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token, b.companyId);
    const patch = (legalForm: string) =>
      as(t.app, b.token)({ method: 'PATCH', url: `/api/companies/${b.companyId}`, payload: { legalForm } });
    // pty_ltd → sole_proprietor: the account is added, active.
    const toSole = await patch('sole_proprietor');
    assert.equal(toSole.statusCode, 200, toSole.body);
    assert.equal(toSole.json().legalForm, 'sole_proprietor');
    const added = drawingsOf(await chart(b))!;
    assert.equal(added.isActive, true);
    // The owner takes R1 000 out: Dr Drawings 1 000, Cr Bank 1 000.
    const taken = await api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-03-10',
        description: 'Owner took cash',
        lines: [
          { accountCode: '3200', debit: 1000 },
          { accountCode: '1000', credit: 1000 },
        ],
      },
    });
    assert.equal(taken.statusCode, 201, taken.body);
    // The form cannot be switched through the account: 409 naming isActive.
    const toggle = await api({
      method: 'PATCH',
      url: `/api/accounts/${added.id}`,
      payload: { isActive: false },
    });
    assert.equal(assertProblem(toggle, 409).field, 'isActive');
    // sole_proprietor → close_corporation: the same account, deactivated; nothing more posts to it.
    assert.equal((await patch('close_corporation')).statusCode, 200);
    const off = drawingsOf(await chart(b))!;
    assert.deepEqual([off.id, off.isActive], [added.id, false]);
    const refused = await api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-03-11',
        description: 'Owner took cash again',
        lines: [
          { accountCode: '3200', debit: 500 },
          { accountCode: '1000', credit: 500 },
        ],
      },
    });
    assert.match(String(assertProblem(refused, 400).field), /^lines\[0\]/);
    // Its history stays: the balance sheet still shows the R1 000 taken out (−1 000 of equity).
    const sheet = (await api({ method: 'GET', url: '/api/reports/balance-sheet?asOf=2026-03-31' })).json();
    const capital = sheet.equity.groups.find((g: { subtype: string }) => g.subtype === 'equity');
    assert.deepEqual(
      capital.accounts.map((l: { code: string; amount: number }) => [l.code, l.amount]),
      [['3200', -1000]],
    );
    assert.equal(sheet.balanced, true);
    // → partnership: the same account, active again.
    assert.equal((await patch('partnership')).statusCode, 200);
    const on = drawingsOf(await chart(b))!;
    assert.deepEqual([on.id, on.isActive], [added.id, true]);
  });
});

test('a company made before 0022 gets the new accounts; its Drawings become the system account, deactivated', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 22),
  );
  const tenantId = crypto.randomUUID();
  const companyId = crypto.randomUUID();
  await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    await tx
      .insertInto('companies')
      .values({ tenant_id: tenantId, id: companyId, name: 'Before Co' })
      .execute();
    await seedDefaultChart(tx, tenantId, companyId); // 0008's chart, 3200 Drawings without a key
    // The user already took 9000 for an account of their own.
    await tx
      .insertInto('accounts')
      .values({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        company_id: companyId,
        code: '9000',
        name: 'Sundry',
        type: 'expense',
        subtype: 'expense',
        system_key: null,
      })
      .execute();
    const ids = Object.fromEntries(
      (
        await tx.selectFrom('accounts').select(['code', 'id']).where('tenant_id', '=', tenantId).execute()
      ).map((r) => [r.code, r.id]),
    );
    await post(
      { db: tx, tenantId },
      {
        companyId,
        date: '2026-01-05',
        description: 'Drawings',
        source: { type: 'test' },
        lines: [
          { accountId: ids['3200']!, debit: '300.00' },
          { accountId: ids['1000']!, credit: '300.00' },
        ],
      },
    );
  });
  await migrate(database, readMigrations());
  const rows = await withTenant(database.db, tenantId, (tx) =>
    tx
      .selectFrom('accounts')
      .select(['code', 'name', 'type', 'subtype', 'system_key', 'is_active'])
      .where('tenant_id', '=', tenantId)
      .execute(),
  );
  const byCode = new Map(rows.map((r) => [r.code, r]));
  for (const [code, [type, subtype, systemKey]] of Object.entries(NEW_ACCOUNTS)) {
    if (code === '9000') continue;
    assert.deepEqual(
      [byCode.get(code)?.type, byCode.get(code)?.subtype, byCode.get(code)?.system_key],
      [type, subtype, systemKey],
      code,
    );
  }
  // 9000 was taken: the user's account stays as it was, and no income tax account is forced in.
  assert.deepEqual([byCode.get('9000')?.name, byCode.get('9000')?.system_key], ['Sundry', null]);
  // Drawings: the system account now, deactivated (every existing company is a pty_ltd until
  // its form is set), the R300 still on it.
  assert.deepEqual([byCode.get('3200')?.system_key, byCode.get('3200')?.is_active], ['drawings', false]);
  // Idempotent: the 0022 functions again add nothing.
  const before = rows.length;
  const again = await withTenant(database.db, tenantId, async (tx) => {
    await sql`select bp_seed_company_accounts(${tenantId}::uuid, ${companyId}::uuid)`.execute(tx);
    await sql`select bp_apply_legal_form(${tenantId}::uuid, ${companyId}::uuid)`.execute(tx);
    return tx.selectFrom('accounts').select('id').where('tenant_id', '=', tenantId).execute();
  });
  assert.equal(again.length, before);
});
