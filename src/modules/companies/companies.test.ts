import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('companies', () => {
  test('register creates the first company; GET /api/companies is a bare array without a header', async () => {
    const a = await register(t.app, { companyName: 'Acme (Pty) Ltd' });
    const res = await as(t.app, a.token)({ method: 'GET', url: '/api/companies' });
    assert.equal(res.statusCode, 200);
    const list = res.json();
    assert.ok(Array.isArray(list));
    assert.equal(list.length, 1);
    assert.equal(list[0].id, a.companyId);
    assert.equal(list[0].name, 'Acme (Pty) Ltd');
    assert.equal(list[0].baseCurrency, 'ZAR');
  });

  test('create within the allowance, 201 then 200 on replay of clientId, 403 past the allowance', async () => {
    const a = await register(t.app, { plan: 'business' }); // 3 companies
    const api = as(t.app, a.token);
    const clientId = crypto.randomUUID();
    const first = await api({ method: 'POST', url: '/api/companies', payload: { clientId, name: 'Second' } });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    const replay = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { clientId, name: 'Changed' },
    });
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().name, 'Second');
    assert.equal(
      (await api({ method: 'POST', url: '/api/companies', payload: { name: 'Third' } })).statusCode,
      201,
    );
    const over = await api({ method: 'POST', url: '/api/companies', payload: { name: 'Fourth' } });
    assert.equal(over.statusCode, 403);
    assert.equal(over.json().code, 'COMPANY_LIMIT_REACHED');
  });

  test('clientId that is not a UUID is a 400 naming clientId', async () => {
    const a = await register(t.app);
    const res = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { clientId: 'abc', name: 'X' } });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().detail, /clientId/);
  });

  test('two concurrent creates with one clientId make one company', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const clientId = crypto.randomUUID();
    const [r1, r2] = await Promise.all([
      api({ method: 'POST', url: '/api/companies', payload: { clientId, name: 'Twin' } }),
      api({ method: 'POST', url: '/api/companies', payload: { clientId, name: 'Twin' } }),
    ]);
    assert.deepEqual([r1.statusCode, r2.statusCode].sort(), [200, 201]);
    const list = (await api({ method: 'GET', url: '/api/companies' })).json();
    assert.equal(list.filter((c: { id: string }) => c.id === clientId).length, 1);
  });

  test('VAT registration takes effect from its date', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const res = await api({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { vatRegistered: true, vatRegisteredFrom: '2024-03-01', vatNumber: '4123456789' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().vatRegistered, true);
    assert.equal(res.json().vatRegisteredFrom, '2024-03-01');
    const missing = await api({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { vatNumber: '123' },
    });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().detail, /vatNumber/);
  });

  test('the VAT category: B by default (two-monthly), set on create and by PATCH, A-E only', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const first = (await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).json();
    assert.equal(first.vatCategory, 'B');
    const monthly = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Monthly', vatCategory: 'C' },
    });
    assert.equal(monthly.statusCode, 201, monthly.body);
    assert.equal(monthly.json().vatCategory, 'C');
    const patched = await api({
      method: 'PATCH',
      url: `/api/companies/${monthly.json().id}`,
      payload: { vatCategory: 'E' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().vatCategory, 'E');
    const bad = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Bad', vatCategory: 'Z' },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'vatCategory');
  });

  test('the address, registration number, e-mail and telephone printed on documents: set, trimmed, cleared', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const created = await api({
      method: 'POST',
      url: '/api/companies',
      payload: {
        name: 'Jacaranda Bakery CC',
        addressLine1: ' 4 Market Street ',
        city: 'Pretoria',
        postalCode: '0002',
        registrationNo: '2019/654321/23',
        email: 'hello@jacaranda.example.com',
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const c = created.json();
    assert.deepEqual(
      [c.addressLine1, c.addressLine2, c.city, c.postalCode, c.registrationNo, c.email, c.phone],
      ['4 Market Street', null, 'Pretoria', '0002', '2019/654321/23', 'hello@jacaranda.example.com', null],
    );
    const changed = await api({
      method: 'PATCH',
      url: `/api/companies/${c.id}`,
      payload: { addressLine2: 'Unit 3', phone: '012 555 0199', email: null, city: ' ' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const u = changed.json();
    assert.deepEqual(
      [u.addressLine1, u.addressLine2, u.city, u.phone, u.email],
      ['4 Market Street', 'Unit 3', null, '012 555 0199', null],
    );
    const bad = await api({
      method: 'PATCH',
      url: `/api/companies/${c.id}`,
      payload: { email: 'not an address' },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'email');
  });

  test("another tenant's company is a 404", async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const res = await as(t.app, b.token)({ method: 'GET', url: `/api/companies/${a.companyId}` });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().status, 404);
  });

  test('createdAt and updatedAt on every company; a PATCH moves updatedAt, and so does any change made without it', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const before = (await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).json();
    assert.match(before.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    assert.match(before.updatedAt, /^\d{4}-\d{2}-\d{2}T/);
    t.clock.advance(60_000);
    const patched = await api({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { tradeName: 'Moved' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().createdAt, before.createdAt);
    assert.ok(patched.json().updatedAt > before.updatedAt, 'updatedAt moves on PATCH');
    // An update that does not set updated_at itself (the trigger of migration 0018) moves it too.
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .updateTable('companies')
        .set({ updated_at: new Date('2000-01-01T00:00:00Z') })
        .where('id', '=', a.companyId)
        .execute(),
    );
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.updateTable('companies').set({ phone: '011 555 0100' }).where('id', '=', a.companyId).execute(),
    );
    const touched = (await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).json();
    assert.ok(touched.updatedAt > '2000-01-02', `the trigger moved updatedAt: ${touched.updatedAt}`);
  });

  test('a clientId of a deleted company is a 409 naming clientId', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const clientId = crypto.randomUUID();
    assert.equal(
      (await api({ method: 'POST', url: '/api/companies', payload: { clientId, name: 'Gone' } })).statusCode,
      201,
    );
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.updateTable('companies').set({ deleted_at: new Date() }).where('id', '=', clientId).execute(),
    );
    const again = await api({ method: 'POST', url: '/api/companies', payload: { clientId, name: 'Again' } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().field, 'clientId');
  });
});
