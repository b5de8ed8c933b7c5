// Issue 34's acceptance: a month with a purchase order billed at another price than ordered, a
// landed cost, a transfer between locations, a purchase without an order, sales, and a second
// landed cost after most of a receipt is sold. At month end the valuation equals the ledger's
// inventory, GRNI is nil, and cost of sales is the figure worked by hand below (the scenario of the
// outside audit, driven through the API). VAT is never part of cost: the company is VAT-registered
// and claims input tax (s16(3)); every line here is priced net.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createDoc, release } from '../invoices/invoices.factories.ts';
import { received, sentOrder } from '../purchase-orders/purchase-orders.factories.ts';
import { type Books, booksSetup } from './flows.factories.ts';
import { balanceForTest, locationForTest, mainForTest } from './ops.test-support.ts';
import { stockProduct } from './stock.factories.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

const api = () => k.p.api;

async function ok(
  method: 'POST' | 'GET',
  url: string,
  payload?: object,
  status = method === 'GET' ? 200 : 201,
) {
  const res = await api()({ method, url, ...(payload ? { payload } : {}) });
  assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
  return res.json();
}

let billNo = 0;
/** An approved bill of the supplier: `lines` priced net, exempt where they carry no taxCode of their own. */
async function approvedBill(issueDate: string, lines: object[], extra: object = {}) {
  const bill = await ok('POST', '/api/bills', {
    contactId: k.p.supplierId,
    billNumber: `M-${++billNo}`,
    issueDate,
    dueDate: '2026-04-30',
    lines,
    ...extra,
  });
  return ok('POST', `/api/bills/${bill.id}/approve`, undefined, 200);
}

/** A landed cost made and posted. */
async function landedCost(body: object) {
  const lc = await ok('POST', '/api/landed-costs', body);
  return ok('POST', `/api/landed-costs/${lc.id}/post`, undefined, 200);
}

async function receiptOf(productId: string): Promise<string> {
  const page = await ok('GET', `/api/inventory/movements?productId=${productId}&type=receipt&limit=100`);
  // Newest first: the order's receipt is the oldest.
  return page.items.at(-1).id;
}

