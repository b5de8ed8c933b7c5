// Reversing a goods receipt: the goods go out at the value they came in with (FIFO: from the
// receipt's own layer), Dr GRNI / Cr inventory dated the reversal, the order's received
// quantities and status fall back; refused (409, nothing written) when reversed already, billed,
// the goods are gone or the date is locked; another tenant's ids are 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  type Books,
  books,
  booksSetup,
  movementCount,
  product,
  stock,
} from '../inventory/flows.factories.ts';
import { createDoc, release } from '../invoices/invoices.factories.ts';
import { billOrder, fieldOf, received, sentOrder } from './purchase-orders.factories.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

const reverse = (orderId: string, receiptId: string, payload: object = { date: '2026-03-20' }) =>
  k.p.api({ method: 'POST', url: `/api/purchase-orders/${orderId}/receipts/${receiptId}/reverse`, payload });

const getOrder = async (id: string) => {
  const res = await k.p.api({ method: 'GET', url: `/api/purchase-orders/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

/** A sent order of `quantity` of `productId` at `unitPrice`, received in full on `date`: [order, receipt id]. */
async function receivedOrder(
  productId: string,
  quantity: number,
  unitPrice: number,
  extra: object = {},
  date?: string,
) {
  const po = await sentOrder(k.p, { lines: [{ description: 'Stock', quantity, unitPrice, productId }] });
  const res = await k.p.api({
    method: 'POST',
    url: `/api/purchase-orders/${po.id}/receipts`,
    payload: { date: date ?? '2026-03-05', lines: [{ lineId: po.lines[0].id, quantity, ...extra }] },
  });
  assert.equal(res.statusCode, 201, res.body);
  const after = res.json();
  return { order: after, receiptId: after.receipts.at(-1).id as string };
}

/** Whether the thing was refused with `code` and left the books and stock as they were. */
async function refusedUnchanged(
  call: () => Promise<{ statusCode: number; body: string; json(): unknown }>,
  code: string,
) {
  const was = { books: await books(k), moves: await movementCount(k) };
  const res = await call();
  const body = assertProblem(res as never, 409) as { code: string };
  assert.equal(body.code, code, res.body);
  assert.deepEqual({ books: await books(k), moves: await movementCount(k) }, was);
}

describe('a receipt of 10 @ R100 reversed', () => {
  let bolt: string;
  let orderId: string;
  let receiptId: string;
  test('received: stock 10 worth R1,000, Dr inventory R1,000 / Cr GRNI R1,000, order received', async () => {
    bolt = await product(k, 'R-BOLT');
    const start = await books(k);
    const r = await receivedOrder(bolt, 10, 100);
    orderId = r.order.id;
    receiptId = r.receiptId;
    assert.equal(r.order.status, 'received');
    assert.deepEqual(await stock(k, bolt), { quantity: 10, value: 1000 });
    assert.deepEqual(await books(k), {
      ...start,
      inventory: start.inventory + 1000,
      grni: start.grni - 1000,
    });
  });

  test('reversed on 20 March: stock 0 (R0), inventory and GRNI back by R1,000 each (nil), order sent', async () => {
    const before = await books(k);
    const res = await reverse(orderId, receiptId, {
      date: '2026-03-20',
      reason: 'Entered against the wrong order',
    });
    assert.equal(res.statusCode, 200, res.body);
    const o = res.json();
    // The receipt stays, marked; the line counts nothing received; nothing received → sent.
    assert.equal(o.status, 'sent');
    assert.equal(o.lines[0].quantityReceived, 0);
    assert.equal(o.receipts.length, 1);
    assert.equal(o.receipts[0].reversalDate, '2026-03-20');
    assert.equal(o.receipts[0].reason, 'Entered against the wrong order');
    assert.ok(o.receipts[0].reversedAt);
    assert.deepEqual(await stock(k, bolt), { quantity: 0, value: 0 });
    // Dr GRNI R1,000 / Cr inventory R1,000: the R1,000 the receipt put on each comes off again.
    assert.deepEqual(await books(k), {
      inventory: before.inventory - 1000,
      costOfSales: before.costOfSales,
      grni: before.grni + 1000,
    });
    assert.deepEqual((await getOrder(orderId)).receipts[0].reversedAt, o.receipts[0].reversedAt);
  });

  test('the movements list shows the receipt and its return_out naming it, -10 at -R1,000, in one entry', async () => {
    const res = await k.p.api({ method: 'GET', url: `/api/inventory/movements?productId=${bolt}` });
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json().items as Array<Record<string, unknown>>;
    const inn = items.find((m) => m.type === 'receipt')!;
    const out = items.find((m) => m.type === 'return_out')!;
    assert.equal(out.reversesMovementId, inn.id);
    assert.equal(out.quantity, -10);
    assert.equal(out.value, -1000);
    assert.equal(out.date, '2026-03-20');
    assert.equal(out.sourceId, receiptId);
    const entry = await k.p.api({ method: 'GET', url: `/api/ledger/journals/${out.entryId}` });
    assert.equal(entry.statusCode, 200, entry.body);
    assert.equal(entry.json().reversesEntryId, inn.entryId);
  });

  test('a second reverse: 409 ALREADY_REVERSED, nothing written', async () => {
    await refusedUnchanged(() => reverse(orderId, receiptId), 'ALREADY_REVERSED');
  });

  test('the order takes a new receipt of all 10 again (the reversed one no longer counts)', async () => {
    const o = await getOrder(orderId);
    const again = await received(k.p, orderId, [{ lineId: o.lines[0].id, quantity: 10 }], '2026-03-21');
    assert.equal(again.status, 'received');
    assert.deepEqual(await stock(k, bolt), { quantity: 10, value: 1000 });
  });
});

describe('one receipt of two reversed', () => {
  test('6 then 4 of 10 received; the 4 reversed: partially_received, 6 in stock', async () => {
    const nut = await product(k, 'R-NUT');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Nuts', quantity: 10, unitPrice: 20, productId: nut }],
    });
    await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 6 }]);
    const o = await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 4 }], '2026-03-06');
    assert.equal(o.status, 'received');
    const res = await reverse(po.id, o.receipts[1].id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'partially_received');
    assert.equal(res.json().lines[0].quantityReceived, 6);
    // 6 @ R20 = R120 left.
    assert.deepEqual(await stock(k, nut), { quantity: 6, value: 120 });
  });
});

describe('FIFO: the receipt leaves from its own layer', () => {
  let gear: string;
  let first: { order: { id: string }; receiptId: string };
  test('10 @ R100 then 10 @ R130 received; 5 sold take R500 (oldest layer); the second receipt reversed', async () => {
    gear = await product(k, 'R-GEAR', { cost_method: 'fifo', allow_negative: false });
    first = await receivedOrder(gear, 10, 100);
    const second = await receivedOrder(gear, 10, 130);
    // 20 worth R1,000 + R1,300 = R2,300.
    assert.deepEqual(await stock(k, gear), { quantity: 20, value: 2300 });
    await release(
      k.s,
      (
        await createDoc(k.s, {
          // Sold after the receipts of 5 March (stock is checked at the sale's date).
          issueDate: '2026-03-10',
          lines: [{ description: 'Gear', quantity: 5, unitPrice: 200, productId: gear }],
        })
      ).id,
    );
    // FIFO: 5 of the R100 layer → R500 cost of sales; left 5 @ R100 + 10 @ R130 = R1,800.
    assert.deepEqual(await stock(k, gear), { quantity: 15, value: 1800 });
    const before = await books(k);
    const res = await reverse(second.order.id, second.receiptId);
    assert.equal(res.statusCode, 200, res.body);
    // Out at R1,300 (its own layer), not R500 + R650 = R1,150 (the oldest): 5 @ R100 = R500 left.
    assert.deepEqual(await stock(k, gear), { quantity: 5, value: 500 });
    assert.deepEqual(await books(k), {
      inventory: before.inventory - 1300,
      costOfSales: before.costOfSales,
      grni: before.grni + 1300,
    });
  });

  test('the first receipt, 5 of its 10 sold: 409 INSUFFICIENT_STOCK, nothing written', async () => {
    await refusedUnchanged(() => reverse(first.order.id, first.receiptId), 'INSUFFICIENT_STOCK');
    assert.equal((await getOrder(first.order.id)).status, 'received');
  });
});

describe('a batch product', () => {
  test('batch L-1 and L-2 hold 4 each; the receipt of L-2 reversed: L-2 back to 0, L-1 untouched', async () => {
    const milk = await product(k, 'R-MILK', { tracking: 'batch', allow_negative: false });
    await receivedOrder(milk, 4, 10, { batchCode: 'L-1', batchExpiry: '2027-01-31' });
    const r = await receivedOrder(milk, 4, 12, { batchCode: 'L-2', batchExpiry: '2027-02-28' });
    // 4 @ R10 + 4 @ R12 = R88.
    assert.deepEqual(await stock(k, milk), { quantity: 8, value: 88 });
    const res = await reverse(r.order.id, r.receiptId);
    assert.equal(res.statusCode, 200, res.body);
    const list = await k.p.api({ method: 'GET', url: `/api/inventory/batches?productId=${milk}` });
    assert.equal(list.statusCode, 200, list.body);
    const onHand = Object.fromEntries(
      list.json().map((b: { code: string; onHand: number }) => [b.code, b.onHand]),
    );
    assert.deepEqual(onHand, { 'L-1': 4, 'L-2': 0 });
    // Average R11 a unit, but the receipt's 4 leave at the R48 they came in with: R40 left.
    assert.deepEqual(await stock(k, milk), { quantity: 4, value: 40 });
  });
});

describe('a serial product', () => {
  test('SN-A and SN-B received at R500 each, reversed: both out of stock, stock and value 0', async () => {
    const phone = await product(k, 'R-PHONE', { tracking: 'serial', allow_negative: false });
    const r = await receivedOrder(phone, 2, 500, { serials: ['SN-A', 'SN-B'] });
    assert.deepEqual(await stock(k, phone), { quantity: 2, value: 1000 });
    const before = await books(k);
    const res = await reverse(r.order.id, r.receiptId);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await stock(k, phone), { quantity: 0, value: 0 });
    // R1,000 off inventory and back on GRNI's debit side.
    assert.deepEqual(await books(k), {
      ...before,
      inventory: before.inventory - 1000,
      grni: before.grni + 1000,
    });
    const serials = await k.p.api({
      method: 'GET',
      url: `/api/inventory/serials?productId=${phone}&status=in_stock`,
    });
    assert.equal(serials.statusCode, 200, serials.body);
    assert.equal(serials.json().items.length, 0);
  });

  test('SN-C and SN-D received, SN-C sold: 409 INSUFFICIENT_STOCK, nothing written', async () => {
    const tab = await product(k, 'R-TAB', { tracking: 'serial', allow_negative: false });
    const r = await receivedOrder(tab, 2, 400, { serials: ['SN-C', 'SN-D'] });
    const sale = await createDoc(k.s, {
      // Sold after the receipt of 5 March (stock is checked at the sale's date).
      issueDate: '2026-03-10',
      lines: [{ description: 'Tablet', quantity: 1, unitPrice: 600, productId: tab, serials: ['SN-C'] }],
    });
    await release(k.s, sale.id);
    await refusedUnchanged(() => reverse(r.order.id, r.receiptId), 'INSUFFICIENT_STOCK');
  });
});

describe('refusals', () => {
  test('an order line billed (a draft bill counts): 409 RECEIPT_BILLED, nothing written', async () => {
    const pin = await product(k, 'R-PIN');
    const r = await receivedOrder(pin, 5, 10);
    const bill = await billOrder(k.p, r.order.id, 'KOS-REV-1');
    assert.equal(bill.statusCode, 201, bill.body);
    await refusedUnchanged(() => reverse(r.order.id, r.receiptId), 'RECEIPT_BILLED');
  });

  test("a date before the receipt's: 400 naming date", async () => {
    const cap = await product(k, 'R-CAP');
    const r = await receivedOrder(cap, 1, 10);
    const res = await reverse(r.order.id, r.receiptId, { date: '2026-03-04' });
    assertProblem(res, 400);
    assert.equal(fieldOf(res), 'date');
  });

  test('an unknown property: 400; an unknown receipt or one of another order: 404', async () => {
    const lid = await product(k, 'R-LID');
    const a = await receivedOrder(lid, 1, 10);
    const b = await receivedOrder(lid, 1, 10);
    assertProblem(await reverse(a.order.id, a.receiptId, { when: '2026-03-20' }), 400);
    assertProblem(await reverse(a.order.id, crypto.randomUUID()), 404);
    assertProblem(await reverse(a.order.id, b.receiptId), 404);
  });

  test("another tenant's order and receipt: 404, and tenant A's receipt stands", async () => {
    const jar = await product(k, 'R-JAR');
    const r = await receivedOrder(jar, 1, 10);
    const other = await register(t.app, { plan: 'business' });
    const res = await as(
      t.app,
      other.token,
      other.companyId,
    )({
      method: 'POST',
      url: `/api/purchase-orders/${r.order.id}/receipts/${r.receiptId}/reverse`,
      payload: {},
    });
    assertProblem(res, 404);
    assert.equal((await getOrder(r.order.id)).receipts[0].reversedAt, null);
  });

  test('two reversals at once: one wins, the other is 409 ALREADY_REVERSED', async () => {
    const cup = await product(k, 'R-CUP');
    const r = await receivedOrder(cup, 3, 10);
    const both = await Promise.all([reverse(r.order.id, r.receiptId), reverse(r.order.id, r.receiptId)]);
    assert.deepEqual(both.map((x) => x.statusCode).sort(), [200, 409]);
    assert.equal(both.find((x) => x.statusCode === 409)!.json().code, 'ALREADY_REVERSED');
    // 3 @ R10 in, 3 out once: nothing left.
    assert.deepEqual(await stock(k, cup), { quantity: 0, value: 0 });
  });

  // Last: the lock date stays on the company.
  test('a date on or before the lock date: 409 PERIOD_LOCKED, nothing written; after it, reversed', async () => {
    const mug = await product(k, 'R-MUG');
    const r = await receivedOrder(mug, 2, 10);
    const lock = await k.p.api({
      method: 'PATCH',
      url: '/api/ledger/settings',
      payload: { lockDate: '2026-03-31' },
    });
    assert.equal(lock.statusCode, 200, lock.body);
    await refusedUnchanged(() => reverse(r.order.id, r.receiptId, { date: '2026-03-31' }), 'PERIOD_LOCKED');
    const ok = await reverse(r.order.id, r.receiptId, { date: '2026-04-01' });
    assert.equal(ok.statusCode, 200, ok.body);
  });
});
