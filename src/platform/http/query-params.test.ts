// Query parameters as every route reads them (issue 35's slips): an enum filter in any case, a
// date-time whose offset no clock has, a page far past the end. Parsed where parameters are
// parsed (input-rules.ts, paging.ts), so every route answers alike.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app);
  api = as(t.app, a.token, a.companyId);
  for (const [name, contactType] of [
    ['Thandi Traders', 'CUSTOMER'],
    ['Karoo Supplies', 'SUPPLIER'],
  ]) {
    const res = await api({ method: 'POST', url: '/api/contacts', payload: { name, contactType } });
    assert.equal(res.statusCode, 201, res.body);
  }
});
after(() => t.close());

const names = (body: { items: Array<{ name: string }> }) => body.items.map((c) => c.name);

test('GET /api/contacts?type=customer: the filter in any case (the spec makes it case-insensitive)', async () => {
  for (const type of ['customer', 'Customer', 'CUSTOMER']) {
    const res = await api({ method: 'GET', url: '/api/contacts', query: { type } });
    assert.equal(res.statusCode, 200, `${type}: ${res.body}`);
    assert.deepEqual(names(res.json()), ['Thandi Traders'], type);
  }
  // A value that is no member in any case is still refused, naming the parameter.
  assert.equal(
    assertProblem(await api({ method: 'GET', url: '/api/contacts', query: { type: 'friend' } }), 400).field,
    'type',
  );
});

test('the other enum filters take any case too (sort, status)', async () => {
  const res = await api({ method: 'GET', url: '/api/contacts', query: { sort: '-UPDATEDAT' } });
  assert.equal(res.statusCode, 200, res.body);
  const invoices = await api({ method: 'GET', url: '/api/invoices', query: { status: 'DRAFT' } });
  assert.equal(invoices.statusCode, 200, invoices.body);
});

test('a date-time whose offset no clock has (+20:00) is a 400 naming the parameter, on every route', async () => {
  const res = await api({
    method: 'GET',
    url: '/api/customer-credits',
    query: { updatedSince: '2026-01-01T00:00:00+20:00' },
  });
  assert.equal(assertProblem(res, 400).field, 'updatedSince');
  // A real offset is read as the instant it names.
  const ok = await api({
    method: 'GET',
    url: '/api/customer-credits',
    query: { updatedSince: '2026-01-01T00:00:00+14:00' },
  });
  assert.equal(ok.statusCode, 200, ok.body);
  // Every GET list taking updatedSince: the same 400 (never a 500 from the database's cast).
  const lists = catalogue.filter(
    (r) =>
      r.method === 'GET' &&
      !r.path.includes('{') &&
      (r.query as { properties?: Record<string, unknown> } | undefined)?.properties?.updatedSince,
  );
  assert.ok(lists.length > 10, `${lists.length} lists take updatedSince`);
  for (const route of lists) {
    const res = await api({
      method: 'GET',
      url: route.path,
      query: { updatedSince: '2026-01-01T00:00:00-20:00' },
    });
    assert.equal(assertProblem(res, 400, route.path).field, 'updatedSince', route.path);
  }
});

test('a page far past the end: an empty page with the same total, never a 400, on every paged list', async () => {
  const res = await api({ method: 'GET', url: '/api/contacts', query: { page: '100000000000000000000' } });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(body.items, []);
  assert.equal(body.total, 2);
  const paged = catalogue.filter(
    (r) =>
      r.method === 'GET' &&
      !r.path.includes('{') &&
      (r.query as { properties?: Record<string, unknown> } | undefined)?.properties?.page &&
      !(r.query as { required?: string[] }).required?.length,
  );
  assert.ok(paged.length > 20, `${paged.length} paged lists`);
  for (const route of paged) {
    const res = await api({ method: 'GET', url: route.path, query: { page: '100000000000000000000' } });
    assert.equal(res.statusCode, 200, `${route.path}: ${res.body}`);
    assert.deepEqual(res.json().items, [], route.path);
  }
});
