// /api/api-keys: the plaintext once, never listed; roles and scopes checked at creation;
// the plan's count; revocation; the audit log without the key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../db/tenant.ts';
import { exchange, makeKey } from './api-keys.factories.ts';
import { addMember } from './users.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const KEY_FIELDS = [
  'contactId',
  'createdAt',
  'createdBy',
  'id',
  'kind',
  'lastFour',
  'lastUsedAt',
  'mode',
  'name',
  'oauthClientId',
  'owner',
  'prefix',
  'rateLimitPerMinute',
  'revokedAt',
  'roleId',
  'scopes',
  'updatedAt',
  'userId',
];

describe('creating a key', () => {
  test('answers the plaintext once; the list and the record never show it, nor its hash', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const res = await api({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Sync', owner: 'user', scopes: ['invoices:write', 'contacts:read', 'invoices:write'] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.key, /^bpk_live_[0-9a-f-]{36}\.[0-9a-f-]{36}\.[\w-]{43}$/);
    assert.deepEqual(Object.keys(created).sort(), [...KEY_FIELDS, 'key'].sort());
    assert.equal(created.owner, 'user');
    assert.equal(created.userId, a.userId);
    assert.equal(created.roleId, null);
    assert.deepEqual(created.scopes, ['contacts:read', 'invoices:write']);
    assert.equal(created.rateLimitPerMinute, 120);
    assert.equal(created.prefix, 'bpk_live_');
    assert.equal(created.mode, 'live');
    assert.equal(created.lastFour, created.key.slice(-4));

    const list = await api({ method: 'GET', url: '/api/api-keys' });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(Object.keys(list.json()[0]).sort(), KEY_FIELDS);
    const one = await api({ method: 'GET', url: `/api/api-keys/${created.id}` });
    assert.deepEqual(Object.keys(one.json()).sort(), KEY_FIELDS);
    const secret = created.key.split('.').at(-1);
    for (const body of [list.body, one.body]) assert.ok(!body.includes(secret), 'the secret is listed');

    // Only a hash is stored.
    const row = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow(),
    );
    assert.ok(!JSON.stringify(row).includes(secret));
    assert.match(row.secret_hash ?? '', /^[0-9a-f]{64}$/);
  });

  test('an unknown scope is a 400 naming scopes[i]; no scope at all is a 400 naming scopes', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const bad = await api({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'K', owner: 'user', scopes: ['invoices:read', 'invoices:delete'] },
    });
    const body = assertProblem(bad, 400);
    assert.equal(body.field, 'scopes[1]');
    const none = await api({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'K', owner: 'user', scopes: [] },
    });
    assert.equal(assertProblem(none, 400).field, 'scopes');
  });

  test('a business key given a role needs a real one the creator holds; a user key takes none', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const post = (payload: object) => api({ method: 'POST', url: '/api/api-keys', payload });
    assert.equal(
      assertProblem(await post({ name: 'B', owner: 'business', roleId: 'janitor', scopes: ['full'] }), 400)
        .field,
      'roleId',
    );
    assert.equal(
      assertProblem(await post({ name: 'U', owner: 'user', roleId: 'viewer', scopes: ['full'] }), 400).field,
      'roleId',
    );
    const ok = await post({ name: 'B', owner: 'business', roleId: 'accountant', scopes: ['full'] });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().roleId, 'accountant');
    assert.equal(ok.json().userId, null);

    // A custom role that manages access but holds no payroll cannot hand out the payroll role.
    const role = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Key keeper', permissions: ['admin:manage'] },
    });
    assert.equal(role.statusCode, 201, role.body);
    const keeper = await addMember(t, a, role.json().id);
    const denied = await as(
      t.app,
      keeper.token,
    )({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Payroll sync', owner: 'business', roleId: 'payroll', scopes: ['payroll:write'] },
    });
    assert.equal(assertProblem(denied, 403).code, 'PERMISSION_NOT_HELD');
  });

  test("contactId names one of the tenant's contacts: another tenant's, or none, is a 404 (issue 15)", async () => {
    const a = await register(t.app, { plan: 'business' });
    const b = await register(t.app, { plan: 'business' });
    const contactOf = async (r: typeof a) => {
      const res = await as(
        t.app,
        r.token,
      )({ method: 'POST', url: '/api/contacts', payload: { name: 'Partner' } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const [mine, theirs] = [await contactOf(a), await contactOf(b)];
    const create = (contactId: string) =>
      as(
        t.app,
        a.token,
      )({
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Partner feed', owner: 'business', scopes: ['contacts:read'], contactId },
      });
    for (const other of [theirs, crypto.randomUUID()]) {
      const refused = assertProblem(await create(other), 404);
      assert.match(String(refused.detail), /Contact/);
    }
    const list = await as(t.app, a.token)({ method: 'GET', url: '/api/api-keys' });
    assert.equal(list.json().length, 0, 'a refused key was kept');
    const made = await create(mine.toUpperCase());
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().contactId, mine);
  });

  test("the database refuses a key naming another tenant's contact (api_keys_contact_fk)", async () => {
    const a = await register(t.app, { plan: 'business' });
    const b = await register(t.app, { plan: 'business' });
    const theirs = await as(t.app, b.token)({ method: 'POST', url: '/api/contacts', payload: { name: 'X' } });
    await assert.rejects(
      withTenant(t.database.db, a.tenantId, (tx) =>
        tx
          .insertInto('api_keys')
          .values({
            tenant_id: a.tenantId,
            id: crypto.randomUUID(),
            name: 'Direct',
            owner_type: 'business',
            role: 'admin',
            created_by: a.userId,
            scopes: ['contacts:read'],
            contact_id: theirs.json().id,
            display_prefix: 'bpk_live_',
            last_four: 'abcd',
            secret_hash: '0'.repeat(64),
          })
          .execute(),
      ),
      /api_keys_contact_fk/,
    );
  });

  test("only an owner gives a key the owner role; a key's token cannot make keys", async () => {
    const a = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, a, 'admin');
    const res = await as(
      t.app,
      admin.token,
    )({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'O', owner: 'business', roleId: 'owner', scopes: ['full'] },
    });
    assert.equal(assertProblem(res, 403).code, 'OWNER_REQUIRED');

    const key = await makeKey(t.app, a.token, { scopes: ['full'] });
    const token = (await exchange(t.app, key.key)).json().accessToken;
    const byKey = await as(
      t.app,
      token,
    )({ method: 'POST', url: '/api/api-keys', payload: { name: 'K', owner: 'user', scopes: ['full'] } });
    assert.equal(assertProblem(byKey, 403).code, 'USER_TOKEN_REQUIRED');
  });

  test('a user without admin:manage cannot create one (role denial)', async () => {
    const a = await register(t.app, { plan: 'business' });
    const accountant = await addMember(t, a, 'accountant');
    const res = await as(
      t.app,
      accountant.token,
    )({ method: 'POST', url: '/api/api-keys', payload: { name: 'K', owner: 'user', scopes: ['full'] } });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'Forbidden', resource: 'admin', action: 'manage' });
  });
});

