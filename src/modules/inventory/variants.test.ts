// A product's variants and units over HTTP: create, read, change, soft delete, the bare-array
// lists, 404s for another product's or another tenant's, and toBaseUnits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { toBaseUnits } from './units.service.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let product: { id: string };
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
  const res = await api({
    method: 'POST',
    url: '/api/inventory/products',
    payload: { sku: 'TEE', name: 'T-shirt', unitPrice: 150 },
  });
  assert.equal(res.statusCode, 201, res.body);
  product = res.json();
});
after(() => t.close());

describe('variants', () => {
  test('create answers every field; Location; GET one equals it; the list is a bare array by SKU', async () => {
    const res = await api({
      method: 'POST',
      url: `/api/inventory/products/${product.id}/variants`,
      payload: {
        sku: ' TEE-M-BLUE ',
        name: 'Medium, blue',
        attributes: { size: 'M', colour: 'blue' },
        barcode: '600100',
        unitPrice: 159.9999,
        weight: 0.2,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const v = res.json();
    assert.deepEqual(v, {
      id: v.id,
      productId: product.id,
      sku: 'TEE-M-BLUE',
      name: 'Medium, blue',
      attributes: { size: 'M', colour: 'blue' },
      barcode: '600100',
      unitPrice: 159.9999,
      weight: 0.2,
      isActive: true,
      createdAt: v.createdAt,
      updatedAt: v.updatedAt,
    });
    assert.equal(res.headers.location, `/api/inventory/products/${product.id}/variants/${v.id}`);
    const got = await api({ method: 'GET', url: `/api/inventory/products/${product.id}/variants/${v.id}` });
    assert.deepEqual(got.json(), v);
    const small = await api({
      method: 'POST',
      url: `/api/inventory/products/${product.id}/variants`,
      payload: { sku: 'TEE-A-SMALL', name: 'Small' },
    });
    assert.deepEqual([small.json().unitPrice, small.json().attributes], [null, {}]);
    const list = await api({ method: 'GET', url: `/api/inventory/products/${product.id}/variants` });
    assert.ok(Array.isArray(list.json()));
    assert.deepEqual(
      list.json().map((x: { sku: string }) => x.sku),
      ['TEE-A-SMALL', 'TEE-M-BLUE'],
    );
  });

  test('PATCH changes only what is sent; null clears the price; DELETE is soft (404 after)', async () => {
    const v = (
      await api({
        method: 'POST',
        url: `/api/inventory/products/${product.id}/variants`,
        payload: { sku: 'TEE-XL', name: 'XL', unitPrice: 170 },
      })
    ).json();
    const url = `/api/inventory/products/${product.id}/variants/${v.id}`;
    const p = await api({ method: 'PATCH', url, payload: { unitPrice: null, isActive: false } });
    assert.equal(p.statusCode, 200, p.body);
    assert.deepEqual([p.json().unitPrice, p.json().isActive, p.json().name], [null, false, 'XL']);
    assertProblem(await api({ method: 'PATCH', url, payload: { attributes: { size: 1 } } }), 400);
    assertProblem(await api({ method: 'PATCH', url, payload: { unitPrice: 1.00001 } }), 400, 'unitPrice');
    assert.equal((await api({ method: 'DELETE', url })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url }), 404);
    assertProblem(await api({ method: 'DELETE', url }), 404);
    const list = await api({ method: 'GET', url: `/api/inventory/products/${product.id}/variants` });
    assert.ok(!list.json().some((x: { id: string }) => x.id === v.id));
  });

  test("another product's variant, a deleted product, another tenant: 404", async () => {
    const v = (
      await api({
        method: 'POST',
        url: `/api/inventory/products/${product.id}/variants`,
        payload: { sku: 'TEE-404', name: 'Found' },
      })
    ).json();
    const other = (
      await api({
        method: 'POST',
        url: '/api/inventory/products',
        payload: { sku: 'MUG', name: 'Mug', unitPrice: 1 },
      })
    ).json();
    assertProblem(
      await api({ method: 'GET', url: `/api/inventory/products/${other.id}/variants/${v.id}` }),
      404,
    );
    const b = await register(t.app, { plan: 'business' });
    const bApi = as(t.app, b.token);
    assertProblem(await bApi({ method: 'GET', url: `/api/inventory/products/${product.id}/variants` }), 404);
    assertProblem(
      await bApi({ method: 'GET', url: `/api/inventory/products/${product.id}/variants/${v.id}` }),
      404,
    );
    await api({ method: 'DELETE', url: `/api/inventory/products/${other.id}` });
    assertProblem(await api({ method: 'GET', url: `/api/inventory/products/${other.id}/variants` }), 404);
  });
});

describe('units', () => {
  test('add, list (bare array by name), retire; names unique in any case and not the base unit', async () => {
    const base = `/api/inventory/products/${product.id}/units`;
    const box = await api({ method: 'POST', url: base, payload: { name: 'box', factor: 12 } });
    assert.equal(box.statusCode, 201, box.body);
    assert.deepEqual([box.json().name, box.json().factor], ['box', 12]);
    assert.equal(box.headers.location, `${base}/${box.json().id}`);
    const crate = await api({ method: 'POST', url: base, payload: { name: 'Crate', factor: 144 } });
    assert.equal(crate.statusCode, 201, crate.body);
    assert.deepEqual(
      (await api({ method: 'GET', url: base })).json().map((u: { name: string }) => u.name),
      ['box', 'Crate'],
    );
    assert.equal(
      assertProblem(await api({ method: 'POST', url: base, payload: { name: 'BOX', factor: 6 } }), 409).field,
      'name',
    );
    assert.equal(
      assertProblem(await api({ method: 'POST', url: base, payload: { name: 'Each', factor: 1 } }), 409)
        .field,
      'name',
    );
    assertProblem(
      await api({ method: 'POST', url: base, payload: { name: 'pack', factor: 0 } }),
      400,
      'factor',
    );

    // toBaseUnits: 3 boxes of 12 → 36; 2.5 each → 2.5; an unknown unit → 400 naming the field.
    const ctx = (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) => ({ db: tx, tenantId: a.tenantId });
    await withTenant(t.database.db, a.tenantId, async (tx) => {
      assert.equal((await toBaseUnits(ctx(tx), product.id, 'BOX', 3)).toFixed(4), '36.0000');
      assert.equal((await toBaseUnits(ctx(tx), product.id, undefined, 2.5)).toFixed(4), '2.5000');
      assert.equal((await toBaseUnits(ctx(tx), product.id, 'each', 2)).toFixed(4), '2.0000');
      await assert.rejects(
        toBaseUnits(ctx(tx), product.id, 'pallet', 1, 'lines[0].unit'),
        (e: { status?: number; message: string }) => {
          assert.match(e.message, /pallet/);
          return true;
        },
      );
    });

    // Retired: gone from the list, 404 after, and no longer converts; its name is free again.
    const url = `${base}/${box.json().id}`;
    assert.equal((await api({ method: 'DELETE', url })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url }), 404);
    assertProblem(await api({ method: 'DELETE', url }), 404);
    await withTenant(t.database.db, a.tenantId, async (tx) => {
      await assert.rejects(toBaseUnits(ctx(tx), product.id, 'box', 1));
    });
    const again = await api({ method: 'POST', url: base, payload: { name: 'box', factor: 10 } });
    assert.equal(again.statusCode, 201, again.body);
  });
});
