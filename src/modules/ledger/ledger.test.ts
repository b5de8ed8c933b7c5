// The chart of accounts and manual journals through HTTP: the seeded South African chart,
// adding and deactivating accounts, balanced journals only, control accounts refused, the
// lock date, voiding with a reversal, and the paged list of journal lines.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

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

async function chart(b: Registered): Promise<AccountBody[]> {
  const res = await as(t.app, b.token, b.companyId)({ method: 'GET', url: '/api/accounts' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const byKey = (accounts: AccountBody[], key: string) => accounts.find((a) => a.systemKey === key)!;

function journal(b: Registered, payload: object) {
  return as(t.app, b.token, b.companyId)({ method: 'POST', url: '/api/ledger/journals', payload });
}

describe('chart of accounts', () => {
  test('a new company has the South African default chart, as a bare array by code', async () => {
    const b = await register(t.app);
    const accounts = await chart(b);
    assert.ok(Array.isArray(accounts));
    const keys = accounts.map((a) => a.systemKey).filter(Boolean);
    for (const key of [
      'bank',
      'debtors_control',
      'creditors_control',
      'vat_input',
      'vat_output',
      'customer_deposits',
      'inventory',
      'paye_payable',
      'uif_payable',
      'sdl_payable',
      'retained_earnings',
      'sales',
      'cost_of_sales',
    ]) {
      assert.ok(keys.includes(key), `the chart has ${key}`);
    }
    assert.ok(
      accounts.some((a) => a.type === 'expense' && a.systemKey === null),
      'expense accounts',
    );
    assert.deepEqual(
      accounts.map((a) => a.code),
      [...accounts.map((a) => a.code)].sort(),
    );
    assert.equal(byKey(accounts, 'debtors_control').isControl, true);
    assert.equal(byKey(accounts, 'creditors_control').isControl, true);
    assert.equal(byKey(accounts, 'bank').isControl, false);
  });

  test('a second company gets its own chart; the header is required', async () => {
    const b = await register(t.app, { plan: 'business' });
    const res = await as(
      t.app,
      b.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Second' } });
    const second = res.json().id;
    const mine = await chart(b);
    const theirs = (await as(t.app, b.token, second)({ method: 'GET', url: '/api/accounts' })).json();
    assert.equal(theirs.length, mine.length);
    assert.equal(new Set([...mine, ...theirs].map((a: AccountBody) => a.id)).size, mine.length * 2);
    const missing = await as(t.app, b.token)({ method: 'GET', url: '/api/accounts' });
    assert.equal(assertProblem(missing, 400).detail, 'X-Company-Id header is required for this request');
  });

  test('add, rename and deactivate an account; codes are unique; system accounts stay', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token, b.companyId);
    const add = await api({
      method: 'POST',
      url: '/api/accounts',
      payload: { code: '6960', name: 'Software subscriptions', type: 'expense' },
    });
    assert.equal(add.statusCode, 201, add.body);
    assert.equal(add.json().subtype, 'expense');
    assert.equal(add.json().isControl, false);
    const again = await api({
      method: 'POST',
      url: '/api/accounts',
      payload: { code: '6960', name: 'Twin', type: 'expense' },
    });
    assertProblem(again, 409);
    const badSubtype = await api({
      method: 'POST',
      url: '/api/accounts',
      payload: { code: '6961', name: 'X', type: 'expense', subtype: 'bank' },
    });
    assert.equal(assertProblem(badSubtype, 400).field, 'subtype');
    const id = add.json().id;
    const renamed = await api({ method: 'PATCH', url: `/api/accounts/${id}`, payload: { name: 'SaaS' } });
    assert.equal(renamed.json().name, 'SaaS');
    const off = await api({ method: 'PATCH', url: `/api/accounts/${id}`, payload: { isActive: false } });
    assert.equal(off.json().isActive, false);
    // isActive filters the chart as it filters contacts and products: absent lists both.
    const active = (await api({ method: 'GET', url: '/api/accounts?isActive=true' })).json() as AccountBody[];
    assert.ok(!active.some((a) => a.id === id), 'isActive=true leaves deactivated accounts out');
    assert.ok(active.every((a) => a.isActive));
    const inactive = (
      await api({ method: 'GET', url: '/api/accounts?isActive=false' })
    ).json() as AccountBody[];
    assert.deepEqual(
      inactive.map((a) => a.id),
      [id],
    );
    const all = await chart(b);
    assert.ok(all.some((a) => a.id === id));
    assert.equal(all.length, active.length + 1);
    // Nothing more may be posted to it.
    const posted = await journal(b, {
      date: '2026-03-01',
      description: 'x',
      lines: [
        { accountId: id, debit: 10 },
        { accountCode: '1000', credit: 10 },
      ],
    });
    assert.equal(assertProblem(posted, 400).field, 'lines[0].accountId');
    const bank = byKey(await chart(b), 'bank');
    assertProblem(
      await api({ method: 'PATCH', url: `/api/accounts/${bank.id}`, payload: { isActive: false } }),
      409,
    );
  });
});

describe('manual journals', () => {
  test('a balanced journal posts; its lines are listed in the ledger', async () => {
    const b = await register(t.app);
    const res = await journal(b, {
      date: '2026-03-31',
      description: 'Bank charges for March',
      reference: 'MJ-1',
      lines: [
        { accountCode: '6100', debit: 125.5, description: 'Service fee' },
        { accountCode: '1000', credit: 125.5 },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    const j = res.json();
    assert.equal(j.status, 'posted');
    assert.equal(j.totalDebit, 125.5);
    assert.equal(j.totalCredit, 125.5);
    assert.deepEqual(
      j.lines.map((l: { accountCode: string; debit: number; credit: number }) => [
        l.accountCode,
        l.debit,
        l.credit,
      ]),
      [
        ['6100', 125.5, 0],
        ['1000', 0, 125.5],
      ],
    );
    const ledger = await as(t.app, b.token, b.companyId)({ method: 'GET', url: '/api/ledger' });
    assert.equal(ledger.statusCode, 200, ledger.body);
    assert.equal(ledger.json().total, 2);
    assert.equal(ledger.json().items[0].entryId, j.id);
    const bank = byKey(await chart(b), 'bank');
    const filtered = await as(
      t.app,
      b.token,
      b.companyId,
    )({
      method: 'GET',
      url: `/api/ledger?accountId=${bank.id}&from=2026-03-01&to=2026-03-31`,
    });
    assert.equal(filtered.json().total, 1);
    assert.equal(filtered.json().items[0].credit, 125.5);
    const outside = await as(
      t.app,
      b.token,
      b.companyId,
    )({ method: 'GET', url: '/api/ledger?from=2026-04-01' });
    assert.equal(outside.json().total, 0);
  });

  test('unbalanced by a cent is a 400 naming lines, and nothing is written', async () => {
    const b = await register(t.app);
    const res = await journal(b, {
      date: '2026-03-31',
      description: 'Off by a cent',
      lines: [
        { accountCode: '6100', debit: 100.01 },
        { accountCode: '1000', credit: 100 },
      ],
    });
    const body = assertProblem(res, 400);
    assert.equal(body.field, 'lines');
    assert.match(String(body.detail), /0\.01/);
    const ledger = await as(t.app, b.token, b.companyId)({ method: 'GET', url: '/api/ledger' });
    assert.equal(ledger.json().total, 0);
  });

  test('bad lines are 400 naming the line: control account, both sides, three decimals, unknown code', async () => {
    const b = await register(t.app);
    const cases: Array<[object[], string]> = [
      [
        [
          { accountCode: '1100', debit: 10 },
          { accountCode: '4000', credit: 10 },
        ],
        'lines[0].accountId',
      ],
      [
        [
          { accountCode: '6100', debit: 10, credit: 10 },
          { accountCode: '1000', credit: 0 },
        ],
        'lines[0].debit',
      ],
      [
        [
          { accountCode: '6100', debit: 10.005 },
          { accountCode: '1000', credit: 10.005 },
        ],
        'lines[0].debit',
      ],
      [
        [
          { accountCode: '6100', debit: 10 },
          { accountCode: '9999', credit: 10 },
        ],
        'lines[1].accountCode',
      ],
      [
        [
          { accountCode: '6100', debit: -10 },
          { accountCode: '1000', credit: -10 },
        ],
        'lines[0].debit',
      ],
    ];
    for (const [lines, field] of cases) {
      const res = await journal(b, { date: '2026-03-31', description: 'x', lines });
      assert.equal(assertProblem(res, 400, JSON.stringify(lines)).field, field, res.body);
    }
  });

  test('clientId: 201 then 200 with the same journal; concurrent submissions post once', async () => {
    const b = await register(t.app);
    const clientId = crypto.randomUUID();
    const body = {
      clientId,
      date: '2026-03-31',
      description: 'Once',
      lines: [
        { accountCode: '6100', debit: 1 },
        { accountCode: '1000', credit: 1 },
      ],
    };
    const [r1, r2] = await Promise.all([journal(b, body), journal(b, body)]);
    assert.deepEqual([r1.statusCode, r2.statusCode].sort(), [200, 201]);
    assert.equal(r1.json().id, clientId);
    const r3 = await journal(b, body);
    assert.equal(r3.statusCode, 200);
    const ledger = await as(t.app, b.token, b.companyId)({ method: 'GET', url: '/api/ledger' });
    assert.equal(ledger.json().total, 2);
  });

  test('void posts a reversal; a second void is 409; the pair nets to zero', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token, b.companyId);
    const j = (
      await journal(b, {
        date: '2026-03-31',
        description: 'To undo',
        lines: [
          { accountCode: '6400', debit: 5000 },
          { accountCode: '1000', credit: 5000 },
        ],
      })
    ).json();
    const voided = await api({ method: 'DELETE', url: `/api/ledger/journals/${j.id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().status, 'reversed');
    const reversal = (
      await api({ method: 'GET', url: `/api/ledger/journals/${voided.json().reversedByEntryId}` })
    ).json();
    assert.equal(reversal.status, 'reversal');
    assert.equal(reversal.date, '2026-03-31');
    assert.deepEqual(
      reversal.lines.map((l: { accountCode: string; debit: number; credit: number }) => [
        l.accountCode,
        l.debit,
        l.credit,
      ]),
      [
        ['6400', 0, 5000],
        ['1000', 5000, 0],
      ],
    );
    assertProblem(await api({ method: 'DELETE', url: `/api/ledger/journals/${j.id}` }), 409);
    assertProblem(await api({ method: 'DELETE', url: `/api/ledger/journals/${reversal.id}` }), 409);
    const rent = byKey(await chart(b), 'bank');
    const lines = (await api({ method: 'GET', url: `/api/ledger?accountId=${rent.id}` })).json();
    assert.equal(lines.total, 2);
    const net = lines.items.reduce(
      (s: number, l: { debit: number; credit: number }) => s + l.debit - l.credit,
      0,
    );
    assert.equal(net, 0);
  });

  test('the lock date refuses postings on or before it (409 PERIOD_LOCKED), and voids dated there', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token, b.companyId);
    const early = (
      await journal(b, {
        date: '2026-01-15',
        description: 'January',
        lines: [
          { accountCode: '6400', debit: 100 },
          { accountCode: '1000', credit: 100 },
        ],
      })
    ).json();
    const lock = await api({
      method: 'PATCH',
      url: '/api/ledger/settings',
      payload: { lockDate: '2026-01-31' },
    });
    assert.equal(lock.statusCode, 200, lock.body);
    assert.deepEqual(lock.json(), { lockDate: '2026-01-31', financialYearEndMonth: 2 });
    const refused = await journal(b, {
      date: '2026-01-31',
      description: 'Too late',
      lines: [
        { accountCode: '6400', debit: 100 },
        { accountCode: '1000', credit: 100 },
      ],
    });
    const body = assertProblem(refused, 409);
    assert.equal(body.code, 'PERIOD_LOCKED');
    assert.equal(body.field, 'date');
    assertProblem(await api({ method: 'DELETE', url: `/api/ledger/journals/${early.id}` }), 409);
    const voidLater = await api({
      method: 'DELETE',
      url: `/api/ledger/journals/${early.id}?date=2026-02-01`,
    });
    assert.equal(voidLater.statusCode, 200, voidLater.body);
    const open = await journal(b, {
      date: '2026-02-01',
      description: 'After the lock',
      lines: [
        { accountCode: '6400', debit: 100 },
        { accountCode: '1000', credit: 100 },
      ],
    });
    assert.equal(open.statusCode, 201);
    // A sales user may read the ledger but not move the lock date.
    const settings = await api({ method: 'GET', url: '/api/ledger/settings' });
    assert.equal(settings.json().lockDate, '2026-01-31');
  });

  test("an entry that a document posted cannot be voided here; another tenant's id is 404", async () => {
    const b = await register(t.app);
    const other = await register(t.app);
    const j = (
      await journal(b, {
        date: '2026-03-31',
        description: 'Mine',
        lines: [
          { accountCode: '6400', debit: 1 },
          { accountCode: '1000', credit: 1 },
        ],
      })
    ).json();
    const foreign = await as(
      t.app,
      other.token,
      other.companyId,
    )({ method: 'GET', url: `/api/ledger/journals/${j.id}` });
    assertProblem(foreign, 404);
  });
});
