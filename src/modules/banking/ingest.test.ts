// Bank lines in, never twice: the one path files and the feed both take (ingest.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { bankingSetup, ingest } from './banking.factories.ts';
import { planIngest } from './ingest.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const coffee = (line: number) => ({
  line,
  date: '2026-03-03',
  amount: '-50.00',
  description: 'POS PURCHASE MUGG & BEAN',
});
const MARCH = [
  { line: 1, date: '2026-03-02', amount: '1150.00', description: 'ACME INV-0001' },
  coffee(2),
  coffee(3),
  { line: 4, date: '2026-03-04', amount: '-200.00', description: 'DEBIT ORDER TELKOM' },
];

describe('ingest', () => {
  test('identical genuine lines of one day are both kept (sequence 1 and 2), not merged', async () => {
    const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
    const { plan, ids } = await ingest(t, k, MARCH);
    assert.equal(ids.length, 4);
    assert.deepEqual(
      plan.lines.map((p) => [p.outcome, p.sequence]),
      [
        ['new', 1],
        ['new', 1],
        ['new', 2],
        ['new', 1],
      ],
    );
    assert.match(plan.lines[2]!.note!, /line 2.*2nd/);
  });

  test('the same lines again add nothing, and say which line each one is', async () => {
    const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
    await ingest(t, k, MARCH);
    const again = await ingest(t, k, MARCH);
    assert.equal(again.ids.length, 0);
    assert.equal(again.plan.duplicateCount, 4);
    assert.match(again.plan.lines[2]!.reason!, /holds 2 line\(s\) of -50.00 on 2026-03-03; this is the 2nd/);
  });

  test('an overlapping batch adds only what is beyond: a third coffee is new, sequence 3', async () => {
    const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
    await ingest(t, k, MARCH);
    const next = [
      coffee(1),
      coffee(2),
      coffee(3),
      { line: 4, date: '2026-03-04', amount: '-200.00', description: 'DEBIT ORDER TELKOM' },
      { line: 5, date: '2026-03-05', amount: '300.00', description: 'CASH DEPOSIT' },
    ];
    // The feed and a file name a line differently; the date and amount decide.
    const { plan, ids } = await ingest(t, k, next, 'feed');
    assert.deepEqual(
      plan.lines.map((p) => [p.outcome, p.sequence]),
      [
        ['duplicate', 1],
        ['duplicate', 2],
        ['new', 3],
        ['duplicate', 1],
        ['new', 1],
      ],
    );
    assert.equal(ids.length, 2);
  });

  test('pending lines are stored but not counted: the posted one is new', async () => {
    const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
    await ingest(
      t,
      k,
      [{ date: '2026-03-06', amount: '-99.99', description: 'CARD AUTH', pending: true }],
      'feed',
    );
    const plan = await withTenant(t.database.db, k.b.tenantId, (tx) =>
      planIngest(tx, k.b.tenantId, k.bankAccountId, [
        { date: '2026-03-06', amount: '-99.99', description: 'CARD' },
      ]),
    );
    assert.deepEqual([plan.newCount, plan.lines[0]!.sequence], [1, 1]);
  });
});
