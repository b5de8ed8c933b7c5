// Reading stock: adjustments (one entry each; opening against 3400), the movements list and its
// filters, on hand per product and location, bad input and tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { adjust, adjustRaw, stockProduct } from './stock.factories.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

async function get(url: string) {
  const res = await api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** The entry's lines as [account code, debit, credit]. */
async function entryLines(entryId: string) {
  const rows = await withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .selectFrom('journal_lines as l')
      .innerJoin('accounts as c', (j) =>
        j.onRef('c.tenant_id', '=', 'l.tenant_id').onRef('c.id', '=', 'l.account_id'),
      )
      .select(['c.code', 'l.debit', 'l.credit'])
      .where('l.tenant_id', '=', a.tenantId)
      .where('l.entry_id', '=', entryId)
      .orderBy('l.line_no')
      .execute(),
  );
  return rows.map((r) => [r.code, Number(r.debit), Number(r.credit)]);
}

describe('stock adjustments', () => {
  test('opening stock posts one entry: Dr 1200 Inventory, Cr 3400 Opening balances; GET answers it again', async () => {
    const p1 = await stockProduct(t, api, a.tenantId);
    const p2 = await stockProduct(t, api, a.tenantId);
    // 10 @ 12.50 = 125.00; 4 @ 2.3333 = 9.3332 → 9.33
    const adj = await adjust(
      api,
      '2026-01-31',
      [
        { productId: p1, quantity: 10, unitCost: 12.5 },
        { productId: p2, quantity: 4, unitCost: 2.3333 },
      ],
      { type: 'opening' },
    );
    assert.equal(adj.value, 134.33);
    assert.deepEqual(await entryLines(adj.id), [
      ['1200', 125, 0],
      ['3400', 0, 125],
      ['1200', 9.33, 0],
      ['3400', 0, 9.33],
    ]);
    const again = await get(`/api/inventory/adjustments/${adj.id}`);
    assert.equal(again.type, 'opening');
    assert.equal(again.reason, 'Test');
    assert.deepEqual(again, adj);
    // a loss against 5200: 3 out of p1 at its average 12.50 = 37.50
    const loss = await adjust(api, '2026-02-01', [{ productId: p1, quantity: -3 }]);
    assert.deepEqual(await entryLines(loss.id), [
      ['1200', 0, 37.5],
      ['5200', 37.5, 0],
    ]);
  });

  test('bad input names the field; another tenant’s adjustment is 404', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    const cases: Array<[unknown[], string]> = [
      [[{ productId: p, quantity: 0, unitCost: 1 }], 'lines[0].quantity'],
      [[{ productId: p, quantity: 1.00001, unitCost: 1 }], 'lines[0].quantity'],
      [[{ productId: p, quantity: -1, unitCost: 1 }], 'lines[0].unitCost'],
      [[{ productId: crypto.randomUUID(), quantity: 1, unitCost: 1 }], 'lines[0].productId'],
      [[{ productId: p, quantity: 1, unitCost: 1, serials: ['X'] }], 'lines[0].serials'],
      [[{ productId: p, quantity: 1, unitCost: 1, batchCode: 'B1' }], 'lines[0].batchCode'],
    ];
    for (const [lines, field] of cases) {
      const res = await api({
        method: 'POST',
        url: '/api/inventory/adjustments',
        payload: { date: '2026-02-01', reason: 'x', lines },
      });
      const body = assertProblem(res, 400, field);
      assert.match(JSON.stringify(body), new RegExp(field.replace(/[[\].]/g, '\\$&')), res.body);
    }
    const service = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: `SVC-${Date.now()}`, name: 'Service', unitPrice: 1 },
    });
    const notTracked = await adjustRaw(api, '2026-02-01', [
      { productId: service.json().id, quantity: 1, unitCost: 1 },
    ]);
    assertProblem(notTracked, 400);
    const adj = await adjust(api, '2026-02-01', [{ productId: p, quantity: 1, unitCost: 1 }]);
    const b = await register(t.app, { plan: 'business' });
    const other = await as(
      t.app,
      b.token,
      b.companyId,
    )({ method: 'GET', url: `/api/inventory/adjustments/${adj.id}` });
    assertProblem(other, 404);
    const otherMove = await as(
      t.app,
      b.token,
      b.companyId,
    )({ method: 'GET', url: `/api/inventory/movements/${adj.movements[0]!.id}` });
    assertProblem(otherMove, 404);
  });

  test('batches: a batch product needs a code; the code makes the batch with its expiry', async () => {
    const p = await stockProduct(t, api, a.tenantId, { tracking: 'batch', allowNegative: false });
    assertProblem(await adjustRaw(api, '2026-02-01', [{ productId: p, quantity: 5, unitCost: 3 }]), 400);
    const adj = await adjust(api, '2026-02-01', [
      { productId: p, quantity: 5, unitCost: 3, batchCode: 'LOT-7' },
    ]);
    const m = await get(`/api/inventory/movements/${adj.movements[0]!.id}`);
    assert.ok(m.batchId);
    // out of another batch than the one in stock: refused (nothing of LOT-8 on hand)
    const wrong = await adjustRaw(api, '2026-02-02', [{ productId: p, quantity: -1, batchCode: 'LOT-8' }]);
    assertProblem(wrong, 409);
    await adjust(api, '2026-02-02', [{ productId: p, quantity: -2, batchCode: 'lot-7' }]);
  });
});

