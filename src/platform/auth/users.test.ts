import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { addMember } from './users.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const USER_KEYS = [
  'active',
  'createdAt',
  'deactivatedAt',
  'email',
  'id',
  'invitationPending',
  'lastLoginAt',
  'name',
  'role',
  'roleName',
  'twoFactorEnabled',
  'updatedAt',
];

function login(email: string, password: string) {
  return t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
}

describe('users: adding', () => {
  test('POST with a password: 201 with the user record (no secrets), and the user signs in at once', async () => {
    const a = await register(t.app);
    const email = `Thandi.${crypto.randomUUID().slice(0, 6)}@Example.co.za`;
    const password = sha256('Thandi s password');
    const res = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/users',
      payload: { email, name: 'Thandi Nkosi', roleId: 'accountant', password },
    });
    assert.equal(res.statusCode, 201, res.body);
    const user = res.json();
    assert.deepEqual(Object.keys(user).sort(), USER_KEYS);
    assert.equal(user.email, email.toLowerCase());
    assert.equal(user.name, 'Thandi Nkosi');
    assert.equal(user.role, 'accountant');
    assert.equal(user.roleName, 'accountant');
    assert.equal(user.active, true);
    assert.equal(user.invitationPending, false);
    assert.equal(user.twoFactorEnabled, false);
    assert.equal(user.lastLoginAt, null);
    assert.equal(user.deactivatedAt, null);
    assert.ok(!/scrypt|password_hash|totp/i.test(res.body));

    const signedIn = await login(email, password);
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    assert.equal(signedIn.json().role, 'accountant');
    assert.equal(signedIn.json().tenantId, a.tenantId);
    const again = (await as(t.app, a.token)({ method: 'GET', url: `/api/users/${user.id}` })).json();
    assert.match(again.lastLoginAt, /Z$/);
  });

  test('the e-mail address must be free in every business (409), whatever its case', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const api = as(t.app, a.token);
    const other = await as(
      t.app,
      b.token,
    )({
      method: 'POST',
      url: '/api/users',
      payload: { email: a.email.toUpperCase(), name: 'Dup', roleId: 'viewer' },
    });
    assert.equal(other.statusCode, 409);
    const m = await addMember(t, a, 'viewer');
    const same = await api({
      method: 'POST',
      url: '/api/users',
      payload: { email: m.email, name: 'Dup', roleId: 'sales' },
    });
    assert.equal(same.statusCode, 409);
    assert.match(same.json().detail, /already exists/);
  });

  test('roleId: built-in name or a custom role of this business; anything else 400 naming roleId', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const role = (
      await api({ method: 'POST', url: '/api/roles', payload: { name: 'Clerk', permissions: [] } })
    ).json();
    const email = () => `u.${crypto.randomUUID().slice(0, 8)}@example.co.za`;
    const custom = await api({
      method: 'POST',
      url: '/api/users',
      payload: { email: email(), name: 'C', roleId: role.id.toUpperCase() },
    });
    assert.equal(custom.statusCode, 201, custom.body);
    assert.equal(custom.json().role, role.id);
    assert.equal(custom.json().roleName, 'Clerk');
    for (const roleId of ['superuser', crypto.randomUUID(), 'Owner ']) {
      const res = await api({
        method: 'POST',
        url: '/api/users',
        payload: { email: email(), name: 'X', roleId },
      });
      assert.equal(res.statusCode, 400, roleId);
      assert.match(res.json().detail, /^roleId/);
    }
    const badPassword = await api({
      method: 'POST',
      url: '/api/users',
      payload: { email: email(), name: 'X', roleId: 'viewer', password: 'plaintext' },
    });
    assert.equal(badPassword.statusCode, 400);
    assert.match(badPassword.json().detail, /^password/);
    const badEmail = await api({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'nope', name: 'X', roleId: 'viewer' },
    });
    assert.equal(badEmail.statusCode, 400);
    assert.match(badEmail.json().detail, /^email/);
  });

  test('a viewer is refused POST /api/users with exactly { error, resource, action }', async () => {
    const a = await register(t.app);
    const viewer = await addMember(t, a, 'viewer');
    const res = await as(
      t.app,
      viewer.token,
    )({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'v@example.co.za', name: 'V', roleId: 'viewer' },
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'Forbidden', resource: 'admin', action: 'manage' });
    assert.equal((await as(t.app, viewer.token)({ method: 'GET', url: '/api/users' })).statusCode, 403);
  });

  test('only an owner may make someone an owner, or change an owner', async () => {
    const a = await register(t.app);
    const admin = await addMember(t, a, 'admin');
    const adminApi = as(t.app, admin.token);
    const make = await adminApi({
      method: 'POST',
      url: '/api/users',
      payload: { email: `o.${crypto.randomUUID().slice(0, 6)}@example.co.za`, name: 'O', roleId: 'owner' },
    });
    assert.equal(make.statusCode, 403);
    assert.equal(make.json().code, 'OWNER_REQUIRED');
    const viewer = await addMember(t, admin, 'viewer');
    const promote = await adminApi({
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      payload: { roleId: 'owner' },
    });
    assert.equal(promote.statusCode, 403);
    const demoteOwner = await adminApi({
      method: 'PATCH',
      url: `/api/users/${a.userId}`,
      payload: { roleId: 'viewer' },
    });
    assert.equal(demoteOwner.statusCode, 403);
    const deactivateOwner = await adminApi({
      method: 'PATCH',
      url: `/api/users/${a.userId}`,
      payload: { active: false },
    });
    assert.equal(deactivateOwner.statusCode, 403);
    // The admin may still rename an owner, and the owner may promote.
    assert.equal(
      (await adminApi({ method: 'PATCH', url: `/api/users/${a.userId}`, payload: { name: 'The Boss' } }))
        .statusCode,
      200,
    );
    const byOwner = await as(
      t.app,
      a.token,
    )({
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      payload: { roleId: 'owner' },
    });
    assert.equal(byOwner.statusCode, 200, byOwner.body);
    assert.equal(byOwner.json().role, 'owner');
  });
});

