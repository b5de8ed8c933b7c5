// What a key's token may do: the token exchange, revocation and deactivation on the next
// request, and the three limits (plan, scope, role), narrowest wins.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied, assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../db/tenant.ts';
import { defineRoute } from '../http/catalogue.ts';
import { exchange, keyToken, keyTokenFor, makeKey } from './api-keys.factories.ts';
import { addMember } from './users.factories.ts';

// A payroll route (Professional plan and up), for the plan check on a Business tenant.
const payrollProbe = defineRoute({
  method: 'GET',
  path: '/api/employees-probe',
  module: 'payroll',
  access: 'read',
  permission: ['payroll', 'read'],
  summary: 'test only',
  response: { 200: Type.Object({ ok: Type.Boolean() }) },
  handler: async () => ({ ok: true }),
});

let t: TestApp;
before(async () => {
  t = await startTestApp({ extraRoutes: [payrollProbe] });
});
after(() => t.close());

const newCompany = { name: 'Integration Co' };

describe('POST /auth/token', () => {
  test("answers exactly the spec's token exchange response", async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['invoices:write', 'contacts:read'] });
    const res = await exchange(t.app, key.key);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'accessToken',
      'expiresIn',
      'rateLimitPerMinute',
      'scope',
      'tenantId',
      'tokenType',
    ]);
    assert.equal(body.tokenType, 'Bearer');
    assert.equal(body.expiresIn, 3600);
    assert.equal(body.scope, 'contacts:read invoices:write');
    assert.equal(body.tenantId, a.tenantId);
    assert.equal(body.rateLimitPerMinute, 120);
    const claims = JSON.parse(Buffer.from(body.accessToken.split('.')[1], 'base64url').toString());
    assert.equal(claims.exp - claims.iat, 3600);
    assert.equal(claims.typ, 'key');

    const own = await makeKey(t.app, a.token, { scopes: ['full'], rateLimitPerMinute: 300 });
    assert.equal((await exchange(t.app, own.key)).json().rateLimitPerMinute, 300);
    const listed = await as(t.app, a.token)({ method: 'GET', url: `/api/api-keys/${key.id}` });
    assert.ok(listed.json().lastUsedAt, 'lastUsedAt is set by the exchange');
  });

  test('no key, a malformed key, a wrong secret or a user token: 401', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['full'] });
    const wrongSecret = `${key.key.slice(0, key.key.lastIndexOf('.'))}.${'x'.repeat(43)}`;
    assertProblem(await t.app.inject({ method: 'POST', url: '/auth/token' }), 401);
    for (const bad of ['bpk_live_nonsense', wrongSecret, a.token])
      assertProblem(await exchange(t.app, bad), 401);
  });

  test('the exchanged token expires after an hour', async () => {
    const a = await register(t.app, { plan: 'business' });
    const { token } = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    assert.equal((await as(t.app, token)({ method: 'GET', url: '/api/companies' })).statusCode, 200);
    t.clock.advance(3601_000);
    try {
      const res = await as(t.app, token)({ method: 'GET', url: '/api/companies' });
      assert.equal(assertProblem(res, 401).detail, 'The token has expired');
    } finally {
      t.clock.advance(-3601_000);
    }
  });
});

