import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('a company-scoped route without X-Company-Id is a 400 with the spec text', async () => {
  const a = await register(t.app);
  const res = await as(t.app, a.token)({ method: 'GET', url: '/api/setup-progress' });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().detail, 'X-Company-Id header is required for this request');
  assert.equal(res.json().code, 'COMPANY_HEADER_REQUIRED');
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
});

test('an X-Company-Id that is not a UUID is a 400 naming the header', async () => {
  const a = await register(t.app);
  const res = await as(t.app, a.token, 'not-a-uuid')({ method: 'GET', url: '/api/setup-progress' });
  assert.equal(res.statusCode, 400);
  assert.match(res.json().detail, /X-Company-Id/);
});

test("a company outside the tenant is a 404, the tenant's own company answers", async () => {
  const a = await register(t.app);
  const b = await register(t.app);
  const foreign = await as(t.app, b.token, a.companyId)({ method: 'GET', url: '/api/setup-progress' });
  assert.equal(foreign.statusCode, 404);
  const unknown = await as(
    t.app,
    b.token,
    crypto.randomUUID(),
  )({ method: 'GET', url: '/api/setup-progress' });
  assert.equal(unknown.statusCode, 404);
  const own = await as(t.app, b.token, b.companyId)({ method: 'GET', url: '/api/setup-progress' });
  assert.equal(own.statusCode, 200, own.body);
  assert.equal(own.json().companyId, b.companyId);
});

test('the checklist follows what has been done', async () => {
  const a = await register(t.app);
  const api = as(t.app, a.token, a.companyId);
  const before = (await api({ method: 'GET', url: '/api/setup-progress' })).json();
  assert.equal(before.steps.find((s: { key: string }) => s.key === 'company-details').done, false);
  await api({ method: 'PATCH', url: `/api/companies/${a.companyId}`, payload: { tradeName: 'Acme' } });
  const later = (await api({ method: 'GET', url: '/api/setup-progress' })).json();
  assert.equal(later.steps.find((s: { key: string }) => s.key === 'company-details').done, true);
  assert.equal(later.done, before.done + 1);
  assert.equal(later.total, later.steps.length);
});
