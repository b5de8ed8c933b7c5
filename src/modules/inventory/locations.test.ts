// A company's stock locations over HTTP: MAIN and TRANSIT on the first list (a bare array),
// warehouses and bins, one default at a time, transit fixed, a location with stock kept.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { stockIn } from './catalog.test-support.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

type Loc = { id: string; code: string; kind: string; isDefault: boolean; parentId: string | null };

async function list(): Promise<Loc[]> {
  const res = await api({ method: 'GET', url: '/api/inventory/locations' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function create(payload: Record<string, unknown>): Promise<Loc> {
  const res = await api({ method: 'POST', url: '/api/inventory/locations', payload });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers.location, `/api/inventory/locations/${res.json().id}`);
  return res.json();
}

describe('locations', () => {
  test('the first list is a bare array with MAIN (default) and TRANSIT; X-Company-Id is required', async () => {
    const first = await list();
    assert.ok(Array.isArray(first));
    assert.deepEqual(
      first.map((l) => [l.code, l.kind, l.isDefault]),
      [
        ['MAIN', 'warehouse', true],
        ['TRANSIT', 'transit', false],
      ],
    );
    assert.deepEqual(await list(), first, 'made once');
    const noCompany = await as(t.app, a.token)({ method: 'GET', url: '/api/inventory/locations' });
    assert.equal(assertProblem(noCompany, 400).code, 'COMPANY_HEADER_REQUIRED');
  });

  test('warehouses and bins: a bin needs a warehouse parent; codes unique in any case', async () => {
    const cpt = await create({ code: 'CPT', name: 'Cape Town' });
    assert.deepEqual([cpt.kind, cpt.parentId, cpt.isDefault], ['warehouse', null, false]);
    const bin = await create({ code: 'CPT-A1', name: 'Aisle 1', kind: 'bin', parentId: cpt.id });
    assert.equal(bin.parentId, cpt.id);
    assertProblem(
      await api({
        method: 'POST',
        url: '/api/inventory/locations',
        payload: { code: 'B2', name: 'x', kind: 'bin' },
      }),
      400,
      'parentId',
    );
    assertProblem(
      await api({
        method: 'POST',
        url: '/api/inventory/locations',
        payload: { code: 'B3', name: 'x', kind: 'bin', parentId: bin.id },
      }),
      400,
      'parentId',
    );
    assertProblem(
      await api({
        method: 'POST',
        url: '/api/inventory/locations',
        payload: { code: 'W2', name: 'x', parentId: cpt.id },
      }),
      400,
      'parentId',
    );
    const dup = await api({
      method: 'POST',
      url: '/api/inventory/locations',
      payload: { code: 'cpt', name: 'Dup' },
    });
    assert.equal(assertProblem(dup, 409).field, 'code');
    // A warehouse with bins is not deleted; the bin first, then it.
    assertProblem(await api({ method: 'DELETE', url: `/api/inventory/locations/${cpt.id}` }), 409);
    assert.equal(
      (await api({ method: 'DELETE', url: `/api/inventory/locations/${bin.id}` })).statusCode,
      204,
    );
    assert.equal(
      (await api({ method: 'DELETE', url: `/api/inventory/locations/${cpt.id}` })).statusCode,
      204,
    );
    assertProblem(await api({ method: 'GET', url: `/api/inventory/locations/${cpt.id}` }), 404);
  });

  test('one default at a time: a new default (create or PATCH) unsets the old one', async () => {
    const jhb = await create({ code: 'JHB', name: 'Johannesburg', isDefault: true });
    assert.equal(jhb.isDefault, true);
    let defaults = (await list()).filter((l) => l.isDefault).map((l) => l.code);
    assert.deepEqual(defaults, ['JHB']);
    const main = (await list()).find((l) => l.code === 'MAIN')!;
    // The default is not deleted.
    assertProblem(await api({ method: 'DELETE', url: `/api/inventory/locations/${jhb.id}` }), 409);
    const back = await api({
      method: 'PATCH',
      url: `/api/inventory/locations/${main.id}`,
      payload: { isDefault: true },
    });
    assert.equal(back.statusCode, 200, back.body);
    defaults = (await list()).filter((l) => l.isDefault).map((l) => l.code);
    assert.deepEqual(defaults, ['MAIN']);
    const renamed = await api({
      method: 'PATCH',
      url: `/api/inventory/locations/${jhb.id}`,
      payload: { name: 'Joburg', code: 'JNB' },
    });
    assert.deepEqual([renamed.json().name, renamed.json().code], ['Joburg', 'JNB']);
  });

  test('the transit location cannot be changed or deleted; a location holding stock cannot be deleted', async () => {
    const transit = (await list()).find((l) => l.kind === 'transit')!;
    assertProblem(
      await api({ method: 'PATCH', url: `/api/inventory/locations/${transit.id}`, payload: { name: 'x' } }),
      409,
    );
    assertProblem(await api({ method: 'DELETE', url: `/api/inventory/locations/${transit.id}` }), 409);

    const dbn = await create({ code: 'DBN', name: 'Durban' });
    const p = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'LOC-1', name: 'Stocked', unitPrice: 1, isTracked: true },
    });
    await stockIn(t, a.tenantId, a.companyId, p.json().id, 4, { locationId: dbn.id });
    const res = await api({ method: 'DELETE', url: `/api/inventory/locations/${dbn.id}` });
    assert.equal(assertProblem(res, 409).code, 'LOCATION_HAS_STOCK');
    // 4 out again: none on hand, so it may go.
    await stockIn(t, a.tenantId, a.companyId, p.json().id, -4, { locationId: dbn.id });
    assert.equal(
      (await api({ method: 'DELETE', url: `/api/inventory/locations/${dbn.id}` })).statusCode,
      204,
    );
  });

  test("another company's location is a 404; each company has its own MAIN", async () => {
    const c2 = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Other Co' } });
    assert.equal(c2.statusCode, 201, c2.body);
    const other = as(t.app, a.token, c2.json().id);
    const theirs = (await other({ method: 'GET', url: '/api/inventory/locations' })).json() as Loc[];
    const mine = await list();
    assert.deepEqual(
      theirs.map((l) => l.code),
      ['MAIN', 'TRANSIT'],
    );
    assert.ok(!theirs.some((l) => mine.some((m) => m.id === l.id)));
    assertProblem(await other({ method: 'GET', url: `/api/inventory/locations/${mine[0]!.id}` }), 404);
  });
});