describe("the plan's number of keys", () => {
  for (const plan of ['free', 'starter']) {
    test(`the ${plan} plan cannot generate a key: 403 PLAN_HAS_NO_API_KEYS`, async () => {
      const a = await register(t.app, { plan });
      const res = await as(
        t.app,
        a.token,
      )({ method: 'POST', url: '/api/api-keys', payload: { name: 'K', owner: 'user', scopes: ['full'] } });
      const body = assertProblem(res, 403);
      assert.equal(body.code, 'PLAN_HAS_NO_API_KEYS');
      assert.match(String(body.detail), new RegExp(plan));
    });
  }

  test('business allows 5 unrevoked keys: the sixth is 403 API_KEY_LIMIT_REACHED, a revocation makes room', async () => {
    const a = await register(t.app, { plan: 'business' });
    const keys = [];
    for (let i = 0; i < 5; i++) keys.push(await makeKey(t.app, a.token, { scopes: ['contacts:read'] }));
    const post = () =>
      as(
        t.app,
        a.token,
      )({
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Sixth', owner: 'user', scopes: ['full'] },
      });
    const sixth = assertProblem(await post(), 403);
    assert.equal(sixth.code, 'API_KEY_LIMIT_REACHED');
    assert.match(String(sixth.detail), /business plan allows 5/);
    const revoked = await as(t.app, a.token)({ method: 'DELETE', url: `/api/api-keys/${keys[0]!.id}` });
    assert.equal(revoked.statusCode, 204);
    assert.equal((await post()).statusCode, 201);
    assert.equal(assertProblem(await post(), 403).code, 'API_KEY_LIMIT_REACHED');
  });

  test('two concurrent creates at the last place: exactly one succeeds', async () => {
    const a = await register(t.app, { plan: 'business' });
    for (let i = 0; i < 4; i++) await makeKey(t.app, a.token, { scopes: ['contacts:read'] });
    const post = () =>
      as(
        t.app,
        a.token,
      )({ method: 'POST', url: '/api/api-keys', payload: { name: 'Race', owner: 'user', scopes: ['full'] } });
    const results = await Promise.all([post(), post()]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 403]);
  });
});

