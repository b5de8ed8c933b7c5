// The bank lines: the paged list and its filters, a person's coding, exclude and include,
// pending and superseded lines, and tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { chartOf, createRule, line, markReconciled } from './bank-rules.factories.ts';
import { type Banking, bankingSetup, ingest } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));

const MARCH = [
  { line: 1, date: '2026-03-02', amount: '1150.00', description: 'ACME INV-0001', reference: 'INV-0001' },
  { line: 2, date: '2026-03-03', amount: '-50.00', description: 'POS PURCHASE MUGG & BEAN' },
  { line: 3, date: '2026-03-03', amount: '-50.00', description: 'POS PURCHASE MUGG & BEAN' },
  { line: 4, date: '2026-03-04', amount: '-200.00', description: 'DEBIT ORDER TELKOM', payee: 'Telkom SA' },
  { line: 5, date: '2026-03-10', amount: '50.00', description: 'REFUND 100% OFF_PROMO' },
  { line: 6, date: '2026-03-20', amount: '-1150.00', description: 'TRANSFER TO SAVINGS' },
];

async function list(k: Banking, q = '') {
  const res = await k.api({ method: 'GET', url: `/api/bank-transactions${q ? `?${q}` : ''}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    items: { id: string; description: string; amount: number }[];
    total: number;
    page: number;
    totalPages: number;
  };
}
const amounts = async (k: Banking, q: string) => (await list(k, q)).items.map((i) => i.amount);

describe('the list', () => {
  test('filters before paging: account, dates, text, size and direction; newest first; pages never overlap', async () => {
    const k = await setup();
    await ingest(t, k, MARCH);
    // Newest first (date, then the line's sequence, descending).
    assert.deepEqual(await amounts(k, ''), [-1150, 50, -200, -50, -50, 1150]);
    assert.deepEqual(await amounts(k, 'sort=date'), [1150, -50, -50, -200, 50, -1150]);
    assert.deepEqual(await amounts(k, 'from=2026-03-03&to=2026-03-04'), [-200, -50, -50]);
    // q: description, reference or payee, any case; % and _ are plain text.
    assert.deepEqual(await amounts(k, 'q=telkom sa'), [-200]);
    assert.deepEqual(await amounts(k, 'q=inv-0001'), [1150]);
    assert.deepEqual(await amounts(k, `q=${encodeURIComponent('100%')}`), [50]);
    assert.deepEqual(await amounts(k, 'q=R_FUND'), []);
    // Size whatever the direction: 50 in and 50 out are both between 50 and 200.
    assert.deepEqual(await amounts(k, 'amountMin=50&amountMax=200'), [50, -200, -50, -50]);
    assert.deepEqual(await amounts(k, 'amountMin=50&amountMax=200&direction=out'), [-200, -50, -50]);
    assert.deepEqual(await amounts(k, 'amountMin=1000&direction=in'), [1150]);
    assert.equal(
      assertProblem(
        await k.api({ method: 'GET', url: '/api/bank-transactions?amountMin=10&amountMax=5' }),
        400,
      ).field,
      'amountMax',
    );
    assertProblem(await k.api({ method: 'GET', url: '/api/bank-transactions?amountMin=-5' }), 400);
    assertProblem(await k.api({ method: 'GET', url: '/api/bank-transactions?status=pending' }), 400);
    // Paging: 6 lines, 4 a page; the second page holds the last 2, and a page past the end is empty.
    const p1 = await list(k, 'limit=4');
    const p2 = await list(k, 'limit=4&page=2');
    assert.deepEqual([p1.total, p1.totalPages, p1.items.length, p2.items.length], [6, 2, 4, 2]);
    assert.equal(new Set([...p1.items, ...p2.items].map((i) => i.id)).size, 6);
    const p3 = await list(k, 'limit=4&page=3');
    assert.deepEqual([p3.items.length, p3.total], [0, 6]);
    // Another account's filter: its lines only (none).
    const other = await k.api({ method: 'POST', url: '/api/bank-accounts', payload: { name: 'Savings' } });
    assert.equal((await list(k, `bankAccountId=${other.json().id}`)).total, 0);
    assert.equal((await list(k, `bankAccountId=${k.bankAccountId}`)).total, 6);
  });

  test('pending lines are listed with pending: true; a superseded line is hidden but a sync learns of it', async () => {
    const k = await setup();
    const since = new Date(Date.now() - 60000).toISOString();
    const { ids } = await ingest(
      t,
      k,
      [{ date: '2026-03-05', amount: '-75.00', description: 'CARD PURCHASE PENDING', pending: true }],
      'feed',
    );
    const pending = await line(k, ids[0]!);
    assert.equal(pending.pending, true);
    assert.equal((await list(k)).total, 1);
    // The feed posts it (another amount): the pending line is superseded by the posted one.
    const posted = await ingest(
      t,
      k,
      [{ date: '2026-03-06', amount: '-80.00', description: 'CARD PURCHASE' }],
      'feed',
    );
    await withTenant(t.database.db, k.b.tenantId, (tx) =>
      tx
        .updateTable('bank_transactions')
        .set({ superseded_at: new Date(), superseded_by: posted.ids[0]! })
        .where('tenant_id', '=', k.b.tenantId)
        .where('id', '=', ids[0]!)
        .execute(),
    );
    assert.deepEqual(await amounts(k, ''), [-80]);
    assert.deepEqual(
      (await amounts(k, `updatedSince=${encodeURIComponent(since)}`)).sort((a, b) => a - b),
      [-80, -75],
    );
    assert.ok((await line(k, ids[0]!)).supersededAt);
    // A superseded line takes no coding and is not excluded.
    assertProblem(
      await k.api({
        method: 'POST',
        url: `/api/bank-transactions/${ids[0]}/exclude`,
        payload: { reason: 'x' },
      }),
      409,
    );
  });
});

describe('a person codes a line, excludes and includes it', () => {
  test("a person's coding is kept from the rules; clearing it hands the line back to them", async () => {
    const k = await setup();
    const c = await chartOf(k);
    const rule = await createRule(k, {
      name: 'Telkom',
      conditions: [{ field: 'payee', operator: 'equals', value: 'TELKOM SA' }],
      actions: { accountId: c.code('6750'), taxCode: 'input_standard' },
    });
    const { ids } = await ingest(t, k, MARCH);
    const telkom = ids[3]!;
    const ruled = await line(k, telkom);
    assert.deepEqual(
      [ruled.rule, ruled.codedBy, ruled.coding.accountId],
      [{ id: rule.id, name: 'Telkom' }, 'rule', c.code('6750')],
    );
    // The person changes the account; the tax code the rule set stays; it is now the person's.
    const res = await k.api({
      method: 'PATCH',
      url: `/api/bank-transactions/${telkom}`,
      payload: { accountId: c.code('6100'), description: 'Phone' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const mine = res.json();
    assert.deepEqual(
      [mine.codedBy, mine.coding.accountId, mine.coding.taxCode, mine.coding.description, mine.rule.name],
      ['person', c.code('6100'), 'input_standard', 'Phone', 'Telkom'],
    );
    const run = await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} });
    assert.equal(run.json().coded, 0);
    assert.equal((await line(k, telkom)).coding.accountId, c.code('6100'));
    // A split replaces the account; a bad one names its field.
    const bad = await k.api({
      method: 'PATCH',
      url: `/api/bank-transactions/${telkom}`,
      payload: {
        splits: [
          { accountId: c.code('6750'), taxCode: 'input_standard', percent: 50 },
          { accountId: c.control, taxCode: 'input_standard', percent: 50 },
        ],
      },
    });
    assert.equal(assertProblem(bad, 400).field, 'splits[1].accountId');
    // Everything cleared: the line is uncoded, and the next run codes it by the rule again.
    const cleared = await k.api({
      method: 'PATCH',
      url: `/api/bank-transactions/${telkom}`,
      payload: { accountId: null, taxCode: null, description: null },
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual(
      [cleared.json().codedBy, cleared.json().rule, cleared.json().coding.accountId],
      [null, null, null],
    );
    await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} });
    assert.equal((await line(k, telkom)).coding.accountId, c.code('6750'));
  });

  test('exclude with a reason, include back; a reconciled line answers 409 ALREADY_RECONCILED', async () => {
    const k = await setup();
    const { ids } = await ingest(t, k, MARCH);
    const [inv, , , , , transfer] = ids as string[];
    const ex = await k.api({
      method: 'POST',
      url: `/api/bank-transactions/${transfer}/exclude`,
      payload: { reason: 'Transfer recorded by journal' },
    });
    assert.equal(ex.statusCode, 200, ex.body);
    assert.deepEqual(
      [ex.json().status, ex.json().excludedReason],
      ['excluded', 'Transfer recorded by journal'],
    );
    assert.deepEqual(await amounts(k, 'status=excluded'), [-1150]);
    assert.equal((await list(k, 'status=unreconciled')).total, 5);
    // An excluded line takes no coding until included.
    assertProblem(
      await k.api({
        method: 'PATCH',
        url: `/api/bank-transactions/${transfer}`,
        payload: { description: 'x' },
      }),
      409,
    );
    assert.equal(
      assertProblem(
        await k.api({ method: 'POST', url: `/api/bank-transactions/${transfer}/exclude`, payload: {} }),
        400,
      ).field,
      'reason',
    );
    const back = await k.api({ method: 'POST', url: `/api/bank-transactions/${transfer}/include` });
    assert.deepEqual(
      [back.statusCode, back.json().status, back.json().excludedReason],
      [200, 'unreconciled', null],
    );
    await markReconciled(t, k, [inv!]);
    for (const [method, url, payload] of [
      ['POST', `/api/bank-transactions/${inv}/exclude`, { reason: 'x' }],
      ['POST', `/api/bank-transactions/${inv}/include`, undefined],
      ['PATCH', `/api/bank-transactions/${inv}`, { description: 'x' }],
    ] as const) {
      const res = await k.api({ method, url, ...(payload ? { payload } : {}) });
      assert.equal(assertProblem(res, 409, url).code, 'ALREADY_RECONCILED');
    }
    assert.equal((await list(k, 'status=reconciled')).total, 1);
  });

  test("another tenant's line answers 404 everywhere", async () => {
    const k = await setup();
    const { ids } = await ingest(t, k, MARCH);
    const other = await setup();
    const id = ids[0]!;
    assertProblem(await other.api({ method: 'GET', url: `/api/bank-transactions/${id}` }), 404);
    assertProblem(
      await other.api({
        method: 'PATCH',
        url: `/api/bank-transactions/${id}`,
        payload: { description: 'x' },
      }),
      404,
    );
    assertProblem(
      await other.api({
        method: 'POST',
        url: `/api/bank-transactions/${id}/exclude`,
        payload: { reason: 'x' },
      }),
      404,
    );
    assertProblem(await other.api({ method: 'POST', url: `/api/bank-transactions/${id}/include` }), 404);
    assert.equal((await list(other)).total, 0);
    assert.equal((await list(other, `bankAccountId=${k.bankAccountId}`)).total, 0);
  });
});
