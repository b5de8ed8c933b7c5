// The products book's stock fields (issue 20): cost method, tracking, reorder levels, barcode,
// base unit, weight, account codes; onHand summed over companies and locations; the list's
// barcode and belowReorder filters; SKU unique across products AND variants; PRODUCT_HAS_STOCK.
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
  api = as(t.app, a.token);
});
after(() => t.close());

async function create(body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/inventory/products', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('products: stock fields', () => {
  test('every stock field round-trips; defaults; allowNegative follows tracking when not given', async () => {
    const p = await create({
      sku: 'ST-1',
      name: 'Stocked',
      unitPrice: 10,
      isTracked: true,
      costMethod: 'fifo',
      tracking: 'batch',
      reorderPoint: 5.5,
      reorderQuantity: 24,
      barcode: ' 6001234567890 ',
      baseUnit: 'kg',
      weight: 1.125,
      incomeAccountCode: '4000',
      costAccountCode: '5000',
      inventoryAccountCode: '1200',
    });
    assert.deepEqual(
      [
        p.costMethod,
        p.tracking,
        p.allowNegative,
        p.reorderPoint,
        p.reorderQuantity,
        p.barcode,
        p.baseUnit,
        p.weight,
        p.incomeAccountCode,
        p.costAccountCode,
        p.inventoryAccountCode,
        p.onHand,
      ],
      ['fifo', 'batch', false, 5.5, 24, '6001234567890', 'kg', 1.125, '4000', '5000', '1200', 0],
    );
    const plain = await create({ sku: 'ST-2', name: 'Plain', unitPrice: 10 });
    assert.deepEqual(
      [plain.costMethod, plain.tracking, plain.allowNegative, plain.baseUnit, plain.barcode],
      ['average', 'none', true, 'each', null],
    );
    const serial = await create({
      sku: 'ST-3',
      name: 'Serial',
      unitPrice: 10,
      tracking: 'serial',
      allowNegative: true,
    });
    assert.equal(serial.allowNegative, true, 'given: kept');
    // PATCH to batch without allowNegative: batch stock may not go negative.
    const patched = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${plain.id}`,
      payload: { tracking: 'batch', reorderPoint: null, weight: null },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().tracking, patched.json().allowNegative], ['batch', false]);
  });

  test('400 naming the field: bad enums, too many decimals, zero reorderQuantity, blank codes', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ costMethod: 'lifo' }, 'costMethod'],
      [{ tracking: 'lot' }, 'tracking'],
      [{ reorderPoint: 1.00001 }, 'reorderPoint'],
      [{ reorderQuantity: 0 }, 'reorderQuantity'],
      [{ weight: 0.0000001 }, 'weight'],
      [{ baseUnit: '  ' }, 'baseUnit'],
      [{ costAccountCode: ' ' }, 'costAccountCode'],
      [{ unknownField: 1 }, 'unknownField'],
    ];
    for (const [extra, field] of cases) {
      const res = await api({
        method: 'POST',
        url: '/api/inventory/products',
        payload: { sku: `BAD-${field}`, name: 'Bad', unitPrice: 1, ...extra },
      });
      assertProblem(res, 400, field);
    }
  });

  test('onHand sums every company and location; changing costMethod or tracking then is 409 PRODUCT_HAS_STOCK', async () => {
    const p = await create({ sku: 'OH-1', name: 'On hand', unitPrice: 10, isTracked: true });
    // A second company of the tenant (Business allows 3).
    const c2 = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Second (Pty) Ltd' },
    });
    assert.equal(c2.statusCode, 201, c2.body);
    // 7.5 in company 1 (MAIN) + 2.25 in company 2 (MAIN) → onHand 9.75.
    await stockIn(t, a.tenantId, a.companyId, p.id, 7.5);
    await stockIn(t, a.tenantId, c2.json().id, p.id, 2.25);
    const got = await api({ method: 'GET', url: `/api/inventory/products/${p.id}` });
    assert.equal(got.json().onHand, 9.75);
    const listed = (await api({ method: 'GET', url: '/api/inventory/products?q=OH-1' })).json();
    assert.equal(listed.items[0].onHand, 9.75);

    for (const [field, value] of [
      ['costMethod', 'fifo'],
      ['tracking', 'serial'],
    ] as const) {
      const res = await api({
        method: 'PATCH',
        url: `/api/inventory/products/${p.id}`,
        payload: { [field]: value },
      });
      const body = assertProblem(res, 409);
      assert.deepEqual([body.code, body.field], ['PRODUCT_HAS_STOCK', field]);
    }
    // The same values again are no change; other fields still change.
    const same = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${p.id}`,
      payload: { costMethod: 'average', tracking: 'none', reorderPoint: 10 },
    });
    assert.equal(same.statusCode, 200, same.body);
  });

  test('list filters: barcode exactly; belowReorder keeps onHand at or below the reorder point', async () => {
    const b = await register(t.app, { plan: 'business' });
    const bApi = as(t.app, b.token);
    const make = async (body: Record<string, unknown>) => {
      const res = await bApi({ method: 'POST', url: '/api/inventory/products', payload: body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    // LOW: 3 on hand, point 5 → below. EQ: 5 on hand, point 5 → at it, kept. HIGH: 8, point 5 → out.
    // NONE: no reorder point → out. ZERO: nothing on hand, point 0 → at it, kept.
    const low = await make({ sku: 'LOW', name: 'Low', unitPrice: 1, reorderPoint: 5, barcode: 'B-LOW' });
    const eq = await make({ sku: 'EQ', name: 'Equal', unitPrice: 1, reorderPoint: 5 });
    const high = await make({ sku: 'HIGH', name: 'High', unitPrice: 1, reorderPoint: 5 });
    const none = await make({ sku: 'NONE', name: 'None', unitPrice: 1 });
    const zero = await make({ sku: 'ZERO', name: 'Zero', unitPrice: 1, reorderPoint: 0 });
    await stockIn(t, b.tenantId, b.companyId, low.id, 3);
    await stockIn(t, b.tenantId, b.companyId, eq.id, 5);
    await stockIn(t, b.tenantId, b.companyId, high.id, 8);
    await stockIn(t, b.tenantId, b.companyId, none.id, 1);
    const below = (await bApi({ method: 'GET', url: '/api/inventory/products?belowReorder=true' })).json();
    assert.deepEqual(
      below.items.map((i: { sku: string }) => i.sku),
      ['EQ', 'LOW', 'ZERO'],
    );
    assert.equal(below.total, 3);
    const byBarcode = (await bApi({ method: 'GET', url: '/api/inventory/products?barcode=B-LOW' })).json();
    assert.deepEqual(
      byBarcode.items.map((i: { id: string }) => i.id),
      [low.id],
    );
    assert.equal(
      (await bApi({ method: 'GET', url: '/api/inventory/products?barcode=B-LO' })).json().total,
      0,
    );
    void zero;
  });

  test('a SKU is unique across products AND variants, in any case', async () => {
    const p = await create({ sku: 'SHIRT', name: 'Shirt', unitPrice: 100 });
    const v = await api({
      method: 'POST',
      url: `/api/inventory/products/${p.id}/variants`,
      payload: { sku: 'SHIRT-L', name: 'Large', attributes: { size: 'L' } },
    });
    assert.equal(v.statusCode, 201, v.body);
    // A product taking a variant's SKU, on create and on change.
    const clash = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'shirt-l', name: 'Clash', unitPrice: 1 },
    });
    assert.deepEqual([assertProblem(clash, 409).code, clash.json().field], ['SKU_TAKEN', 'sku']);
    const other = await create({ sku: 'OTHER', name: 'Other', unitPrice: 1 });
    const patch = await api({
      method: 'PATCH',
      url: `/api/inventory/products/${other.id}`,
      payload: { sku: 'Shirt-L' },
    });
    assert.equal(assertProblem(patch, 409).code, 'SKU_TAKEN');
    // A variant taking a product's SKU, or another variant's.
    for (const sku of ['other', 'SHIRT-L']) {
      const res = await api({
        method: 'POST',
        url: `/api/inventory/products/${p.id}/variants`,
        payload: { sku, name: 'Clash' },
      });
      assert.equal(assertProblem(res, 409).code, 'SKU_TAKEN', sku);
    }
    // Deleting the variant frees its SKU.
    const del = await api({
      method: 'DELETE',
      url: `/api/inventory/products/${p.id}/variants/${v.json().id}`,
    });
    assert.equal(del.statusCode, 204);
    await create({ sku: 'SHIRT-L', name: 'Now free', unitPrice: 1 });
  });
});