describe('movements and on hand', () => {
  test('the list: newest first, filters by product, type, location and dates; paged', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    await adjust(api, '2026-05-01', [{ productId: p, quantity: 10, unitCost: 10 }], { type: 'opening' });
    await adjust(api, '2026-05-10', [{ productId: p, quantity: -4 }]);
    await adjust(api, '2026-05-20', [{ productId: p, quantity: 2, unitCost: 11 }]);
    const all = await get(`/api/inventory/movements?productId=${p}`);
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.items.map((m: { date: string; type: string; quantity: number; value: number }) => [
        m.date,
        m.type,
        m.quantity,
        m.value,
      ]),
      [
        ['2026-05-20', 'adjustment', 2, 22],
        ['2026-05-10', 'adjustment', -4, -40],
        ['2026-05-01', 'opening', 10, 100],
      ],
    );
    const first = all.items[2];
    assert.equal(first.unitCost, 10);
    assert.equal(first.sourceType, 'stock_adjustment');
    assert.equal(first.entryId, first.sourceId);
    assert.equal((await get(`/api/inventory/movements?productId=${p}&type=opening`)).total, 1);
    assert.equal(
      (await get(`/api/inventory/movements?productId=${p}&from=2026-05-10&to=2026-05-20`)).total,
      2,
    );
    assert.equal(
      (await get(`/api/inventory/movements?productId=${p}&locationId=${first.locationId}`)).total,
      3,
    );
    assert.equal(
      (await get(`/api/inventory/movements?productId=${p}&locationId=${crypto.randomUUID()}`)).total,
      0,
    );
    const page2 = await get(`/api/inventory/movements?productId=${p}&limit=2&page=2`);
    assert.deepEqual([page2.total, page2.totalPages, page2.items.length], [3, 2, 1]);
    assertProblem(await api({ method: 'GET', url: '/api/inventory/movements?type=stolen' }), 400);
    assertProblem(
      await api({ method: 'GET', url: '/api/inventory/movements?from=2026-05-20&to=2026-05-01' }),
      400,
    );
    assertProblem(await api({ method: 'GET', url: `/api/inventory/movements/${crypto.randomUUID()}` }), 404);
  });

  test('on hand per product: total, per location, value; belowReorder', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    const q = await stockProduct(t, api, a.tenantId);
    await adjust(api, '2026-06-01', [
      { productId: p, quantity: 7, unitCost: 3 },
      { productId: q, quantity: 50, unitCost: 1 },
    ]);
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .updateTable('products')
        .set({ reorder_point: '10' })
        .where('tenant_id', '=', a.tenantId)
        .where('id', 'in', [p, q])
        .execute(),
    );
    const one = await get(`/api/inventory/stock?productId=${p}`);
    assert.equal(one.total, 1);
    const row = one.items[0];
    assert.deepEqual([row.quantity, row.value, row.reorderPoint, row.belowReorder], [7, 21, 10, true]);
    assert.equal(row.lines.length, 1);
    assert.deepEqual([row.lines[0].quantity, row.lines[0].value, row.lines[0].variantId], [7, 21, null]);
    const below = await get('/api/inventory/stock?belowReorder=true&limit=200');
    const ids = below.items.map((i: { productId: string }) => i.productId);
    assert.ok(ids.includes(p));
    assert.ok(!ids.includes(q));
    const there = await get(`/api/inventory/stock?locationId=${row.lines[0].locationId}&limit=200`);
    assert.ok(there.items.some((i: { productId: string }) => i.productId === q));
    assertProblem(
      await api({ method: 'GET', url: `/api/inventory/stock?locationId=${crypto.randomUUID()}` }),
      400,
    );
  });

  test('a plan below Business: MODULE_NOT_LICENSED', async () => {
    const s = await register(t.app, { plan: 'starter' });
    const res = await as(t.app, s.token, s.companyId)({ method: 'GET', url: '/api/inventory/movements' });
    const body = assertProblem(res, 403);
    assert.equal(body.code, 'MODULE_NOT_LICENSED');
  });
});
