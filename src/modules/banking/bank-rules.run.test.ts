// Re-running the bank rules (POST /api/bank-rules/run): over what is held, narrowed, in bulk.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  chartOf,
  codings,
  createRule,
  line,
  markReconciled,
  TELKOM,
  UBER_EATS,
  UBER_PAYOUT,
  UBER_RIDE,
} from './bank-rules.factories.ts';
import { bankingSetup, ingest } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));

describe('re-running the rules', () => {
  test('a rule added later codes what is held; a changed rule recodes; a person and a reconciled line are left alone', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const { ids } = await ingest(t, k, [UBER_RIDE, UBER_EATS, UBER_PAYOUT, TELKOM]);
    const [ride, eats, payout, telkom] = ids as [string, string, string, string];
    // A person codes the payout; the Telkom line is reconciled.
    const coded = await k.api({
      method: 'PATCH',
      url: `/api/bank-transactions/${payout}`,
      payload: { accountId: c.code('4000'), description: 'mine' },
    });
    assert.equal(coded.statusCode, 200, coded.body);
    await markReconciled(t, k, [telkom]);
    const rule = await createRule(k, {
      name: 'Uber',
      conditions: [{ field: 'description', operator: 'contains', value: 'uber' }],
      actions: { accountId: c.code('6750') },
    });
    const run = () =>
      k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} }).then((r) => {
        assert.equal(r.statusCode, 200, r.body);
        return r.json();
      });
    // Examined: ride and eats (the payout is a person's, Telkom is reconciled); both coded.
    assert.deepEqual(await run(), { examined: 2, coded: 2, cleared: 0, unchanged: 0 });
    assert.deepEqual(await run(), { examined: 2, coded: 0, cleared: 0, unchanged: 2 });
    assert.deepEqual((await codings(k, [payout]))[0], [null, c.code('4000'), null, null, 'mine']);
    assert.equal((await line(k, payout)).codedBy, 'person');
    // Narrowed to "eats": the ride no longer matches and is cleared; eats is recoded the same.
    await k.api({
      method: 'PATCH',
      url: `/api/bank-rules/${rule.id}`,
      payload: { conditions: [{ field: 'description', operator: 'wildcard', value: 'uber eats*' }] },
    });
    assert.deepEqual(await run(), { examined: 2, coded: 0, cleared: 1, unchanged: 1 });
    assert.deepEqual(await codings(k, [ride, eats]), [
      [null, null, null, null, null],
      ['Uber', c.code('6750'), null, null, null],
    ]);
    // Dates narrow the run: only 2026-03-02 (the ride) is looked at.
    assert.deepEqual(
      (
        await k.api({
          method: 'POST',
          url: '/api/bank-rules/run',
          payload: { from: '2026-03-02', to: '2026-03-02' },
        })
      ).json(),
      { examined: 1, coded: 0, cleared: 0, unchanged: 1 },
    );
    assert.equal(
      assertProblem(
        await k.api({
          method: 'POST',
          url: '/api/bank-rules/run',
          payload: { from: '2026-03-05', to: '2026-03-01' },
        }),
        400,
      ).field,
      'to',
    );
    // One new rule run alone: it looks at the lines no other rule coded (the ride), not at eats
    // (the Uber rule's) nor the payout (a person's), and codes the ride.
    const rides = await createRule(k, {
      name: 'Rides',
      conditions: [{ field: 'description', operator: 'wildcard', value: 'uber ?trip*' }],
      actions: { accountId: c.code('6100') },
    });
    const alone = await k.api({
      method: 'POST',
      url: '/api/bank-rules/run',
      payload: { ruleIds: [rides.id] },
    });
    assert.deepEqual(alone.json(), { examined: 1, coded: 1, cleared: 0, unchanged: 0 });
    assert.deepEqual(await codings(k, [ride, eats]), [
      ['Rides', c.code('6100'), null, null, null],
      ['Uber', c.code('6750'), null, null, null],
    ]);
    await k.api({ method: 'PATCH', url: `/api/bank-rules/${rides.id}`, payload: { isActive: false } });
    const off = await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: { ruleIds: [rides.id] } });
    assert.equal(assertProblem(off, 400).field, 'ruleIds[0]');
  });

  test('6,000 lines: coded in bulk on import, and re-run in a few statements', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const fees = await createRule(k, {
      name: 'Fees',
      conditions: [{ field: 'description', operator: 'wildcard', value: '*FEE*' }],
      actions: { accountId: c.code('6100') },
    });
    const big = await createRule(k, {
      name: 'Big in',
      match: 'all',
      conditions: [
        { field: 'amount', operator: 'gt', value: 1000 },
        { field: 'direction', operator: 'equals', value: 'in' },
      ],
      actions: { accountId: c.code('4000') },
    });
    // 6,000 lines (the bench takes 50,000; PGlite here is single-threaded and shared): i % 3 == 0
    // a fee (2,000), i % 3 == 1 a big payment in (2,000), the rest (2,000) no rule.
    const lines = Array.from({ length: 6000 }, (_, i) => ({
      line: i + 1,
      date: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
      amount: i % 3 === 0 ? '-12.50' : i % 3 === 1 ? '1500.00' : '-99.00',
      description: i % 3 === 0 ? `SERVICE FEE ${i}` : `PAYMENT ${i}`,
    }));
    const { ids } = await ingest(t, k, lines);
    assert.equal(ids.length, 6000);
    const total = (q: string) =>
      k.api({ method: 'GET', url: `/api/bank-transactions?limit=1&${q}` }).then((r) => r.json().total);
    assert.deepEqual([await total(`ruleId=${fees.id}`), await total(`ruleId=${big.id}`)], [2000, 2000]);
    // The big-payment rule goes: a re-run clears its 2,000 lines and leaves the fees as they are.
    await k.api({ method: 'DELETE', url: `/api/bank-rules/${big.id}` });
    const started = Date.now();
    const run = await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} });
    const ms = Date.now() - started;
    assert.deepEqual(run.json(), { examined: 6000, coded: 0, cleared: 2000, unchanged: 4000 });
    assert.deepEqual([await total(`ruleId=${fees.id}`), await total(`ruleId=${big.id}`)], [2000, 0]);
    assert.ok(ms < 15000, `re-run over 6,000 lines took ${ms} ms`);
  });
});
