// The products book over HTTP: create with clientId, every field, SKU unique in any case,
// validation naming the field, PATCH, soft delete, the list's search and filter, tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
});
after(() => t.close());

async function create(body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/inventory/products', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function list(query = '') {
  const res = await api({ method: 'GET', url: `/api/inventory/products?${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { items: Array<{ id: string; sku: string; name: string }>; total: number };
}

describe('products: create, read, change, delete', () => {
  test('every field round-trips; defaults; clientId answers 201 then 200 with the first record', async () => {
    const clientId = crypto.randomUUID();
    const body = {
      clientId,
      sku: '  RB-250 ',
      name: 'Rooibos tea, 250 g',
      description: 'Loose-leaf',
      unitPrice: 89.9525,
      vatRate: 0,
      isTracked: true,
      isActive: false,
    };
    const created = await create(body);
    assert.deepEqual(created, {
      id: clientId,
      tenantId: a.tenantId,
      sku: 'RB-250',
      name: 'Rooibos tea, 250 g',
      description: 'Loose-leaf',
      unitPrice: 89.9525,
      vatRate: 0,
      // vatRate 0 names the code zero, bought and sold (issue 34, item 19).
      salesTaxCode: 'zero',
      purchaseTaxCode: 'zero',
      taxNote: null,
      isTracked: true,
      isActive: false,
      costMethod: 'average',
      tracking: 'none',
      allowNegative: true,
      reorderPoint: null,
      reorderQuantity: null,
      barcode: null,
      baseUnit: 'each',
      weight: null,
      incomeAccountCode: null,
      costAccountCode: null,
      inventoryAccountCode: null,
      onHand: 0,
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
      deletedAt: null,
    });
    const replay = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { ...body, name: 'Changed' },
    });
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().name, 'Rooibos tea, 250 g');

    const plain = await create({ sku: 'SVC-1', name: 'Installation', unitPrice: 1500 });
    assert.deepEqual(
      [plain.description, plain.vatRate, plain.isTracked, plain.isActive, plain.unitPrice],
      [null, null, false, true, 1500],
    );
    const got = await api({ method: 'GET', url: `/api/inventory/products/${plain.id}` });
    assert.deepEqual(got.json(), plain);
  });

  test('prices are exact to four decimals (a seven-digit price keeps them); more than four is a 400', async () => {
    const p = await create({ sku: 'EXACT-1', name: 'Exact', unitPrice: 1234567.0001 });
    assert.equal(p.unitPrice, 1234567.0001);
    const bad = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'EXACT-2', name: 'Too fine', unitPrice: 1.00001 },
    });
    assert.equal(assertProblem(bad, 400).field, 'unitPrice');
  });

  test('400 naming the field: missing sku, blank name, negative price, bad vatRate, bad clientId', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'No SKU', unitPrice: 1 }, 'sku'],
      [{ sku: 'B-1', name: '   ', unitPrice: 1 }, 'name'],
      [{ sku: 'B-2', name: 'Negative', unitPrice: -1 }, 'unitPrice'],
      [{ sku: 'B-3', name: 'Rate', unitPrice: 1, vatRate: 101 }, 'vatRate'],
      [{ sku: 'B-4', name: 'Rate', unitPrice: 1, vatRate: 15.0001 }, 'vatRate'],
      [{ sku: 'B-5', name: 'Id', unitPrice: 1, clientId: 'abc' }, 'clientId'],
      [{ sku: 'B-6', name: 'Price', unitPrice: 'ten' }, 'unitPrice'],
    ];
    for (const [payload, field] of cases) {
      const res = await api({ method: 'POST', url: '/api/inventory/products', payload });
      const body = assertProblem(res, 400, field);
      assert.match(String(body.detail), new RegExp(`\\b${field}\\b`), `${field}: ${body.detail}`);
    }
  });

  test('the SKU is unique in any case among live products; a deleted one frees it', async () => {
    const first = await create({ sku: 'Dup-1', name: 'First', unitPrice: 10 });
    const clash = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'DUP-1', name: 'Second', unitPrice: 10 },
    });
    const body = assertProblem(clash, 409);
    assert.equal(body.code, 'SKU_TAKEN');
    assert.equal(body.field, 'sku');
    const other = await create({ sku: 'Dup-2', name: 'Other', unitPrice: 10 });
    const patch = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${other.id}`,
      payload: { sku: 'dup-1' },
    });
    assert.equal(assertProblem(patch, 409).code, 'SKU_TAKEN');
    // Its own SKU in another case is no clash.
    const own = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${first.id}`,
      payload: { sku: 'DUP-1' },
    });
    assert.equal(own.statusCode, 200, own.body);
    assert.equal(own.json().sku, 'DUP-1');

    const del = await api({ method: 'DELETE', url: `/api/inventory/products/${first.id}` });
    assert.equal(del.statusCode, 204);
    const again = await create({ sku: 'dup-1', name: 'Reused', unitPrice: 10 });
    assert.equal(again.sku, 'dup-1');
  });

  test('two concurrent creates of one SKU: one 201, one 409', async () => {
    const [r1, r2] = await Promise.all(
      [1, 2].map((n) =>
        api({
          method: 'POST',
          url: '/api/inventory/products',
          payload: { sku: 'RACE-1', name: `Racer ${n}`, unitPrice: 1 },
        }),
      ),
    );
    assert.deepEqual([r1!.statusCode, r2!.statusCode].sort(), [201, 409]);
  });

  test('PATCH changes only the fields sent; null clears description and vatRate', async () => {
    const p = await create({ sku: 'P-1', name: 'Patch me', unitPrice: 10, description: 'x', vatRate: 0 });
    const res = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${p.id}`,
      payload: { unitPrice: 12.5, description: null, vatRate: null },
    });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.deepEqual(
      [changed.name, changed.unitPrice, changed.description, changed.vatRate],
      ['Patch me', 12.5, null, null],
    );
    const blank = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${p.id}`,
      payload: { sku: ' ' },
    });
    assert.equal(assertProblem(blank, 400).field, 'sku');
  });

  test('DELETE is soft: 204, then 404 on read, change and delete; gone from the list', async () => {
    const p = await create({ sku: 'DEL-1', name: 'Deleted soon', unitPrice: 1 });
    assert.equal((await api({ method: 'DELETE', url: `/api/inventory/products/${p.id}` })).statusCode, 204);
    for (const method of ['GET', 'DELETE'] as const) {
      assertProblem(await api({ method, url: `/api/inventory/products/${p.id}` }), 404);
    }
    assertProblem(
      await api({ method: 'PATCH', url: `/api/inventory/products/${p.id}`, payload: { name: 'x' } }),
      404,
    );
    assert.ok(!(await list('q=DEL-1')).items.some((i) => i.id === p.id));
    // The row is still there, with its deleted marker.
    const replay = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { clientId: p.id, sku: 'DEL-2', name: 'x', unitPrice: 1 },
    });
    assert.equal(assertProblem(replay, 409).field, 'clientId');
  });
});

describe('products: the list', () => {
  let b: Registered;
  let bApi: ReturnType<typeof as>;
  before(async () => {
    b = await register(t.app, { plan: 'business' });
    bApi = as(t.app, b.token);
    for (const [sku, name, isActive, description] of [
      ['ZZ-1', 'zebra mugs', true, null],
      ['AA-1', 'Aardvark plush', true, 'soft toy'],
      ['MM-1', 'Mango chutney', false, 'Spicy 100% mango'],
    ] as const) {
      const res = await bApi({
        method: 'POST',
        url: '/api/inventory/products',
        payload: { sku, name, isActive, unitPrice: 10, ...(description ? { description } : {}) },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
  });

  async function bList(query = '') {
    const res = await bApi({ method: 'GET', url: `/api/inventory/products?${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('ordered by name in any case; paged envelope; a page past the end is empty with the total', async () => {
    const all = await bList();
    assert.deepEqual(
      all.items.map((i: { name: string }) => i.name),
      ['Aardvark plush', 'Mango chutney', 'zebra mugs'],
    );
    assert.deepEqual([all.total, all.page, all.limit, all.totalPages], [3, 1, 50, 1]);
    const page2 = await bList('limit=2&page=2');
    assert.deepEqual([page2.items.length, page2.total, page2.totalPages], [1, 3, 2]);
    const past = await bList('page=9');
    assert.deepEqual([past.items.length, past.total], [0, 3]);
    assert.equal((await bList('limit=0')).limit, 50);
    assert.equal((await bList('limit=1000')).limit, 200);
  });

  test('q searches sku, name and description in any case; % is literal; isActive filters', async () => {
    assert.deepEqual(
      (await bList('q=aa-')).items.map((i: { sku: string }) => i.sku),
      ['AA-1'],
    );
    assert.deepEqual(
      (await bList('q=SOFT')).items.map((i: { sku: string }) => i.sku),
      ['AA-1'],
    );
    assert.deepEqual(
      (await bList('q=100%25')).items.map((i: { sku: string }) => i.sku),
      ['MM-1'],
    );
    assert.equal((await bList('q=%25%25')).total, 0);
    const inactive = await bList('isActive=false');
    assert.deepEqual([inactive.total, inactive.items[0].sku], [1, 'MM-1']);
    assert.equal((await bList('isActive=true')).total, 2);
    assert.equal(
      assertProblem(await bApi({ method: 'GET', url: '/api/inventory/products?isActive=maybe' }), 400).field,
      'isActive',
    );
  });

  test("one book per tenant: another tenant's products are neither listed nor found", async () => {
    const mine = (await bList()).items[0];
    assertProblem(await api({ method: 'GET', url: `/api/inventory/products/${mine.id}` }), 404);
    assert.ok(!(await list()).items.some((i) => i.id === mine.id));
  });

  test('a plan without inventory (starter) is refused with MODULE_NOT_LICENSED', async () => {
    const s = await register(t.app, { plan: 'starter' });
    const res = await as(t.app, s.token)({ method: 'GET', url: '/api/inventory/products' });
    assert.equal(assertProblem(res, 403).code, 'MODULE_NOT_LICENSED');
  });
});

