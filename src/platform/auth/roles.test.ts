import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { BUILT_IN_ROLES } from './permissions.ts';
import { addMember } from './users.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const member = (owner: Registered, roleId: string) => addMember(t, owner, roleId);

describe('roles', () => {
  test('GET /api/roles lists the eight built-in roles, then the custom roles by name', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    await api({ method: 'POST', url: '/api/roles', payload: { name: 'Zulu clerk', permissions: [] } });
    await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Alpha clerk', description: 'Books', permissions: ['reports:read'] },
    });
    const res = await api({ method: 'GET', url: '/api/roles' });
    assert.equal(res.statusCode, 200);
    const roles = res.json();
    assert.ok(Array.isArray(roles));
    assert.deepEqual(
      roles.slice(0, 8).map((r: { id: string }) => r.id),
      [...BUILT_IN_ROLES],
    );
    const owner = roles[0];
    assert.equal(owner.name, 'owner');
    assert.equal(owner.builtIn, true);
    assert.equal(typeof owner.description, 'string');
    assert.ok(owner.permissions.includes('admin:manage'));
    assert.equal(owner.createdAt, undefined);
    const viewer = roles.find((r: { id: string }) => r.id === 'viewer');
    assert.ok(viewer.permissions.every((p: string) => p.endsWith(':read')));
    assert.ok(!viewer.permissions.some((p: string) => p.startsWith('admin:')));
    assert.deepEqual(
      roles.slice(8).map((r: { name: string }) => r.name),
      ['Alpha clerk', 'Zulu clerk'],
    );
    const custom = roles[8];
    assert.match(custom.id, /^[0-9a-f-]{36}$/);
    assert.equal(custom.builtIn, false);
    assert.equal(custom.description, 'Books');
    assert.deepEqual(custom.permissions, ['reports:read']);
    assert.match(custom.createdAt, /Z$/);
    assert.match(custom.updatedAt, /Z$/);
  });

  test('GET /api/roles/{id} by custom id or built-in name; unknown id 404; malformed id 400', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const created = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Clerk', permissions: ['contacts:write'] },
    });
    const id = created.json().id;
    const one = await api({ method: 'GET', url: `/api/roles/${id}` });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().name, 'Clerk');
    const builtIn = await api({ method: 'GET', url: '/api/roles/accountant' });
    assert.equal(builtIn.statusCode, 200);
    assert.equal(builtIn.json().builtIn, true);
    assert.ok(builtIn.json().permissions.includes('admin:read'));
    assert.equal((await api({ method: 'GET', url: `/api/roles/${crypto.randomUUID()}` })).statusCode, 404);
    const bad = await api({ method: 'GET', url: '/api/roles/not-a-role' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().detail, /^id/);
  });

  test('create: 201, replay of clientId 200, unknown permission 400 naming permissions[i], duplicate name 409', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const clientId = crypto.randomUUID();
    const first = await api({
      method: 'POST',
      url: '/api/roles',
      payload: {
        clientId,
        name: 'Debtors',
        permissions: ['invoices:write', 'contacts:read', 'invoices:write'],
      },
    });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    assert.deepEqual(first.json().permissions, ['contacts:read', 'invoices:write']);
    const replay = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { clientId, name: 'Something else', permissions: [] },
    });
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().name, 'Debtors');

    const unknown = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Broken', permissions: ['invoices:read', 'invoices:destroy'] },
    });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().detail, /^permissions\[1\]/);
    const shapeless = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Broken', permissions: ['everything'] },
    });
    assert.equal(shapeless.statusCode, 400);
    assert.match(shapeless.json().detail, /^permissions\[0\]/);

    const dup = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'DEBTORS', permissions: [] },
    });
    assert.equal(dup.statusCode, 409);
    assert.match(dup.json().detail, /already exists/);
    const builtInName = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Admin', permissions: [] },
    });
    assert.equal(builtInName.statusCode, 409);

    const badClientId = await api({
      method: 'POST',
      url: '/api/roles',
      payload: { clientId: 'nope', name: 'X', permissions: [] },
    });
    assert.equal(badClientId.statusCode, 400);
    assert.match(badClientId.json().detail, /clientId/);
  });

  test('two concurrent creates with one clientId make one role', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const clientId = crypto.randomUUID();
    const payload = { clientId, name: 'Twin', permissions: ['reports:read'] };
    const [r1, r2] = await Promise.all([
      api({ method: 'POST', url: '/api/roles', payload }),
      api({ method: 'POST', url: '/api/roles', payload }),
    ]);
    assert.deepEqual([r1.statusCode, r2.statusCode].sort(), [200, 201]);
    const list = (await api({ method: 'GET', url: '/api/roles' })).json();
    assert.equal(list.filter((r: { name: string }) => r.name === 'Twin').length, 1);
  });

  test('PATCH changes a custom role; built-in roles cannot be changed or deleted (409)', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    await api({ method: 'POST', url: '/api/roles', payload: { name: 'Taken', permissions: [] } });
    const id = (
      await api({ method: 'POST', url: '/api/roles', payload: { name: 'Clerk', permissions: [] } })
    ).json().id;
    const res = await api({
      method: 'PATCH',
      url: `/api/roles/${id}`,
      payload: { name: 'Senior clerk', description: 'More', permissions: ['banking:write'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().name, 'Senior clerk');
    assert.equal(res.json().description, 'More');
    assert.deepEqual(res.json().permissions, ['banking:write']);
    const caseOnly = await api({
      method: 'PATCH',
      url: `/api/roles/${id}`,
      payload: { name: 'SENIOR CLERK' },
    });
    assert.equal(caseOnly.statusCode, 200);
    const clash = await api({ method: 'PATCH', url: `/api/roles/${id}`, payload: { name: 'taken' } });
    assert.equal(clash.statusCode, 409);
    const badPermission = await api({
      method: 'PATCH',
      url: `/api/roles/${id}`,
      payload: { permissions: ['banking:write', 'banking:fly'] },
    });
    assert.equal(badPermission.statusCode, 400);
    assert.match(badPermission.json().detail, /^permissions\[1\]/);

    const builtIn = await api({ method: 'PATCH', url: '/api/roles/viewer', payload: { permissions: [] } });
    assert.equal(builtIn.statusCode, 409);
    assert.match(builtIn.json().detail, /built-in/);
    assert.equal((await api({ method: 'DELETE', url: '/api/roles/viewer' })).statusCode, 409);
  });

  test('DELETE is soft, refused with the count while active users hold the role', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const id = (
      await api({
        method: 'POST',
        url: '/api/roles',
        payload: { name: 'Temp', permissions: ['reports:read'] },
      })
    ).json().id;
    const m1 = await member(a, id);
    const m2 = await member(a, id);
    const refused = await api({ method: 'DELETE', url: `/api/roles/${id}` });
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().detail, /2 active users/);
    await api({ method: 'PATCH', url: `/api/users/${m1.id}`, payload: { roleId: 'viewer' } });
    assert.match((await api({ method: 'DELETE', url: `/api/roles/${id}` })).json().detail, /1 active user\b/);
    // A deactivated holder does not block the delete.
    await api({ method: 'PATCH', url: `/api/users/${m2.id}`, payload: { active: false } });
    const gone = await api({ method: 'DELETE', url: `/api/roles/${id}` });
    assert.equal(gone.statusCode, 204);
    assert.equal(gone.body, '');
    assert.equal((await api({ method: 'GET', url: `/api/roles/${id}` })).statusCode, 404);
    assert.equal((await api({ method: 'DELETE', url: `/api/roles/${id}` })).statusCode, 404);
    const list = (await api({ method: 'GET', url: '/api/roles' })).json();
    assert.ok(!list.some((r: { id: string }) => r.id === id));
    // The row is kept, marked deleted; its name is free again.
    const row = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('roles').select('deleted_at').where('id', '=', id).executeTakeFirst(),
    );
    assert.ok(row?.deleted_at);
    assert.equal(
      (await api({ method: 'POST', url: '/api/roles', payload: { name: 'Temp', permissions: [] } }))
        .statusCode,
      201,
    );
    // Its former holder keeps the name of the deleted role on their record, and needs a role to come back.
    const m2Record = (await api({ method: 'GET', url: `/api/users/${m2.id}` })).json();
    assert.equal(m2Record.roleName, 'Temp');
    const back = await api({ method: 'PATCH', url: `/api/users/${m2.id}`, payload: { active: true } });
    assert.equal(back.statusCode, 409);
    const backWithRole = await api({
      method: 'PATCH',
      url: `/api/users/${m2.id}`,
      payload: { active: true, roleId: 'viewer' },
    });
    assert.equal(backWithRole.statusCode, 200, backWithRole.body);
    assert.equal(backWithRole.json().active, true);
  });

  test('a custom role grants exactly its permissions, and a change applies on the next request', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const id = (
      await api({
        method: 'POST',
        url: '/api/roles',
        payload: { name: 'Company reader', permissions: ['companies:read'] },
      })
    ).json().id;
    const m = await member(a, id);
    const mapi = as(t.app, m.token);
    assert.equal((await mapi({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode, 200);
    const patch = await mapi({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { name: 'X' },
    });
    assert.equal(patch.statusCode, 403);
    assert.deepEqual(patch.json(), { error: 'Forbidden', resource: 'companies', action: 'write' });
    assert.equal((await mapi({ method: 'GET', url: '/api/users' })).statusCode, 403);

    await api({ method: 'PATCH', url: `/api/roles/${id}`, payload: { permissions: ['companies:write'] } });
    const now = await mapi({ method: 'PATCH', url: `/api/companies/${a.companyId}`, payload: { name: 'X' } });
    assert.equal(now.statusCode, 200, now.body);
  });

  test('viewer is refused with { error, resource, action }; accountant reads but cannot manage', async () => {
    const a = await register(t.app);
    const viewer = await member(a, 'viewer');
    const accountant = await member(a, 'accountant');
    const denied = await as(t.app, viewer.token)({ method: 'GET', url: '/api/roles' });
    assert.equal(denied.statusCode, 403);
    assert.deepEqual(denied.json(), { error: 'Forbidden', resource: 'admin', action: 'read' });
    const acc = as(t.app, accountant.token);
    assert.equal((await acc({ method: 'GET', url: '/api/roles' })).statusCode, 200);
    const write = await acc({ method: 'POST', url: '/api/roles', payload: { name: 'X', permissions: [] } });
    assert.equal(write.statusCode, 403);
    assert.deepEqual(write.json(), { error: 'Forbidden', resource: 'admin', action: 'manage' });
  });

  test('nobody grants more than they hold: a limited user manager cannot escalate', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const hr = (
      await api({
        method: 'POST',
        url: '/api/roles',
        payload: { name: 'HR desk', permissions: ['admin:manage', 'contacts:write'] },
      })
    ).json();
    const desk = await member(a, hr.id);
    const dapi = as(t.app, desk.token);
    const within = await dapi({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Contacts reader', permissions: ['contacts:read'] },
    });
    assert.equal(within.statusCode, 201, within.body);
    const beyond = await dapi({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Everything', permissions: ['contacts:read', 'invoices:write'] },
    });
    assert.equal(beyond.statusCode, 403);
    assert.equal(beyond.json().code, 'PERMISSION_NOT_HELD');
    assert.match(beyond.json().detail, /^permissions\[1\]/);
    const widen = await dapi({
      method: 'PATCH',
      url: `/api/roles/${hr.id}`,
      payload: { permissions: ['admin:manage', 'contacts:write', 'banking:write'] },
    });
    assert.equal(widen.statusCode, 403);
    // Nor by giving someone (or themselves) a stronger role.
    const email = `e.${crypto.randomUUID().slice(0, 6)}@example.co.za`;
    const accountant = await dapi({
      method: 'POST',
      url: '/api/users',
      payload: { email, name: 'E', roleId: 'accountant' },
    });
    assert.equal(accountant.statusCode, 403);
    assert.match(accountant.json().detail, /^roleId/);
    const self = await dapi({ method: 'PATCH', url: `/api/users/${desk.id}`, payload: { roleId: 'admin' } });
    assert.equal(self.statusCode, 403);
    const fine = await dapi({
      method: 'POST',
      url: '/api/users',
      payload: { email, name: 'E', roleId: within.json().id },
    });
    assert.equal(fine.statusCode, 201, fine.body);
  });

  test("another tenant's role is a 404 for read, change and delete", async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const id = (
      await as(
        t.app,
        a.token,
      )({ method: 'POST', url: '/api/roles', payload: { name: 'Mine', permissions: [] } })
    ).json().id;
    const bapi = as(t.app, b.token);
    assert.equal((await bapi({ method: 'GET', url: `/api/roles/${id}` })).statusCode, 404);
    assert.equal(
      (await bapi({ method: 'PATCH', url: `/api/roles/${id}`, payload: { name: 'Theirs' } })).statusCode,
      404,
    );
    assert.equal((await bapi({ method: 'DELETE', url: `/api/roles/${id}` })).statusCode, 404);
    const list = (await bapi({ method: 'GET', url: '/api/roles' })).json();
    assert.equal(list.length, 8);
    // Nor can it be given to a user of the other business.
    const assign = await bapi({
      method: 'POST',
      url: '/api/users',
      payload: { email: `x.${crypto.randomUUID().slice(0, 6)}@example.co.za`, name: 'X', roleId: id },
    });
    assert.equal(assign.statusCode, 400);
    assert.match(assign.json().detail, /^roleId/);
  });
});