describe('users: changing', () => {
  test('a user demoted to viewer is refused the very next write', async () => {
    const a = await register(t.app);
    const m = await addMember(t, a, 'admin');
    const mapi = as(t.app, m.token);
    const before = await mapi({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { name: 'A' },
    });
    assert.equal(before.statusCode, 200, before.body);
    const demoted = await as(
      t.app,
      a.token,
    )({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { roleId: 'viewer' } });
    assert.equal(demoted.statusCode, 200);
    assert.equal(demoted.json().role, 'viewer');
    const after = await mapi({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { name: 'B' },
    });
    assert.equal(after.statusCode, 403);
    assert.deepEqual(after.json(), { error: 'Forbidden', resource: 'companies', action: 'write' });
    assert.equal((await mapi({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode, 200);
  });

  test("deactivating ends the user's tokens on the next request; reactivating lets them sign in again", async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const m = await addMember(t, a, 'accountant');
    const second = await login(m.email, m.password);
    const mapi = as(t.app, m.token);
    assert.equal((await mapi({ method: 'GET', url: '/api/users' })).statusCode, 200);

    const off = await api({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().active, false);
    assert.match(off.json().deactivatedAt, /Z$/);
    const refused = await mapi({ method: 'GET', url: '/api/users' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().status, 401);
    const otherSession = await as(t.app, second.json().accessToken)({ method: 'GET', url: '/api/users' });
    assert.equal(otherSession.statusCode, 401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh',
      payload: { refreshToken: m.refreshToken },
    });
    assert.equal(refresh.statusCode, 401);
    assert.equal((await login(m.email, m.password)).statusCode, 401);
    const sessions = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('sessions')
        .select(['revoked_at', 'revoked_reason'])
        .where('user_id', '=', m.id)
        .execute(),
    );
    assert.equal(sessions.length, 2);
    assert.ok(sessions.every((s) => s.revoked_at && s.revoked_reason === 'user deactivated'));

    const on = await api({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { active: true } });
    assert.equal(on.statusCode, 200);
    assert.equal(on.json().active, true);
    assert.equal(on.json().deactivatedAt, null);
    // The old tokens stay dead; a new sign-in works.
    assert.equal((await mapi({ method: 'GET', url: '/api/users' })).statusCode, 401);
    const fresh = await login(m.email, m.password);
    assert.equal(fresh.statusCode, 200);
    assert.equal(
      (await as(t.app, fresh.json().accessToken)({ method: 'GET', url: '/api/users' })).statusCode,
      200,
    );
  });

  test('nobody may deactivate themselves, and the last active owner stays an active owner (409)', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const self = await api({ method: 'PATCH', url: `/api/users/${a.userId}`, payload: { active: false } });
    assert.equal(self.statusCode, 409);
    assert.match(self.json().detail, /yourself/);
    const demoteSelf = await api({
      method: 'PATCH',
      url: `/api/users/${a.userId}`,
      payload: { roleId: 'admin' },
    });
    assert.equal(demoteSelf.statusCode, 409);
    assert.match(demoteSelf.json().detail, /last active owner/);

    const admin = await addMember(t, a, 'admin');
    const adminSelf = await as(
      t.app,
      admin.token,
    )({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      payload: { active: false },
    });
    assert.equal(adminSelf.statusCode, 409);

    // With a second owner, one owner may step down; then the other is the last one.
    const second = await addMember(t, a, 'owner');
    assert.equal(
      (await api({ method: 'PATCH', url: `/api/users/${a.userId}`, payload: { roleId: 'admin' } }))
        .statusCode,
      200,
    );
    const last = await as(
      t.app,
      second.token,
    )({
      method: 'PATCH',
      url: `/api/users/${second.id}`,
      payload: { roleId: 'viewer' },
    });
    assert.equal(last.statusCode, 409);
    // A deactivated owner does not count as an active one.
    const third = await addMember(t, second, 'owner');
    const sapi = as(t.app, second.token);
    assert.equal(
      (await sapi({ method: 'PATCH', url: `/api/users/${third.id}`, payload: { active: false } })).statusCode,
      200,
    );
    assert.equal(
      (await sapi({ method: 'PATCH', url: `/api/users/${second.id}`, payload: { roleId: 'viewer' } }))
        .statusCode,
      409,
    );
  });

  test('two owners demoting each other at once leave one owner', async () => {
    const a = await register(t.app);
    const b = await addMember(t, a, 'owner');
    const [r1, r2] = await Promise.all([
      as(t.app, a.token)({ method: 'PATCH', url: `/api/users/${b.id}`, payload: { roleId: 'admin' } }),
      as(t.app, b.token)({ method: 'PATCH', url: `/api/users/${a.userId}`, payload: { roleId: 'admin' } }),
    ]);
    const codes = [r1.statusCode, r2.statusCode].sort();
    // Either one wins and the other is refused as the last owner, or the loser's token
    // no longer grants admin:manage by the time it runs.
    assert.ok(codes[0] === 200 && (codes[1] === 409 || codes[1] === 403), String(codes));
    const owners = (
      await as(
        t.app,
        r1.statusCode === 200 ? a.token : b.token,
      )({
        method: 'GET',
        url: '/api/users?role=owner&active=true',
      })
    ).json();
    assert.equal(owners.total, 1);
  });

  test('PATCH renames; unknown roleId 400; empty name 400', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const m = await addMember(t, a, 'sales');
    const renamed = await api({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { name: 'Sipho' } });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json().name, 'Sipho');
    assert.ok(renamed.json().updatedAt >= renamed.json().createdAt);
    const bad = await api({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { roleId: 'boss' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().detail, /^roleId/);
    const blank = await api({ method: 'PATCH', url: `/api/users/${m.id}`, payload: { name: '   ' } });
    assert.equal(blank.statusCode, 400);
    assert.match(blank.json().detail, /^name/);
  });

  test("another tenant's user is a 404 for read and change", async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const bapi = as(t.app, b.token);
    assert.equal((await bapi({ method: 'GET', url: `/api/users/${a.userId}` })).statusCode, 404);
    const patch = await bapi({ method: 'PATCH', url: `/api/users/${a.userId}`, payload: { active: false } });
    assert.equal(patch.statusCode, 404);
    assert.equal((await bapi({ method: 'GET', url: `/api/users/${crypto.randomUUID()}` })).statusCode, 404);
    assert.equal((await bapi({ method: 'GET', url: '/api/users/123' })).statusCode, 400);
    const list = (await bapi({ method: 'GET', url: '/api/users' })).json();
    assert.deepEqual(
      list.items.map((u: { id: string }) => u.id),
      [b.userId],
    );
  });
});

