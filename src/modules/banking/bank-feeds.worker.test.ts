// The scheduled sync in the job worker (src/workers.ts): the bank-feeds queue, run as its cron
// would run it, syncs a due feed as the system, in the feed's tenant.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { connectedFeed, fakeBank, feedOf } from './bank-feeds.factories.ts';
import { BANK_FEED_SYNC_QUEUE } from './bank-feeds.jobs.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

test('the bank-feeds queue syncs every due feed', async () => {
  const fake = await fakeBank(t);
  try {
    const k = await connectedFeed(t, fake);
    fake.addTransaction({
      type: 'CREDIT',
      amount: 320,
      transactionDate: '2026-03-05',
      description: 'EFT ACME',
    });
    fake.accounts[0]!.currentBalance = 320;
    // What the cron does every 15 minutes: a job on the queue.
    await t.deps.jobs.send(BANK_FEED_SYNC_QUEUE, {});
    let feed = await feedOf(k);
    for (let i = 0; i < 100 && feed.lastSyncStatus === null; i++) {
      await new Promise((r) => setTimeout(r, 200));
      feed = await feedOf(k);
    }
    assert.equal(feed.lastSyncStatus, 'ok', JSON.stringify(feed));
    assert.equal(feed.totalImported, 1);
    const account = (await k.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` })).json();
    assert.equal(account.statementBalance, 320);
  } finally {
    await fake.close();
  }
});