describe('revocation and deactivation, on the next request', () => {
  test('revoking stops the key and every token exchanged from it', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['full'] });
    const first = await keyToken(t.app, key.key);
    const second = await keyToken(t.app, key.key);
    for (const token of [first, second]) {
      assert.equal((await as(t.app, token)({ method: 'GET', url: '/api/users' })).statusCode, 200);
    }
    assert.equal(
      (await as(t.app, a.token)({ method: 'DELETE', url: `/api/api-keys/${key.id}` })).statusCode,
      204,
    );
    for (const token of [first, second]) {
      const res = await as(t.app, token)({ method: 'GET', url: '/api/users' });
      assert.equal(assertProblem(res, 401).detail, 'The API key has been revoked');
    }
    assertProblem(await exchange(t.app, key.key), 401);
  });

  test('a user key stops when its owner is deactivated (checked on every request, not only by revoking)', async () => {
    const a = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, a, 'admin');
    const key = await makeKey(t.app, admin.token, { scopes: ['full'] });
    const token = await keyToken(t.app, key.key);
    // Straight in the database, so that only the owner's state changes, not the key's.
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.updateTable('users').set({ active: false }).where('id', '=', admin.id).execute(),
    );
    const res = await as(t.app, token)({ method: 'GET', url: '/api/companies' });
    assert.equal(assertProblem(res, 401).detail, "The API key's owner has been deactivated");
    assertProblem(await exchange(t.app, key.key), 401);
  });

  test('deactivating a person through the API revokes their own keys but not the business keys they made', async () => {
    const a = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, a, 'admin');
    const own = await keyTokenFor(t.app, admin.token, { scopes: ['full'] });
    const business = await keyTokenFor(t.app, admin.token, {
      owner: 'business',
      roleId: 'accountant',
      scopes: ['full'],
    });
    const off = await as(
      t.app,
      a.token,
    )({ method: 'PATCH', url: `/api/users/${admin.id}`, payload: { active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assertProblem(await as(t.app, own.token)({ method: 'GET', url: '/api/companies' }), 401);
    assert.ok((await as(t.app, a.token)({ method: 'GET', url: `/api/api-keys/${own.id}` })).json().revokedAt);
    // The business key survives its creator leaving: its token and fresh exchanges work.
    assert.equal((await as(t.app, business.token)({ method: 'GET', url: '/api/companies' })).statusCode, 200);
    const fresh = await keyToken(t.app, business.key);
    const write = await as(t.app, fresh)({ method: 'POST', url: '/api/companies', payload: newCompany });
    assert.equal(write.statusCode, 201, write.body);
  });
});

