// Read routes: on PostgreSQL the caller's principal rides with the handler's first query
// (withTenantReading). Whatever the handler does, nothing is answered before the checks, and
// their refusals keep the catalogue's order: 401 and 403 win over the handler's 400 or rows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../auth/users.factories.ts';
import { type AnyRoute, defineRoute } from './catalogue.ts';
import { badRequest } from './problem.ts';

const Answer = Type.Object({ who: Type.String() });

const testRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/test/read/refuses-input',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Answers 400 without reading anything',
    response: { 200: Answer },
    handler: async () => {
      throw badRequest('q', 'is never right here');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/test/read/swallows',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'manage'],
    summary: 'Reads, ignores a failed query, and answers',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      const r = await sql<{ who: string }>`select current_user as who`.execute(ctx.db).catch(() => undefined);
      return { who: r?.rows[0]?.who ?? 'nobody' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/test/read/fails',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Its first query fails',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      await sql`select 1 / 0`.execute(ctx.db);
      return { who: 'unreachable' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/test/read/principal-first',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    principalFirst: true,
    summary: 'Reads who is asking before any query',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      const who = ctx.principal.type === 'user' ? ctx.principal.name : 'a key';
      await sql`select 1`.execute(ctx.db);
      return { who };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/test/read/principal-after-a-query',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Reads who is asking after its first query',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      await sql`select 1`.execute(ctx.db);
      return { who: ctx.principal.type === 'user' ? ctx.principal.name : 'a key' };
    },
  }),
];

let t: TestApp;
let owner: Registered;
before(async () => {
  t = await startTestApp({ extraRoutes: testRoutes });
  owner = await register(t.app);
});
after(() => t.close());

const get = (token: string, url: string) => as(t.app, token)({ method: 'GET', url });

/** A member whose session has been revoked (by revoke-all): their token still verifies. */
async function revokedMember() {
  const m = await addMember(t, owner, 'accountant');
  const r = await as(t.app, m.token)({ method: 'POST', url: '/auth/sessions/revoke-all' });
  assert.equal(r.statusCode, 200, r.body);
  return m;
}

describe('read routes: the checks come before any answer', () => {
  test('a live caller gets what the handler answers', async () => {
    assertProblem(await get(owner.token, '/test/read/refuses-input'), 400);
    const ok = await get(owner.token, '/test/read/swallows');
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { who: 'bp_app' });
    assertProblem(await get(owner.token, '/test/read/fails'), 500);
  });

  test('a revoked session is 401 whatever the handler would have answered', async () => {
    const m = await revokedMember();
    for (const url of ['/test/read/refuses-input', '/test/read/swallows', '/test/read/fails']) {
      const res = await get(m.token, url);
      assertProblem(res, 401);
      assert.doesNotMatch(res.body, /bp_app|never right/);
    }
  });

  test('a role without the permission is 403 with { error, resource, action }, even when the handler swallows the refusal', async () => {
    const viewer = await addMember(t, owner, 'viewer');
    const res = await get(viewer.token, '/test/read/swallows');
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'Forbidden', resource: 'contacts', action: 'manage' });
  });

  test('a company outside the tenant is 404, whatever the handler would have read', async () => {
    const other = await register(t.app);
    assertProblem(
      await as(t.app, owner.token, other.companyId)({ method: 'GET', url: '/api/invoices' }),
      404,
    );
    const own = await as(t.app, owner.token, owner.companyId)({ method: 'GET', url: '/api/invoices' });
    assert.equal(own.statusCode, 200);
  });

  test('the principal is there for a handler that declares it needs it first, and after the first query', async () => {
    for (const url of ['/test/read/principal-first', '/test/read/principal-after-a-query']) {
      const res = await get(owner.token, url);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { who: 'Owner' });
    }
  });
});
