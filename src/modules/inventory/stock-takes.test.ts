// Stock takes: the sheet's expected quantities, counts, the approval's variances in one entry
// (worked figures), movements during counting, cancel, closed sheets, and who may approve.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  balanceForTest,
  entryCountForTest,
  locationForTest,
  mainForTest,
  poolForTest,
  productForTest,
  receiveForTest,
  secondCompanyForTest,
} from './ops.test-support.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

type Line = { id: string; productId: string; expected: number; counted: number | null };

async function start(body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/inventory/stock-takes', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; status: string; lines: Line[]; entryId: string | null };
}

describe('stock takes', () => {
  test('expected 10, counted 8 at average R11.50 → Dr stock adjustments R23.00, Cr inventory R23.00', async () => {
    const p = await productForTest(t, a);
    // 5 @ R10 + 5 @ R13 → 10 units worth R115, average R11.50.
    await receiveForTest(t, a, { productId: p, quantity: 5, unitCost: 10 });
    await receiveForTest(t, a, { productId: p, quantity: 5, unitCost: 13 });
    const inventoryBefore = await balanceForTest(t, a, 'inventory');
    const adjustmentsBefore = await balanceForTest(t, a, 'stock_adjustments');

    const take = await start({ date: '2026-03-31', productIds: [p] });
    assert.equal(take.status, 'counting');
    assert.equal(take.lines.length, 1);
    assert.equal(take.lines[0]!.expected, 10);
    assert.equal(take.lines[0]!.counted, null);

    const counted = await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: take.lines[0]!.id, counted: 8 }] },
    });
    assert.equal(counted.statusCode, 200, counted.body);
    assert.equal(counted.json().lines[0].counted, 8);

    const approved = await api({ method: 'POST', url: `/api/inventory/stock-takes/${take.id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal(approved.json().status, 'approved');
    assert.ok(approved.json().entryId);
    // 2 missing × R11.50 = R23.00.
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore - 23);
    assert.equal(await balanceForTest(t, a, 'stock_adjustments'), adjustmentsBefore + 23);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 8, value: 92 });

    const closed = await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: take.lines[0]!.id, counted: 9 }] },
    });
    assert.equal(assertProblem(closed, 409).code, 'STOCK_TAKE_CLOSED');
    const twice = await api({ method: 'POST', url: `/api/inventory/stock-takes/${take.id}/approve` });
    assert.equal(assertProblem(twice, 409).code, 'STOCK_TAKE_CLOSED');
  });

  test('a sale while counting: the variance is against on hand at approval; found stock at the average', async () => {
    const p = await productForTest(t, a);
    // 10 @ R20 → average R20.
    await receiveForTest(t, a, { productId: p, quantity: 10, unitCost: 20 });
    const take = await start({ date: '2026-03-31', productIds: [p] });
    assert.equal(take.lines[0]!.expected, 10);
    // 3 sold while the count runs: 7 on hand; the shelf shows 8 → 1 found (not 2 missing).
    await receiveForTest(t, a, { productId: p, quantity: -3, unitCost: 0, type: 'sale' });
    await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: take.lines[0]!.id, counted: 8 }] },
    });
    const adjustmentsBefore = await balanceForTest(t, a, 'stock_adjustments');
    const approved = await api({ method: 'POST', url: `/api/inventory/stock-takes/${take.id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    // 1 found × R20 = R20: Dr inventory, Cr stock adjustments.
    assert.equal(await balanceForTest(t, a, 'stock_adjustments'), adjustmentsBefore - 20);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 8, value: 160 });
  });

  test('the default sheet lists items with stock at the location; cancel moves nothing; list and 404', async () => {
    const shop = await locationForTest(t, a, 'SHOP');
    const p = await productForTest(t, a);
    await receiveForTest(t, a, { productId: p, quantity: 4, unitCost: 5, locationId: shop });
    const take = await start({ date: '2026-03-31', locationId: shop });
    assert.deepEqual(
      take.lines.map((l) => [l.productId, l.expected]),
      [[p, 4]],
    );
    await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: take.lines[0]!.id, counted: 1 }] },
    });
    const cancelled = await api({ method: 'POST', url: `/api/inventory/stock-takes/${take.id}/cancel` });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().status, 'cancelled');
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 4, value: 20 });

    const bad = await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: crypto.randomUUID(), counted: 1 }] },
    });
    assert.equal(assertProblem(bad, 409).code, 'STOCK_TAKE_CLOSED');

    const list = await api({ method: 'GET', url: '/api/inventory/stock-takes?status=cancelled' });
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().items.some((x: { id: string }) => x.id === take.id));
    const main = await mainForTest(t, a);
    assert.notEqual(main, shop);
    const b = await register(t.app, { plan: 'business' });
    const other = await as(
      t.app,
      b.token,
      b.companyId,
    )({ method: 'GET', url: `/api/inventory/stock-takes/${take.id}` });
    assertProblem(other, 404);
  });

  test('found stock of an item never costed carries no value: approved with no entry (entryId null)', async () => {
    const p = await productForTest(t, a);
    const take = await start({ date: '2026-03-31', productIds: [p] });
    // Never stocked: one line expecting 0.
    assert.deepEqual(
      take.lines.map((l) => [l.productId, l.expected]),
      [[p, 0]],
    );
    await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: take.lines[0]!.id, counted: 3 }] },
    });
    const approved = await api({ method: 'POST', url: `/api/inventory/stock-takes/${take.id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    // 3 found at the pool's cost, R0 (nothing ever came in): 3 on hand, worth R0, no entry.
    assert.equal(approved.json().entryId, null);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 3, value: 0 });
  });

  test('an unknown line is a 400 naming it; an unknown product a 400 naming productIds[0]', async () => {
    const take = await start({ date: '2026-03-31' });
    const bad = await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${take.id}/counts`,
      payload: { lines: [{ lineId: crypto.randomUUID(), counted: 1 }] },
    });
    assert.equal(assertProblem(bad, 400).field, 'lines[0].lineId');
    const res = await api({
      method: 'POST',
      url: '/api/inventory/stock-takes',
      payload: { date: '2026-03-31', productIds: [crypto.randomUUID()] },
    });
    assert.equal(assertProblem(res, 400).field, 'productIds[0]');
  });
});

