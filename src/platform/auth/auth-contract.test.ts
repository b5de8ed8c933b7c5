// The contract of the sign-in, session, user and role routes as an integrator codes against
// it: every 401 carries a code from the closed list, unknown input is refused by name,
// records carry createdAt and updatedAt, and the user list syncs with updatedSince and sort.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { catalogue } from '../../catalogue.ts';
import { withTenant } from '../db/tenant.ts';
import { refresh } from './auth.factories.ts';
import { addMember } from './users.factories.ts';

let t: TestApp;
let owner: Registered;
before(async () => {
  t = await startTestApp();
  owner = await register(t.app);
});
after(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('401s carry a code', () => {
  test('every refused sign-in is INVALID_CREDENTIALS, whatever was wrong', async () => {
    const member = await addMember(t, owner, 'viewer');
    await as(
      t.app,
      owner.token,
    )({
      method: 'PATCH',
      url: `/api/users/${member.id}`,
      payload: { active: false },
    });
    const attempts = {
      'unknown address': { email: `nobody.${crypto.randomUUID()}@example.co.za`, password: sha256('x') },
      'wrong password': { email: owner.email, password: sha256('not it') },
      'plaintext password': { email: owner.email, password: owner.password },
      'deactivated user': { email: member.email, password: member.password },
    };
    for (const [what, payload] of Object.entries(attempts)) {
      const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload });
      assert.equal(res.statusCode, 401, what);
      assert.equal(res.json().code, 'INVALID_CREDENTIALS', what);
      assert.equal(res.json().detail, 'Invalid email or password', what);
    }
  });

  test('a refresh token that is unknown or used again is UNAUTHENTICATED', async () => {
    const a = await register(t.app);
    assert.equal((await refresh(t.app, a.refreshToken)).statusCode, 200);
    for (const token of [a.refreshToken, 'not-a-refresh-token']) {
      const res = await refresh(t.app, token);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'UNAUTHENTICATED');
    }
  });

  test('POST /auth/token without an API key as bearer is API_KEY_REQUIRED', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/auth/token' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'API_KEY_REQUIRED');
    // A person's access token is the wrong kind of credential here.
    const userToken = await as(t.app, owner.token)({ method: 'POST', url: '/auth/token' });
    assert.equal(userToken.statusCode, 401);
    assert.equal(userToken.json().code, 'API_KEY_REQUIRED');
  });
});

describe('input', () => {
  test('every input object refuses unknown properties; the OAuth endpoints explicitly ignore them', () => {
    const mine = catalogue.filter((r) =>
      /^\/(auth|oauth)\/|^\/api\/(users|roles|webhooks|oauth|audit-log)/.test(r.path),
    );
    const open = new Set(['/oauth/authorize', '/oauth/token']);
    assert.ok(mine.length > 30);
    for (const route of mine) {
      // /auth/token and the API-key routes are declared elsewhere (api-keys.routes.ts).
      if (route.path === '/auth/token') continue;
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = route[part] as { type?: string; additionalProperties?: unknown } | undefined;
        if (schema?.type !== 'object') continue;
        const where = `${route.method} ${route.path} ${part}`;
        if (open.has(route.path) && part !== 'params') assert.equal(schema.additionalProperties, true, where);
        else assert.equal(schema.additionalProperties, false, where);
      }
    }
  });

  test('a permission that does not exist is a 400 that lists the ones that do', async () => {
    const res = await as(
      t.app,
      owner.token,
    )({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Broken', permissions: ['invoices:destroy'] },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().field, 'permissions[0]');
    assert.match(res.json().detail, /invoices:write/);
  });
});

describe('records carry createdAt and updatedAt', () => {
  test('sessions: createdAt the sign-in, updatedAt the last refresh', async () => {
    const a = await register(t.app);
    const before = (await as(t.app, a.token)({ method: 'GET', url: '/auth/sessions' })).json()[0];
    assert.match(before.createdAt, ISO);
    assert.match(before.updatedAt, ISO);
    t.clock.advance(60_000);
    const next = (await refresh(t.app, a.refreshToken)).json();
    const after = (await as(t.app, next.accessToken)({ method: 'GET', url: '/auth/sessions' })).json()[0];
    assert.equal(after.createdAt, before.createdAt);
    assert.ok(Date.parse(after.updatedAt) - Date.parse(before.updatedAt) >= 60_000);
    assert.equal(after.updatedAt, after.lastUsedAt);
  });

  test('users and custom roles: updatedAt moves with a change, createdAt stays', async () => {
    const api = as(t.app, owner.token);
    const role = (
      await api({
        method: 'POST',
        url: '/api/roles',
        payload: { name: `Clerk ${crypto.randomUUID()}`, permissions: [] },
      })
    ).json();
    const member = await addMember(t, owner, role.id);
    const user = (await api({ method: 'GET', url: `/api/users/${member.id}` })).json();
    for (const r of [role, user]) {
      assert.match(r.createdAt, ISO);
      assert.match(r.updatedAt, ISO);
    }
    t.clock.advance(5_000);
    const renamedRole = (
      await api({ method: 'PATCH', url: `/api/roles/${role.id}`, payload: { description: 'Files' } })
    ).json();
    const renamedUser = (
      await api({ method: 'PATCH', url: `/api/users/${member.id}`, payload: { name: 'Renamed' } })
    ).json();
    for (const [was, now] of [
      [role, renamedRole],
      [user, renamedUser],
    ]) {
      assert.equal(now.createdAt, was.createdAt);
      assert.ok(Date.parse(now.updatedAt) - Date.parse(was.updatedAt) >= 5_000);
    }
  });
});

describe('the user list syncs', () => {
  test('updatedSince keeps users changed at or after the instant; sort orders by a timestamp, ties by id', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const members = [];
    for (let i = 0; i < 3; i++) members.push(await addMember(t, a, 'viewer'));
    // Stamps chosen outright: the owner and the first member share one, to show the tie-break.
    const stamps = new Map([
      [a.userId, '2026-01-01T00:00:00.000Z'],
      [members[0]!.id, '2026-01-01T00:00:00.000Z'],
      [members[1]!.id, '2026-02-01T00:00:00.000Z'],
      [members[2]!.id, '2026-03-01T00:00:00.000Z'],
    ]);
    await withTenant(t.database.db, a.tenantId, async (tx) => {
      for (const [id, at] of stamps) {
        await tx
          .updateTable('users')
          .set({ updated_at: new Date(at), created_at: new Date(at) })
          .where('tenant_id', '=', a.tenantId)
          .where('id', '=', id)
          .execute();
      }
    });
    const list = async (query: string) => {
      const res = await api({ method: 'GET', url: `/api/users?${query}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const since = await list('updatedSince=2026-02-01T00:00:00Z&sort=updatedAt');
    assert.equal(since.total, 2);
    assert.deepEqual(
      since.items.map((u: { id: string }) => u.id),
      [members[1]!.id, members[2]!.id],
    );
    const tied = [a.userId, members[0]!.id].sort();
    const ascending = (await list('sort=createdAt')).items.map((u: { id: string }) => u.id);
    assert.deepEqual(ascending, [...tied, members[1]!.id, members[2]!.id]);
    const descending = (await list('sort=-createdAt')).items.map((u: { id: string }) => u.id);
    assert.deepEqual(descending, [members[2]!.id, members[1]!.id, ...tied.reverse()]);
    // Without sort: by name, as before.
    assert.equal((await list('')).total, 4);
    const bad = await api({ method: 'GET', url: '/api/users?sort=name' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'sort');
  });
});
