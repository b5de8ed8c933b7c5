// Test helpers of the bank feed: the app pointed at a fresh fake bank, and a connected feed.
import assert from 'node:assert/strict';
import { register, type TestApp } from '../../../test/support/app.ts';
import { type FakeInvestec, keysBody, startFakeInvestec } from '../../../test/support/fake-investec.ts';
import { type Banking, bankingSetup } from './banking.factories.ts';

export interface Fed extends Banking {
  fake: FakeInvestec;
  feedId: string;
}

/** A fresh fake bank, and the app's feed pointed at it (each test its own bank). */
export async function fakeBank(t: TestApp): Promise<FakeInvestec> {
  const fake = await startFakeInvestec();
  t.deps.config.bankFeedBaseUrl = fake.url;
  return fake;
}

/** A tenant whose FNB account (bankingSetup) is connected to the fake bank's first account. */
export async function connectedFeed(t: TestApp, fake: FakeInvestec, syncFrom = '2026-03-01'): Promise<Fed> {
  const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
  const res = await k.api({
    method: 'POST',
    url: '/api/bank-feeds',
    payload: {
      bankAccountId: k.bankAccountId,
      ...keysBody(fake.credentials),
      investecAccountId: fake.accounts[0]!.accountId,
      syncFrom,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { ...k, fake, feedId: res.json().id };
}

export function syncNow(k: Fed) {
  return k.api({ method: 'POST', url: `/api/bank-feeds/${k.feedId}/sync` });
}

export async function feedOf(k: Fed) {
  const res = await k.api({ method: 'GET', url: `/api/bank-feeds/${k.feedId}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
