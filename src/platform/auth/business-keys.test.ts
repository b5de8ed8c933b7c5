// A business key made without roleId acts with its creator's role as it is at each call: it
// never does more than the person who made it (a narrowed role narrows the key at the next
// request), and it survives the creator's deactivation, as business keys do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied } from '../../../test/support/problem.ts';
import { keyTokenFor } from './api-keys.factories.ts';
import { addMember } from './users.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

const newCompany = { name: 'Made by a key' };

test("a business key without roleId acts with its creator's role, follows it, and survives them", async () => {
  const a = await register(t.app, { plan: 'business' });
  const admin = await addMember(t, a, 'admin');
  const key = await keyTokenFor(t.app, admin.token, { owner: 'business', scopes: ['full'] });
  const record = (await as(t.app, a.token)({ method: 'GET', url: `/api/api-keys/${key.id}` })).json();
  assert.equal(record.owner, 'business');
  assert.equal(record.roleId, null);
  assert.equal(record.userId, null);
  assert.equal(record.createdBy, admin.id);

  const api = as(t.app, key.token);
  // The creator is an admin: the key writes companies and reads the users.
  const made = await api({ method: 'POST', url: '/api/companies', payload: newCompany });
  assert.equal(made.statusCode, 201, made.body);
  assert.equal((await api({ method: 'GET', url: '/api/users' })).statusCode, 200);

  // The creator becomes a viewer: the key is a viewer at the next request.
  const patch = (payload: object) =>
    as(t.app, a.token)({ method: 'PATCH', url: `/api/users/${admin.id}`, payload });
  assert.equal((await patch({ roleId: 'viewer' })).statusCode, 200);
  assertPermissionDenied(
    await api({ method: 'POST', url: '/api/companies', payload: newCompany }),
    'companies',
    'write',
  );
  assertPermissionDenied(await api({ method: 'GET', url: '/api/users' }), 'admin', 'read');
  assert.equal((await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode, 200);

  // The creator leaves: the key belongs to the business and goes on, with the role they last had.
  assert.equal((await patch({ active: false })).statusCode, 200);
  assert.equal((await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).statusCode, 200);
  assertPermissionDenied(
    await api({ method: 'POST', url: '/api/companies', payload: newCompany }),
    'companies',
    'write',
  );
  const again = await t.app.inject({
    method: 'POST',
    url: '/auth/token',
    headers: { authorization: `Bearer ${key.key}` },
  });
  assert.equal(again.statusCode, 200, 'a business key is exchanged after its creator leaves');
});

test("an owner's business key without roleId acts as an owner; a chosen roleId is kept as chosen", async () => {
  const a = await register(t.app, { plan: 'business' });
  const owners = await keyTokenFor(t.app, a.token, { owner: 'business', scopes: ['full'] });
  assert.equal(
    (await as(t.app, owners.token)({ method: 'POST', url: '/api/companies', payload: newCompany }))
      .statusCode,
    201,
  );
  const chosen = await keyTokenFor(t.app, a.token, { owner: 'business', roleId: 'viewer', scopes: ['full'] });
  assertPermissionDenied(
    await as(t.app, chosen.token)({ method: 'POST', url: '/api/companies', payload: newCompany }),
    'companies',
    'write',
  );
});
