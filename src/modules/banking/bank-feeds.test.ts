// /api/bank-feeds: connecting with the customer's keys (checked with the bank, sealed at rest,
// never answered back), one live feed per account, disconnecting, SECRETS_KEY, tenancy.
// Against a local fake of Investec Programmable Banking (test/support/fake-investec.ts).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { keysBody } from '../../../test/support/fake-investec.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { connectedFeed, fakeBank } from './bank-feeds.factories.ts';
import { bankingSetup } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  // No job worker: the tests run the scheduled sync themselves, on the test clock.
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T08:00:00Z');
});
after(async () => {
  await t.close();
});

// The spec's Bank feed fields, exactly.
const SPEC_FIELDS = [
  'id',
  'bankAccountId',
  'bankAccountName',
  'investecAccountId',
  'investecAccountName',
  'investecAccountMasked',
  'currency',
  'status',
  'statusLabel',
  'lastSyncStatus',
  'lastError',
  'attentionReason',
  'lastSyncAt',
  'nextAttemptAt',
  'createdAt',
  'syncFrom',
  'syncCount',
  'totalImported',
  'consecutiveFailures',
  'needsAttention',
].sort();

describe('bank feeds: connecting', () => {
  test('the accounts the keys see are listed masked; connecting seals the keys, which are never answered', async () => {
    const fake = await fakeBank(t);
    try {
      const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
      const seen = await k.api({
        method: 'POST',
        url: '/api/bank-feeds/accounts',
        payload: keysBody(fake.credentials),
      });
      assert.equal(seen.statusCode, 200, seen.body);
      assert.deepEqual(
        seen
          .json()
          .accounts.map((a: { investecAccountMasked: string; referenceName: string }) => [
            a.investecAccountMasked,
            a.referenceName,
          ]),
        [
          ['••••5678', 'Dlamini Trading'],
          ['••••4321', 'Savings'],
        ],
      );
      const res = await k.api({
        method: 'POST',
        url: '/api/bank-feeds',
        payload: {
          bankAccountId: k.bankAccountId,
          ...keysBody(fake.credentials),
          investecAccountId: fake.accounts[0]!.accountId,
          syncFrom: '2026-03-01',
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      const feed = res.json();
      assert.deepEqual(Object.keys(feed).sort(), SPEC_FIELDS);
      assert.equal(feed.bankAccountName, 'FNB Business Cheque');
      assert.equal(feed.investecAccountMasked, '••••5678');
      assert.equal(feed.status, 'active');
      assert.equal(feed.needsAttention, false);
      assert.equal(feed.nextAttemptAt, '2026-03-20T08:00:00.000Z', 'the first sync is due at once');
      for (const secret of Object.values(fake.credentials)) {
        assert.ok(!res.body.includes(secret), 'no key in the answer');
      }
      const list = await k.api({ method: 'GET', url: '/api/bank-feeds' });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(Object.keys(list.json()), ['feeds']);
      assert.equal(list.json().feeds.length, 1);
      assert.deepEqual(Object.keys(list.json().feeds[0]).sort(), SPEC_FIELDS);
      for (const secret of Object.values(fake.credentials)) assert.ok(!list.body.includes(secret));

      // In the table: sealed (v1:<key id>:...), never in clear.
      const row = await withTenant(t.database.db, k.b.tenantId, (tx) =>
        tx.selectFrom('bank_feeds').selectAll().where('id', '=', feed.id).executeTakeFirstOrThrow(),
      );
      const sealed = [row.client_id_sealed, row.client_secret_sealed, row.api_key_sealed];
      for (const s of sealed) assert.match(s, /^v1:test:/);
      for (const secret of Object.values(fake.credentials))
        assert.ok(!JSON.stringify(row).includes(secret), 'no key in clear in the row');
      // Nor in the audit log of the POST.
      const audit = await withTenant(t.database.db, k.b.tenantId, (tx) =>
        tx.selectFrom('audit_log').select('details').execute(),
      );
      const logged = JSON.stringify(audit);
      for (const secret of Object.values(fake.credentials))
        assert.ok(!logged.includes(secret), 'no key in the log');
    } finally {
      await fake.close();
    }
  });

  test('keys the bank refuses: 422, nothing stored; an account they do not see: 400 naming the field', async () => {
    const fake = await fakeBank(t);
    try {
      const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
      const wrong = { ...keysBody(fake.credentials), investecClientSecret: 'not-the-secret' };
      const seen = await k.api({ method: 'POST', url: '/api/bank-feeds/accounts', payload: wrong });
      assert.equal(seen.statusCode, 422, seen.body);
      assert.match(seen.json().detail, /refused the keys/);
      const body = {
        bankAccountId: k.bankAccountId,
        ...wrong,
        investecAccountId: fake.accounts[0]!.accountId,
        syncFrom: '2026-03-01',
      };
      const res = await k.api({ method: 'POST', url: '/api/bank-feeds', payload: body });
      assert.equal(res.statusCode, 422, res.body);
      const other = await k.api({
        method: 'POST',
        url: '/api/bank-feeds',
        payload: { ...body, ...keysBody(fake.credentials), investecAccountId: '999' },
      });
      assert.equal(other.statusCode, 400, other.body);
      assert.match(other.body, /investecAccountId/);
      const list = await k.api({ method: 'GET', url: '/api/bank-feeds' });
      assert.deepEqual(list.json(), { feeds: [] });
      // Unknown properties are refused.
      const extra = await k.api({
        method: 'POST',
        url: '/api/bank-feeds/accounts',
        payload: { ...keysBody(fake.credentials), pin: '1' },
      });
      assert.equal(extra.statusCode, 400);
    } finally {
      await fake.close();
    }
  });

  test('one live feed per bank account (409); disconnecting keeps the feed, and another may connect', async () => {
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      const body = {
        bankAccountId: k.bankAccountId,
        ...keysBody(fake.credentials),
        investecAccountId: fake.accounts[0]!.accountId,
        syncFrom: '2026-03-01',
      };
      const twice = await k.api({ method: 'POST', url: '/api/bank-feeds', payload: body });
      assert.equal(twice.statusCode, 409, twice.body);
      const gone = await k.api({ method: 'DELETE', url: `/api/bank-feeds/${k.feedId}` });
      assert.equal(gone.statusCode, 200, gone.body);
      assert.equal(gone.json().status, 'disconnected');
      assert.equal(gone.json().nextAttemptAt, null);
      const again = await k.api({ method: 'DELETE', url: `/api/bank-feeds/${k.feedId}` });
      assert.equal(again.statusCode, 200);
      const sync = await k.api({ method: 'POST', url: `/api/bank-feeds/${k.feedId}/sync` });
      assert.equal(sync.statusCode, 409, sync.body);
      const patch = await k.api({
        method: 'PATCH',
        url: `/api/bank-feeds/${k.feedId}`,
        payload: { syncFrom: '2026-02-01' },
      });
      assert.equal(patch.statusCode, 409);
      const fresh = await k.api({ method: 'POST', url: '/api/bank-feeds', payload: body });
      assert.equal(fresh.statusCode, 201, fresh.body);
      const list = (await k.api({ method: 'GET', url: '/api/bank-feeds' })).json();
      assert.deepEqual(
        list.feeds.map((f: { status: string }) => f.status),
        ['disconnected', 'active'],
      );
    } finally {
      await fake.close();
    }
  });

  test('new keys come as all three (400 naming the missing one)', async () => {
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      const res = await k.api({
        method: 'PATCH',
        url: `/api/bank-feeds/${k.feedId}`,
        payload: { investecClientId: 'x', investecClientSecret: 'y' },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /investecApiKey/);
    } finally {
      await fake.close();
    }
  });

  test('without SECRETS_KEY the feed routes that keep or use keys answer 503 naming it', async () => {
    const fake = await fakeBank(t);
    const keys = t.deps.config.secretKeys;
    try {
      const k = await connectedFeed(t, fake);
      t.deps.config.secretKeys = () => undefined;
      const create = await k.api({
        method: 'POST',
        url: '/api/bank-feeds',
        payload: {
          bankAccountId: k.bankAccountId,
          ...keysBody(fake.credentials),
          investecAccountId: fake.accounts[0]!.accountId,
          syncFrom: '2026-03-01',
        },
      });
      assert.equal(create.statusCode, 503, create.body);
      assert.match(create.json().detail, /SECRETS_KEY/);
      const sync = await k.api({ method: 'POST', url: `/api/bank-feeds/${k.feedId}/sync` });
      assert.equal(sync.statusCode, 503, sync.body);
      assert.match(sync.json().detail, /SECRETS_KEY/);
      const patch = await k.api({
        method: 'PATCH',
        url: `/api/bank-feeds/${k.feedId}`,
        payload: keysBody(fake.credentials),
      });
      assert.equal(patch.statusCode, 503);
    } finally {
      t.deps.config.secretKeys = keys;
      await fake.close();
    }
  });

  test("another tenant's feed answers 404 everywhere", async () => {
    const fake = await fakeBank(t);
    try {
      const k = await connectedFeed(t, fake);
      const o = await register(t.app, { plan: 'free' });
      const other = as(t.app, o.token, o.companyId);
      for (const [method, url, payload] of [
        ['GET', `/api/bank-feeds/${k.feedId}`],
        ['PATCH', `/api/bank-feeds/${k.feedId}`, { syncFrom: '2026-01-01' }],
        ['POST', `/api/bank-feeds/${k.feedId}/sync`],
        ['DELETE', `/api/bank-feeds/${k.feedId}`],
      ] as const) {
        const res = await other({ method, url, ...(payload ? { payload } : {}) });
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      }
      assert.deepEqual((await other({ method: 'GET', url: '/api/bank-feeds' })).json(), { feeds: [] });
      // Nor may another tenant connect to this tenant's bank account.
      const res = await other({
        method: 'POST',
        url: '/api/bank-feeds',
        payload: {
          bankAccountId: k.bankAccountId,
          ...keysBody(fake.credentials),
          investecAccountId: fake.accounts[0]!.accountId,
          syncFrom: '2026-03-01',
        },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /bankAccountId/);
    } finally {
      await fake.close();
    }
  });
});