describe('the three limits', () => {
  test('a key lacking the scope: 403 INSUFFICIENT_SCOPE naming it; write includes read', async () => {
    const a = await register(t.app, { plan: 'business' });
    const reader = await keyTokenFor(t.app, a.token, { scopes: ['companies:read'] });
    const writer = await keyTokenFor(t.app, a.token, { scopes: ['companies:write'] });
    const noAdmin = await as(t.app, reader.token)({ method: 'GET', url: '/api/users' });
    const body = assertProblem(noAdmin, 403);
    assert.equal(body.code, 'INSUFFICIENT_SCOPE');
    assert.equal(body.scope, 'admin:read');
    assert.match(String(body.detail), /admin:read/);
    const write = await as(
      t.app,
      reader.token,
    )({ method: 'POST', url: '/api/companies', payload: newCompany });
    assert.equal(assertProblem(write, 403).scope, 'companies:write');
    const read = await as(t.app, writer.token)({ method: 'GET', url: `/api/companies/${a.companyId}` });
    assert.equal(read.statusCode, 200, read.body);
    const created = await as(
      t.app,
      writer.token,
    )({ method: 'POST', url: '/api/companies', payload: newCompany });
    assert.equal(created.statusCode, 201, created.body);
  });

  test('full covers every module of the plan', async () => {
    const a = await register(t.app, { plan: 'business' });
    const { token } = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    assert.equal((await as(t.app, token)({ method: 'GET', url: '/api/users' })).statusCode, 200);
    assert.equal((await as(t.app, token)({ method: 'GET', url: '/api/audit-log' })).statusCode, 200);
    const res = await as(t.app, token)({ method: 'POST', url: '/api/companies', payload: newCompany });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('GET /api/companies and the entitlements are open to every key whatever its scopes', async () => {
    const a = await register(t.app, { plan: 'business' });
    const { token } = await keyTokenFor(t.app, a.token, { scopes: ['contacts:read'] });
    const companies = await as(t.app, token)({ method: 'GET', url: '/api/companies' });
    assert.equal(companies.statusCode, 200, companies.body);
    assert.equal(companies.json()[0].id, a.companyId);
    assert.equal(
      (await as(t.app, token)({ method: 'GET', url: '/api/tenant/entitlements' })).statusCode,
      200,
    );
    assertProblem(await as(t.app, token)({ method: 'GET', url: `/api/companies/${a.companyId}` }), 403);
  });

  test("the owner's role caps a user key: a viewer's key cannot write however scoped", async () => {
    const a = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, a, 'admin');
    const { token } = await keyTokenFor(t.app, admin.token, { scopes: ['full'] });
    assert.equal(
      (await as(t.app, token)({ method: 'POST', url: '/api/companies', payload: newCompany })).statusCode,
      201,
    );
    // The owner becomes a viewer: the key follows their current role at the next request.
    const demote = await as(
      t.app,
      a.token,
    )({ method: 'PATCH', url: `/api/users/${admin.id}`, payload: { roleId: 'viewer' } });
    assert.equal(demote.statusCode, 200, demote.body);
    const write = await as(t.app, token)({ method: 'POST', url: '/api/companies', payload: newCompany });
    assertPermissionDenied(write, 'companies', 'write');
    assert.equal(
      (await as(t.app, token)({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode,
      200,
    );
  });

  test('a business key acts with its chosen role: viewer reads, cannot write', async () => {
    const a = await register(t.app, { plan: 'business' });
    const { token } = await keyTokenFor(t.app, a.token, {
      owner: 'business',
      roleId: 'viewer',
      scopes: ['full'],
    });
    assertPermissionDenied(
      await as(t.app, token)({ method: 'POST', url: '/api/companies', payload: newCompany }),
      'companies',
      'write',
    );
    assert.equal(
      (await as(t.app, token)({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode,
      200,
    );
    // The viewer role has no admin: even with full scope the key cannot read the users.
    assertPermissionDenied(await as(t.app, token)({ method: 'GET', url: '/api/users' }), 'admin', 'read');
  });

  test('a plan without the module: 403 MODULE_NOT_LICENSED first, whatever the scopes, for keys and users', async () => {
    const a = await register(t.app, { plan: 'business' });
    const full = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    const unscoped = await keyTokenFor(t.app, a.token, { scopes: ['contacts:read'] });
    for (const token of [full.token, unscoped.token, a.token]) {
      const body = assertProblem(await as(t.app, token)({ method: 'GET', url: '/api/employees-probe' }), 403);
      assert.equal(body.code, 'MODULE_NOT_LICENSED');
      assert.match(String(body.detail), /business plan does not include the payroll module/);
    }
    const pro = await register(t.app, { plan: 'professional' });
    const proKey = await keyTokenFor(t.app, pro.token, { scopes: ['payroll:read'] });
    assert.equal(
      (await as(t.app, proKey.token)({ method: 'GET', url: '/api/employees-probe' })).statusCode,
      200,
    );
    assert.equal(
      (await as(t.app, pro.token)({ method: 'GET', url: '/api/employees-probe' })).statusCode,
      200,
    );
  });

  test('a plan that loses API keys stops its keys: 403 PLAN_HAS_NO_API_KEYS on calls and exchanges', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.updateTable('tenants').set({ plan: 'starter' }).where('id', '=', a.tenantId).execute(),
    );
    const call = await as(t.app, key.token)({ method: 'GET', url: '/api/users' });
    assert.equal(assertProblem(call, 403).code, 'PLAN_HAS_NO_API_KEYS');
    assert.equal(assertProblem(await exchange(t.app, key.key), 403).code, 'PLAN_HAS_NO_API_KEYS');
    // The people of the business carry on.
    assert.equal((await as(t.app, a.token)({ method: 'GET', url: '/api/users' })).statusCode, 200);
  });

  test("a key's token cannot use a person's own routes (sessions)", async () => {
    const a = await register(t.app, { plan: 'business' });
    const { token } = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    const res = await as(t.app, token)({ method: 'GET', url: '/auth/sessions' });
    assert.equal(assertProblem(res, 403).code, 'USER_TOKEN_REQUIRED');
  });
});

describe('metering and audit', () => {
  test('the meter sees key calls once the scopes admit them, never user calls', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await keyTokenFor(t.app, a.token, { scopes: ['companies:read'], rateLimitPerMinute: 7 });
    const seen: Array<{ id: string; limitPerMinute: number }> = [];
    const realMeter = t.deps.meterKeyCall;
    t.deps.meterKeyCall = async (_req, _reply, k) => {
      seen.push(k);
    };
    try {
      await as(t.app, key.token)({ method: 'GET', url: '/api/companies' });
      await as(t.app, key.token)({ method: 'GET', url: '/api/users' }); // refused by scope: not metered
      await as(t.app, a.token)({ method: 'GET', url: '/api/companies' }); // a user: not metered
      assert.deepEqual(seen, [{ id: key.id, limitPerMinute: 7 }]);
    } finally {
      t.deps.meterKeyCall = realMeter;
    }
  });

  test("a key's writes are audited as the key", async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await keyTokenFor(t.app, a.token, { scopes: ['companies:write'] });
    const res = await as(t.app, key.token)({ method: 'POST', url: '/api/companies', payload: newCompany });
    assert.equal(res.statusCode, 201, res.body);
    const row = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'POST /api/companies')
        .executeTakeFirstOrThrow(),
    );
    assert.equal(row.actor_type, 'api_key');
    assert.equal(row.actor_id, key.id);
    assert.equal(row.resource_id, res.json().id);
  });
});