describe('clientId on a stock take', () => {
  test('sent twice: 201 then 200 with the same sheet; approved twice at once: one entry, 2 lost once', async () => {
    const p = await productForTest(t, a);
    // 10 @ R6 → R60, average R6.
    await receiveForTest(t, a, { productId: p, quantity: 10, unitCost: 6 });
    const clientId = crypto.randomUUID();
    const payload = { clientId, date: '2026-03-31', productIds: [p] };
    const first = await api({ method: 'POST', url: '/api/inventory/stock-takes', payload });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    const again = await api({ method: 'POST', url: '/api/inventory/stock-takes', payload });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    const list = await api({ method: 'GET', url: '/api/inventory/stock-takes?status=counting&limit=100' });
    assert.equal(list.json().items.filter((x: { id: string }) => x.id === clientId).length, 1);

    await api({
      method: 'PUT',
      url: `/api/inventory/stock-takes/${clientId}/counts`,
      payload: { lines: [{ lineId: first.json().lines[0].id, counted: 8 }] },
    });
    const entries = await entryCountForTest(t, a);
    const [x, y] = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', url: `/api/inventory/stock-takes/${clientId}/approve` })),
    );
    // The row lock: the second sees the sheet approved, 409 STOCK_TAKE_CLOSED.
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 409]);
    // 2 missing × R6 = R12 once: 8 units worth R48, one entry more.
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 8, value: 48 });
    assert.equal(await entryCountForTest(t, a), entries + 1);
    const later = await api({ method: 'POST', url: '/api/inventory/stock-takes', payload });
    assert.equal(later.statusCode, 200, later.body);
    assert.equal(later.json().status, 'approved');
  });

  test("two at once: one 201 and one 200, one sheet; another company's id is 409 clientId", async () => {
    const clientId = crypto.randomUUID();
    const payload = { clientId, date: '2026-03-31', notes: 'Twice at once' };
    const [x, y] = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', url: '/api/inventory/stock-takes', payload })),
    );
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 201], `${x!.body} ${y!.body}`);
    assert.deepEqual(x!.json(), y!.json());
    const other = await secondCompanyForTest(t, a);
    const clash = await other({ method: 'POST', url: '/api/inventory/stock-takes', payload });
    assert.equal(assertProblem(clash, 409).field, 'clientId');
    // Not there for the other company: its GET is a 404.
    assertProblem(await other({ method: 'GET', url: `/api/inventory/stock-takes/${clientId}` }), 404);
  });
});
