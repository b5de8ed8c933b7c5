// Many simultaneous postings on the same accounts (the bank account is everyone's hot row)
// leave every running balance exact: the balances equal the sum of the lines, and the lines
// what was posted. On PostgreSQL (CI's second run) the postings truly overlap, on a pool of
// connections; embedded, they queue for the one connection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { money, sum } from '../../platform/money/money.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const POSTINGS = 240;
const DAYS = ['2026-05-01', '2026-05-02', '2026-05-03'];

test(`${POSTINGS} simultaneous journals on shared accounts leave the balances exact`, async () => {
  const b = await register(t.app);
  const api = as(t.app, b.token, b.companyId);
  // Amounts in cents, chosen so that a lost or doubled update shows in the totals.
  const amounts = Array.from({ length: POSTINGS }, (_, i) => ((i * 7919) % 100_000) + 1);
  const expenseCodes = ['6100', '6400', '6600'];
  const results = await Promise.all(
    amounts.map((cents, i) =>
      api({
        method: 'POST',
        url: '/api/ledger/journals',
        payload: {
          date: DAYS[i % DAYS.length],
          description: `Concurrent ${i}`,
          lines: [
            {
              accountCode: expenseCodes[Math.floor(i / DAYS.length) % expenseCodes.length],
              debit: cents / 100,
            },
            { accountCode: '1000', credit: cents / 100 },
          ],
        },
      }),
    ),
  );
  assert.deepEqual(
    results.filter((r) => r.statusCode !== 201).map((r) => r.body),
    [],
  );
  const expected = sum(amounts.map((c) => money(c).dividedBy(100)));
  await withTenant(t.database.db, b.tenantId, async (tx) => {
    const balances = await tx
      .selectFrom('account_balances as b')
      .innerJoin('accounts as a', (j) =>
        j.onRef('a.tenant_id', '=', 'b.tenant_id').onRef('a.id', '=', 'b.account_id'),
      )
      .select([
        'a.code',
        (eb) => eb.fn.sum<string>('b.debit').as('d'),
        (eb) => eb.fn.sum<string>('b.credit').as('c'),
      ])
      .where('b.tenant_id', '=', b.tenantId)
      .where('b.company_id', '=', b.companyId)
      .groupBy('a.code')
      .execute();
    const lines = await tx
      .selectFrom('journal_lines as l')
      .innerJoin('accounts as a', (j) =>
        j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
      )
      .select([
        'a.code',
        (eb) => eb.fn.sum<string>('l.debit').as('d'),
        (eb) => eb.fn.sum<string>('l.credit').as('c'),
      ])
      .where('l.tenant_id', '=', b.tenantId)
      .where('l.company_id', '=', b.companyId)
      .groupBy('a.code')
      .execute();
    const byCode = (rows: typeof lines) =>
      Object.fromEntries(rows.map((r) => [r.code, [money(r.d).toFixed(2), money(r.c).toFixed(2)]]));
    assert.deepEqual(byCode(balances), byCode(lines));
    assert.equal(byCode(balances)['1000']![1], expected.toFixed(2));
    const expenses = sum(expenseCodes.map((c) => money(byCode(balances)[c]![0])));
    assert.equal(expenses.toFixed(2), expected.toFixed(2));
    const perDay = await tx
      .selectFrom('account_balances')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', b.tenantId)
      .where('company_id', '=', b.companyId)
      .executeTakeFirstOrThrow();
    // One row per account per day: 4 accounts (3 expenses and the bank) × 3 days.
    assert.equal(Number(perDay.n), 12);
  });
});