describe('products: sort and updatedSince', () => {
  let c: Registered;
  let cApi: ReturnType<typeof as>;
  const ids: string[] = [];
  before(async () => {
    c = await register(t.app, { plan: 'business' });
    cApi = as(t.app, c.token);
    // Three products made in one instant (ties by id), then one later.
    t.clock.set('2026-06-01T08:00:00.000Z');
    for (const sku of ['S-3', 'S-2', 'S-1']) {
      const res = await cApi({
        method: 'POST',
        url: '/api/inventory/products',
        payload: { sku, name: `Sync ${sku}`, unitPrice: 5 },
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    t.clock.set('2026-06-01T09:00:00.000Z');
    const last = await cApi({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'S-0', name: 'Sync S-0', unitPrice: 5 },
    });
    ids.push(last.json().id);
  });
  after(() => t.clock.set(new Date()));

  async function cList(query: string) {
    const res = await cApi({ method: 'GET', url: `/api/inventory/products?${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as {
      items: Array<{ id: string; isActive: boolean; updatedAt: string; deletedAt: string | null }>;
      total: number;
    };
  }

  test('sort=createdAt and -createdAt page through the same rows in exactly reverse order, ties by id', async () => {
    const pages = async (sort: string) => {
      const out: string[] = [];
      for (let page = 1; page <= 4; page++)
        out.push(...(await cList(`sort=${sort}&limit=1&page=${page}`)).items.map((i) => i.id));
      return out;
    };
    const asc = await pages('createdAt');
    assert.deepEqual(asc, [...ids.slice(0, 3).sort(), ids[3]]);
    assert.deepEqual(await pages('-createdAt'), [...asc].reverse());
  });

  test('PATCH moves updatedAt (createdAt stays); updatedSince sees a deactivated and a deleted product', async () => {
    t.clock.set('2026-06-02T10:00:00.000Z');
    const since = '2026-06-02T10:00:00.000Z';
    const patched = await cApi({
      method: 'PATCH',
      url: `/api/inventory/products/${ids[0]}`,
      payload: { isActive: false },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().createdAt, '2026-06-01T08:00:00.000Z');
    assert.equal(patched.json().updatedAt, since);
    assert.equal(
      (await cApi({ method: 'DELETE', url: `/api/inventory/products/${ids[1]}` })).statusCode,
      204,
    );
    const changed = await cList(`updatedSince=${since}&sort=-updatedAt`);
    assert.deepEqual(changed.items.map((i) => i.id).sort(), [ids[0], ids[1]].sort());
    const deleted = changed.items.find((i) => i.id === ids[1])!;
    assert.equal(deleted.deletedAt, since);
    assert.equal(changed.items.find((i) => i.id === ids[0])!.isActive, false);
    // Without updatedSince a deleted product stays out.
    assert.ok(!(await cList('')).items.some((i) => i.id === ids[1]));
    assert.deepEqual(
      (await cList(`updatedSince=${since}&isActive=false`)).items.map((i) => i.id),
      [ids[0]],
    );
  });
});
