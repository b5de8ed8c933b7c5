// Syncing a bank feed against the fake bank: posted lines and the balance in, paging, a token
// expiring mid-sync, 429 waited out, pending lines superseded when they post, nothing twice
// with a statement file; failures, backoff and needs-attention (bank-feeds.sync.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { keysBody } from '../../../test/support/fake-investec.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { connectedFeed, type Fed, fakeBank, feedOf, syncNow } from './bank-feeds.factories.ts';
import { runDueBankFeeds } from './bank-feeds.jobs.ts';
import { ingest } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  // No job worker: the tests run the scheduled sync themselves, on the test clock.
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

const T0 = '2026-03-20T08:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MIN = 60_000;

function lines(k: Fed) {
  return withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('bank_transactions')
      .select([
        'id',
        'date',
        'amount',
        'description',
        'pending',
        'superseded_at',
        'superseded_by',
        'feed_id',
        'external_id',
        'source',
      ])
      .where('bank_account_id', '=', k.bankAccountId)
      .orderBy('date')
      .orderBy('amount')
      .execute(),
  );
}
const live = async (k: Fed) => (await lines(k)).filter((l) => !l.superseded_at);

describe('bank feed sync', () => {
  test('imports the posted lines (posting date, signed by type) and the statement balance; again adds nothing', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      const salary = fake.addTransaction({
        type: 'CREDIT',
        amount: 1150,
        transactionDate: '2026-03-02',
        description: 'ACME INV-0001',
      });
      fake.addTransaction({
        type: 'DEBIT',
        amount: 50,
        transactionDate: '2026-03-03',
        description: 'MUGG & BEAN',
      });
      fake.addTransaction({
        type: 'DEBIT',
        amount: 50,
        transactionDate: '2026-03-03',
        description: 'MUGG & BEAN',
      });
      // Transacted on the 4th, posted on the 5th: dated by its posting.
      fake.addTransaction({
        type: 'DEBIT',
        amount: 200,
        transactionDate: '2026-03-04',
        postingDate: '2026-03-05',
        description: 'TELKOM',
      });
      // Before syncFrom: not asked for.
      fake.addTransaction({ type: 'DEBIT', amount: 99, transactionDate: '2026-02-27', description: 'OLD' });
      fake.accounts[0]!.currentBalance = 850;
      const res = await syncNow(k);
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      assert.equal(out.ok, true);
      assert.equal(out.imported, 4);
      assert.equal(out.fromDate, '2026-03-01');
      assert.equal(out.feed.lastSyncStatus, 'ok');
      assert.equal(out.feed.syncCount, 1);
      assert.equal(out.feed.totalImported, 4);
      assert.equal(out.feed.nextAttemptAt, at(240 * MIN), 'the next sync in 4 hours');
      const got = await live(k);
      assert.deepEqual(
        got.map((l) => [l.date, l.amount, l.source, l.feed_id]),
        [
          ['2026-03-02', '1150.00', 'feed', k.feedId],
          ['2026-03-03', '-50.00', 'feed', k.feedId],
          ['2026-03-03', '-50.00', 'feed', k.feedId],
          ['2026-03-05', '-200.00', 'feed', k.feedId],
        ],
      );
      assert.equal(got[0]!.external_id, salary.uuid, "the bank's uuid is kept");
      const account = (await k.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` })).json();
      assert.equal(account.statementBalance, 850);
      assert.equal(account.statementDate, '2026-03-20');

      // Again: from the last posted day less 3 (2026-03-02), nothing new, and the cached token.
      const again = (await syncNow(k)).json();
      assert.equal(again.fromDate, '2026-03-02');
      assert.equal(again.imported, 0);
      assert.equal(again.duplicates, 4);
      assert.equal((await live(k)).length, 4);
      assert.equal(fake.tokenRequests(), 1, 'one token, cached, for connecting and both syncs');
    } finally {
      await fake.close();
    }
  });

  test('paging: every page is read; a token expiring mid-sync is fetched again once and the sync goes on', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      fake.pageSize = 2;
      for (let d = 2; d <= 6; d++)
        fake.addTransaction({
          type: 'DEBIT',
          amount: 10 * d,
          transactionDate: `2026-03-0${d}`,
          description: `LINE ${d}`,
        });
      fake.expireTokensAtPage(2);
      const before = fake.tokenRequests();
      const out = (await syncNow(k)).json();
      assert.equal(out.ok, true, out.error);
      assert.equal(out.imported, 5);
      const pages = fake.requests.filter((r) => r.path.endsWith('/transactions'));
      assert.deepEqual(
        pages.map((r) => [r.query.get('page'), r.status]),
        [
          ['1', 200],
          ['2', 401],
          ['2', 200],
          ['3', 200],
        ],
      );
      assert.equal(fake.tokenRequests() - before, 1, 'one fresh token after the 401');
      assert.equal((await live(k)).length, 5);
    } finally {
      await fake.close();
    }
  });

  test('a 429 is waited out (Retry-After) and the call retried', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      fake.addTransaction({
        type: 'CREDIT',
        amount: 500,
        transactionDate: '2026-03-10',
        description: 'DEPOSIT',
      });
      fake.rateLimit(1, 1);
      const started = Date.now();
      const out = (await syncNow(k)).json();
      assert.equal(out.ok, true, out.error);
      assert.equal(out.imported, 1);
      assert.ok(Date.now() - started >= 1000, 'waited the second Retry-After asked');
      assert.deepEqual(
        fake.requests.filter((r) => r.path.endsWith('/transactions')).map((r) => r.status),
        [429, 200],
      );
    } finally {
      await fake.close();
    }
  });

  test('revoked keys: needs attention at once, no automatic retry until new keys are given', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      fake.revoke();
      const out = (await syncNow(k)).json();
      assert.equal(out.ok, false);
      assert.match(out.error, /refused the keys/);
      assert.equal(out.feed.lastSyncStatus, 'failed');
      assert.equal(out.feed.needsAttention, true);
      assert.match(out.feed.attentionReason, /refused the keys.*new keys/);
      assert.equal(out.feed.consecutiveFailures, 1);
      assert.equal(out.feed.nextAttemptAt, null);
      assert.match(out.feed.statusLabel, /^Needs attention/);
      // The scheduler leaves it alone, however late.
      t.clock.advance(48 * 60 * MIN);
      await runDueBankFeeds(t.deps)();
      const left = await feedOf(k);
      assert.equal(left.lastSyncAt, out.feed.lastSyncAt, 'not synced');
      assert.equal(left.consecutiveFailures, 1);
      // New keys (checked with the bank) clear it; the next sync is due at once and works.
      const keys = fake.rotate();
      const patched = await k.api({
        method: 'PATCH',
        url: `/api/bank-feeds/${k.feedId}`,
        payload: keysBody(keys),
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().needsAttention, false);
      assert.equal(patched.json().consecutiveFailures, 0);
      assert.equal(patched.json().nextAttemptAt, t.clock.now().toISOString());
      const run = await runDueBankFeeds(t.deps)();
      assert.ok(run.synced >= 1);
      const feed = await feedOf(k);
      assert.equal(feed.lastSyncStatus, 'ok');
      assert.equal(feed.attentionReason, null);
    } finally {
      await fake.close();
    }
  });

  test('keys that SECRETS_KEY cannot open (a key rotated away): needs attention, no retry, no 500', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      await withTenant(t.database.db, k.b.tenantId, (tx) =>
        tx
          .updateTable('bank_feeds')
          .set({ api_key_sealed: 'v1:retired:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' })
          .where('id', '=', k.feedId)
          .execute(),
      );
      const res = await syncNow(k);
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      assert.equal(out.ok, false);
      assert.equal(out.feed.needsAttention, true);
      assert.match(out.feed.attentionReason, /cannot be opened with this SECRETS_KEY/);
      assert.equal(out.feed.nextAttemptAt, null);
    } finally {
      await fake.close();
    }
  });

  test('3 failures in a row need attention; backoff 15 min, 1 h, 4 h; a success resets', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      fake.fail(3);
      const run = runDueBankFeeds(t.deps);
      let elapsed = 0;
      // Failure n is retried after BACKOFF_MINUTES[n-1]: 15, 60, 240 minutes.
      for (const [n, wait] of [
        [1, 15],
        [2, 60],
        [3, 240],
      ] as const) {
        await run();
        const feed = await feedOf(k);
        assert.equal(feed.lastSyncStatus, 'failed');
        assert.equal(feed.consecutiveFailures, n);
        assert.match(feed.lastError, /answered 500/);
        assert.equal(feed.nextAttemptAt, at(elapsed + wait * MIN), `after failure ${n}`);
        assert.equal(feed.needsAttention, n >= 3, `needs attention after failure ${n}`);
        if (n === 3) assert.match(feed.attentionReason, /3 syncs in a row failed/);
        // One minute early: not due, the bank is not asked.
        t.clock.advance((wait - 1) * MIN);
        await run();
        assert.equal((await feedOf(k)).consecutiveFailures, n, 'not due yet: not synced');
        t.clock.advance(MIN);
        elapsed += wait * MIN;
      }
      // 4 h after the third failure the bank works again: all reset.
      await run();
      const feed = await feedOf(k);
      assert.equal(feed.lastSyncStatus, 'ok');
      assert.equal(feed.consecutiveFailures, 0);
      assert.equal(feed.needsAttention, false);
      assert.equal(feed.attentionReason, null);
      assert.equal(feed.lastError, null);
      assert.equal(feed.nextAttemptAt, at(elapsed + 240 * MIN));
    } finally {
      await fake.close();
    }
  });

  test('a pending line that posts with another amount: one line, the posted amount; a vanished one goes', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      const fuel = fake.addTransaction({
        status: 'PENDING',
        type: 'DEBIT',
        amount: 100,
        transactionDate: '2026-03-18',
        description: 'ENGEN FUEL',
      });
      const hold = fake.addTransaction({
        status: 'PENDING',
        type: 'DEBIT',
        amount: 500,
        transactionDate: '2026-03-18',
        description: 'HOTEL DEPOSIT HOLD',
      });
      const first = (await syncNow(k)).json();
      assert.equal(first.pending, 2);
      assert.equal(first.imported, 0);
      assert.equal((await syncNow(k)).json().pending, 0, 'a pending line is held once');
      assert.deepEqual(
        (await live(k)).map((l) => [l.amount, l.pending]),
        [
          ['-500.00', true],
          ['-100.00', true],
        ],
      );
      // The fuel posts the next day for R103.50 (the pump's final figure); the hold is released.
      const posted = fake.post(fuel.uuid, { amount: 103.5, postingDate: '2026-03-19' });
      fake.drop(hold.uuid);
      const out = (await syncNow(k)).json();
      assert.equal(out.imported, 1);
      assert.equal(out.superseded, 2);
      const now = await live(k);
      assert.deepEqual(
        now.map((l) => [l.date, l.amount, l.pending, l.external_id]),
        [['2026-03-19', '-103.50', false, posted.uuid]],
      );
      const all = await lines(k);
      const oldFuel = all.find((l) => l.external_id === fuel.uuid)!;
      assert.equal(oldFuel.superseded_by, now[0]!.id, 'superseded by the posted line');
      const oldHold = all.find((l) => l.external_id === hold.uuid)!;
      assert.ok(oldHold.superseded_at);
      assert.equal(oldHold.superseded_by, null, 'gone, superseded by nothing');
      // And again: still one line.
      await syncNow(k);
      assert.equal((await live(k)).length, 1);
    } finally {
      await fake.close();
    }
  });

  test('the feed and an overlapping statement file add nothing twice', async () => {
    t.clock.set(T0);
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      // The file: the 2nd to the 5th.
      await ingest(t, k, [
        { line: 1, date: '2026-03-02', amount: '1150.00', description: 'ACME INV-0001' },
        { line: 2, date: '2026-03-04', amount: '-50.00', description: 'POS MUGG & BEAN' },
        { line: 3, date: '2026-03-05', amount: '-200.00', description: 'DEBIT ORDER TELKOM' },
      ]);
      // The feed: the 4th to the 6th (descriptions as the bank's API words them).
      fake.addTransaction({
        type: 'DEBIT',
        amount: 50,
        transactionDate: '2026-03-04',
        description: 'MUGG & BEAN',
      });
      fake.addTransaction({
        type: 'DEBIT',
        amount: 200,
        transactionDate: '2026-03-05',
        description: 'TELKOM',
      });
      fake.addTransaction({
        type: 'CREDIT',
        amount: 75.25,
        transactionDate: '2026-03-06',
        description: 'REFUND',
      });
      const out = (await syncNow(k)).json();
      assert.equal(out.imported, 1, 'only the 6th is new');
      assert.equal(out.duplicates, 2);
      assert.equal(out.feed.totalImported, 1);
      // Then a file covering the 6th: nothing new either.
      const again = await ingest(t, k, [
        { line: 1, date: '2026-03-06', amount: '75.25', description: 'REFUND' },
      ]);
      assert.equal(again.ids.length, 0);
      assert.deepEqual(
        (await live(k)).map((l) => [l.date, l.amount, l.source]),
        [
          ['2026-03-02', '1150.00', 'file'],
          ['2026-03-04', '-50.00', 'file'],
          ['2026-03-05', '-200.00', 'file'],
          ['2026-03-06', '75.25', 'feed'],
        ],
      );
    } finally {
      await fake.close();
    }
  });
});