test('a month: PO billed dearer, landed costs, a transfer, sales; valuation = ledger, GRNI nil, cost of sales by hand', async () => {
  const F = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'fifo', allowNegative: false });
  const A = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'average', allowNegative: false });
  const main = await mainForTest(t, k.b);
  const b = await locationForTest(t, k.b, 'B');

  // 1 Mar: order F 100 @ R10 and A 100 @ R20; 2 Mar: all received at the order's price.
  // Dr inventory 1,000 + 2,000 = R3,000 / Cr GRNI R3,000.
  const po = await sentOrder(k.p, {
    issueDate: '2026-03-01',
    lines: [
      { description: 'F', quantity: 100, unitPrice: 10, productId: F },
      { description: 'A', quantity: 100, unitPrice: 20, productId: A },
    ],
  });
  await received(
    k.p,
    po.id,
    po.lines.map((l: { id: string }) => ({ lineId: l.id, quantity: 100 })),
    '2026-03-02',
  );

  // 5 Mar: the supplier bills F @ R11 and A @ R21, each line naming its order line. GRNI is
  // cleared at the R3,000 received; the R100 + R100 difference goes onto the units, all still
  // held (IAS 2.10: cost of purchase is the price paid): F's layer 100 @ R11, A's average R21.
  await approvedBill(
    '2026-03-05',
    [
      { description: 'F', quantity: 100, unitPrice: 11, productId: F, purchaseOrderLineId: po.lines[0].id },
      { description: 'A', quantity: 100, unitPrice: 21, productId: A, purchaseOrderLineId: po.lines[1].id },
    ],
    { purchaseOrderId: po.id },
  );
  const receiptF = await receiptOf(F);
  const receiptA = await receiptOf(A);

  // 6 Mar: freight R200 spread by quantity over the two receipts (200 units): R1 a unit (IAS 2.11).
  // F: 100 @ R12; A: average R22. Inventory R3,000 + R200 + R200 = R3,400.
  const freight1 = await approvedBill('2026-03-06', [
    { description: 'Freight in', quantity: 1, unitPrice: 200, taxCode: 'exempt' },
  ]);
  await landedCost({
    date: '2026-03-06',
    method: 'quantity',
    charges: [{ billId: freight1.id, billLineId: freight1.lines[0].id, amount: 200 }],
    receipts: [receiptF, receiptA],
  });

  // 7 Mar: 30 F and 30 A moved MAIN → B: the company buys and sells nothing, cost unchanged.
  const sent = await ok('POST', '/api/inventory/transfers', {
    fromLocationId: main,
    toLocationId: b,
    date: '2026-03-07',
    lines: [
      { productId: F, quantity: 30 },
      { productId: A, quantity: 30 },
    ],
  });
  await ok('POST', `/api/inventory/transfers/${sent.id}/receive`, { date: '2026-03-07' }, 200);

  // 8 Mar: bought without an order: F 50 @ R14 (a new layer), A 50 @ R25. Inventory +R700 +R1,250.
  // A's weighted average (IAS 2.27, the company's): (100 × R22 + 50 × R25) / 150 = R3,450 / 150 = R23.00.
  await approvedBill('2026-03-08', [
    { description: 'F', quantity: 50, unitPrice: 14, productId: F, taxCode: 'exempt' },
    { description: 'A', quantity: 50, unitPrice: 25, productId: A, taxCode: 'exempt' },
  ]);

  // 15 Mar: sold from MAIN, F 70 and A 90. F (FIFO, IAS 2.27): the 70 come from the oldest layer,
  // 100 @ R12 → R840. A: 90 × R23 = R2,070.
  const sale = await createDoc(k.s, {
    issueDate: '2026-03-15',
    dueDate: '2026-04-30',
    lines: [
      { description: 'F', quantity: 70, unitPrice: 40, productId: F },
      { description: 'A', quantity: 90, unitPrice: 40, productId: A },
    ],
  });
  await release(k.s, sale.id);

  // 20 Mar: freight R150 on F's order receipt alone (100 units, R1.50 each). 70 of them are sold:
  // R105 to cost of sales; the 30 still held (moved to B, still that receipt's) take R45 (issue 34,
  // item 3; IAS 2.34: what is sold is expensed).
  const freight2 = await approvedBill('2026-03-20', [
    { description: 'Freight in 2', quantity: 1, unitPrice: 150, taxCode: 'exempt' },
  ]);
  await landedCost({
    date: '2026-03-20',
    method: 'quantity',
    charges: [{ billId: freight2.id, billLineId: freight2.lines[0].id, amount: 150 }],
    receipts: [receiptF],
  });

  // 31 Mar, by hand:
  //   F held: 30 @ R12 + R45 + 50 @ R14 = R360 + R45 + R700 = R1,105 (80 units).
  //   A held: 60 × R23 = R1,380 (30 at MAIN, 30 at B).
  //   Inventory R1,105 + R1,380 = R2,485 (= R3,400 + R700 + R1,250 − R840 − R2,070 + R45).
  //   Cost of sales: F R840 + R105, A R2,070 = R3,015. GRNI: R3,000 credited, R3,000 cleared = nil.
  const v = await ok('GET', '/api/inventory/valuation?asOf=2026-03-31');
  const held = (p: string) =>
    v.lines
      .filter((l: { productId: string }) => l.productId === p)
      .reduce(
        (s: [number, number], l: { quantity: number; value: number }) => [s[0] + l.quantity, s[1] + l.value],
        [0, 0],
      )
      .map((n: number) => Math.round(n * 100) / 100);
  assert.deepEqual(held(F), [80, 1105]);
  assert.deepEqual(held(A), [60, 1380]);
  assert.deepEqual([v.totals.value, v.ledgerBalance, v.difference], [2485, 2485, 0]);
  assert.equal(await balanceForTest(t, k.b, 'inventory'), 2485);
  assert.equal(await balanceForTest(t, k.b, 'cost_of_sales'), 3015);
  assert.equal(await balanceForTest(t, k.b, 'grni'), 0);
  // A location is worth its units at the company's cost: A's 30 at B are 30 × R23 = R690.
  const atB = v.lines.find(
    (l: { productId: string; locationId: string }) => l.productId === A && l.locationId === b,
  );
  assert.deepEqual([atB.quantity, atB.value], [30, 690]);
});