describe('users: listing', () => {
  test('paged envelope, filters before paging, limits clamped, page past the end empty', async () => {
    const a = await register(t.app, { name: 'Aaron Owner' });
    const api = as(t.app, a.token);
    const clerk = (
      await api({ method: 'POST', url: '/api/roles', payload: { name: 'Clerk', permissions: [] } })
    ).json();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api({
        method: 'POST',
        url: '/api/users',
        payload: {
          email: `staff${i}.${crypto.randomUUID().slice(0, 6)}@acme.co.za`,
          name: `Staff ${i}`,
          roleId: i < 2 ? clerk.id : 'sales',
        },
      });
      assert.equal(res.statusCode, 201);
      made.push(res.json().id);
    }
    await api({ method: 'PATCH', url: `/api/users/${made[4]}`, payload: { active: false } });

    const all = (await api({ method: 'GET', url: '/api/users' })).json();
    assert.deepEqual(Object.keys(all).sort(), ['items', 'limit', 'page', 'total', 'totalPages']);
    assert.equal(all.total, 6);
    assert.equal(all.page, 1);
    assert.equal(all.limit, 50);
    assert.equal(all.totalPages, 1);
    assert.deepEqual(
      all.items.map((u: { name: string }) => u.name),
      ['Aaron Owner', 'Staff 0', 'Staff 1', 'Staff 2', 'Staff 3', 'Staff 4'],
    );
    assert.deepEqual(Object.keys(all.items[1]).sort(), USER_KEYS);
    assert.equal(all.items[1].invitationPending, true);

    const q = (await api({ method: 'GET', url: '/api/users?q=STAFF&limit=2&page=2' })).json();
    assert.equal(q.total, 5);
    assert.equal(q.totalPages, 3);
    assert.deepEqual(
      q.items.map((u: { name: string }) => u.name),
      ['Staff 2', 'Staff 3'],
    );
    const byEmail = (await api({ method: 'GET', url: '/api/users?q=acme.co' })).json();
    assert.equal(byEmail.total, 5);
    const literal = (await api({ method: 'GET', url: '/api/users?q=%25' })).json();
    assert.equal(literal.total, 0);
    const byRole = (await api({ method: 'GET', url: `/api/users?role=${clerk.id}` })).json();
    assert.deepEqual(
      byRole.items.map((u: { name: string }) => u.name),
      ['Staff 0', 'Staff 1'],
    );
    assert.equal(byRole.items[0].roleName, 'Clerk');
    assert.equal((await api({ method: 'GET', url: '/api/users?role=owner' })).json().total, 1);
    const inactive = (await api({ method: 'GET', url: '/api/users?active=false' })).json();
    assert.deepEqual(
      inactive.items.map((u: { id: string }) => u.id),
      [made[4]],
    );
    const activeSales = (
      await api({ method: 'GET', url: '/api/users?role=sales&active=true&limit=1' })
    ).json();
    assert.equal(activeSales.total, 2);
    assert.equal(activeSales.items.length, 1);

    const zero = (await api({ method: 'GET', url: '/api/users?limit=0' })).json();
    assert.equal(zero.limit, 50);
    assert.equal((await api({ method: 'GET', url: '/api/users?limit=-5' })).json().limit, 50);
    const big = (await api({ method: 'GET', url: '/api/users?limit=1000' })).json();
    assert.equal(big.limit, 200);
    const past = (await api({ method: 'GET', url: '/api/users?page=9&limit=2' })).json();
    assert.deepEqual(past.items, []);
    assert.equal(past.total, 6);
    assert.equal(past.page, 9);
    const low = (await api({ method: 'GET', url: '/api/users?page=0' })).json();
    assert.equal(low.page, 1);
    assert.equal(low.items.length, 6);

    const badRole = await api({ method: 'GET', url: '/api/users?role=boss' });
    assert.equal(badRole.statusCode, 400);
    assert.match(badRole.json().detail, /^role/);
    const badActive = await api({ method: 'GET', url: '/api/users?active=maybe' });
    assert.equal(badActive.statusCode, 400);
    assert.match(badActive.json().detail, /^active/);

    // Issue 35: isActive, as every other list says it (active, its former name, is still read).
    const isInactive = (await api({ method: 'GET', url: '/api/users?isActive=false' })).json();
    assert.deepEqual(isInactive.items, inactive.items);
    assert.equal((await api({ method: 'GET', url: '/api/users?isActive=true&role=sales' })).json().total, 2);
    const both = await api({ method: 'GET', url: '/api/users?isActive=true&active=false' });
    assert.equal(both.statusCode, 400, both.body);
    assert.equal(both.json().field, 'active');
  });
});