describe('revoking', () => {
  test('keeps the key listed with revokedAt; a second revocation is 204 and keeps the first time', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['full'] });
    const api = as(t.app, a.token);
    assert.equal((await api({ method: 'DELETE', url: `/api/api-keys/${key.id}` })).statusCode, 204);
    const first = (await api({ method: 'GET', url: `/api/api-keys/${key.id}` })).json().revokedAt;
    assert.ok(first);
    t.clock.advance(60_000);
    assert.equal((await api({ method: 'DELETE', url: `/api/api-keys/${key.id}` })).statusCode, 204);
    assert.equal((await api({ method: 'GET', url: `/api/api-keys/${key.id}` })).json().revokedAt, first);
    assert.equal((await api({ method: 'GET', url: '/api/api-keys' })).json().length, 1);
  });

  // Issue 35: API keys carried no updatedAt. It moves when the key changes, not when it is used.
  test('updatedAt: the creation at first, unmoved by use, the revocation after', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['full'] });
    const api = as(t.app, a.token);
    const made = (await api({ method: 'GET', url: `/api/api-keys/${key.id}` })).json();
    assert.equal(made.updatedAt, made.createdAt);
    assert.equal((await exchange(t.app, key.key)).statusCode, 200);
    const used = (await api({ method: 'GET', url: `/api/api-keys/${key.id}` })).json();
    assert.ok(used.lastUsedAt, 'the exchange is recorded');
    assert.equal(used.updatedAt, made.updatedAt, 'use is not change');
    assert.equal((await api({ method: 'DELETE', url: `/api/api-keys/${key.id}` })).statusCode, 204);
    const revoked = (await api({ method: 'GET', url: `/api/api-keys/${key.id}` })).json();
    assert.ok(revoked.updatedAt > made.updatedAt, `${revoked.updatedAt} after ${made.updatedAt}`);
  });

  test("another manager of access revokes a business key; another tenant's key is 404", async () => {
    const a = await register(t.app, { plan: 'business' });
    const b = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, a, 'admin');
    const key = await makeKey(t.app, a.token, { owner: 'business', roleId: 'viewer', scopes: ['full'] });
    assertProblem(await as(t.app, b.token)({ method: 'DELETE', url: `/api/api-keys/${key.id}` }), 404);
    assertProblem(await as(t.app, b.token)({ method: 'GET', url: `/api/api-keys/${key.id}` }), 404);
    assert.equal(
      (await as(t.app, admin.token)({ method: 'DELETE', url: `/api/api-keys/${key.id}` })).statusCode,
      204,
    );
    assert.equal((await exchange(t.app, key.key)).statusCode, 401);
  });
});

test('creation and revocation are audited, and the key never lands in the audit log', async () => {
  const a = await register(t.app, { plan: 'business' });
  const api = as(t.app, a.token);
  const res = await api({
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Audited', owner: 'user', scopes: ['full'] },
  });
  const { id, key } = res.json();
  await api({ method: 'DELETE', url: `/api/api-keys/${id}` });
  const rows = await withTenant(t.database.db, a.tenantId, (tx) =>
    tx.selectFrom('audit_log').selectAll().where('resource', '=', 'api_key').orderBy('occurred_at').execute(),
  );
  assert.deepEqual(
    rows.map((r) => [r.action, r.resource_id, r.actor_type, r.actor_id]),
    [
      ['POST /api/api-keys', id, 'user', a.userId],
      ['DELETE /api/api-keys/{id}', id, 'user', a.userId],
    ],
  );
  const secret = key.split('.').at(-1);
  assert.ok(!JSON.stringify(rows).includes(secret));
});
