// Bills against purchase orders (issue 34, item 1): a bill line bills its order line, moves no
// stock and clears goods received not invoiced (GRNI, 2160); a price other than the order's goes
// onto the receipt's units still on hand (IAS 2.10: the cost of purchase is the price paid) and
// to cost of sales for the units gone (IAS 2.34); billing before receipt, in parts and voiding
// all end with GRNI at what is received and not billed. Figures worked by hand in the comments.
// VAT is never part of the cost here: the company is VAT-registered (input tax claimed, s16(3)).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, fetched, release } from '../invoices/invoices.factories.ts';
import { billOrder, received, sentOrder } from '../purchase-orders/purchase-orders.factories.ts';
import { type Books, booksSetup, product, stock } from './flows.factories.ts';
import { balanceForTest } from './ops.test-support.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

/** Inventory, cost of sales and GRNI (debits less credits), from the ledger. */
async function ledger(b: Books) {
  return {
    inventory: await balanceForTest(t, b.b, 'inventory'),
    costOfSales: await balanceForTest(t, b.b, 'cost_of_sales'),
    grni: await balanceForTest(t, b.b, 'grni'),
  };
}

const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((key) => [key, Math.round((a[key]! - b[key]!) * 100) / 100]));

let billNo = 0;
/** A bill of the supplier against `orderId` (a draft), with `lines`. */
async function billAgainst(b: Books, orderId: string, lines: object[], issueDate = '2026-03-10') {
  const res = await b.p.api({
    method: 'POST',
    url: '/api/bills',
    payload: {
      contactId: b.p.supplierId,
      billNumber: `INV-${++billNo}`,
      issueDate,
      dueDate: '2026-04-30',
      purchaseOrderId: orderId,
      lines,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function approve(b: Books, id: string, acceptMismatch = false) {
  const res = await b.p.api({
    method: 'POST',
    url: `/api/bills/${id}/approve`,
    ...(acceptMismatch ? { payload: { acceptMismatch } } : {}),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function sell(b: Books, productId: string, quantity: number, issueDate: string) {
  const inv = await createDoc(b.s, {
    issueDate,
    dueDate: '2026-04-30',
    lines: [{ description: 'Widgets', quantity, unitPrice: 40, productId }],
  });
  await release(b.s, inv.id);
}

describe('a bill naming its purchase order', () => {
  test('the auditor’s case: 60 of 100 @ R22 received, billed as captured: 60 on hand, inventory R1,320, GRNI nil', async () => {
    const start = await ledger(k);
    const w = await product(k, 'W-AUDIT');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Widgets', quantity: 100, unitPrice: 22, productId: w }],
    });
    await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 60 }]);
    // The supplier's invoice for the 60, captured naming the order but not its line: the bill's
    // line of the order's product is linked to the order's one line of it.
    const bill = await billAgainst(k, po.id, [
      { description: 'Widgets', quantity: 60, unitPrice: 22, productId: w },
    ]);
    await approve(k, bill.id);
    // Receipt: Dr inventory 60 × R22 = R1,320, Cr GRNI R1,320. Bill: Dr GRNI R1,320 (Cr creditors
    // R1,518 with VAT R198). Nothing comes in twice: 60 on hand at R1,320, GRNI 0.
    assert.deepEqual(await stock(k, w), { quantity: 60, value: 1320 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 1320, costOfSales: 0, grni: 0 });
    assert.equal(bill.lines[0].purchaseOrderLineId, po.lines[0].id);
    assert.equal((await fetched(k.s, `/api/purchase-orders/${po.id}`)).lines[0].quantityBilled, 60);
  });

  test('billed before it came: GRNI a debit at the bill’s price; the receipt comes in at it and clears GRNI', async () => {
    const start = await ledger(k);
    const w = await product(k, 'W-AHEAD');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Widgets', quantity: 10, unitPrice: 22, productId: w }],
    });
    const bill = await billAgainst(k, po.id, [
      { description: 'Widgets', quantity: 10, unitPrice: 23, purchaseOrderLineId: po.lines[0].id },
    ]);
    // 10 billed, none received: held by the three-way match until the approver accepts it.
    assert.match(bill.receiptMismatch, /10 billed, 0 received/);
    await approve(k, bill.id, true);
    // Dr GRNI 10 × R23 = R230 (goods billed, not received); nothing in stock yet.
    assert.deepEqual(await stock(k, w), { quantity: 0, value: 0 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 0, costOfSales: 0, grni: 230 });
    await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 10 }]);
    // The 10 come in at what was paid for them, R230 (IAS 2.10): Dr inventory R230, Cr GRNI R230.
    assert.deepEqual(await stock(k, w), { quantity: 10, value: 230 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 230, costOfSales: 0, grni: 0 });
  });

  test('in parts: receive 4, bill 6 @ R23, receive 6, bill 4 @ R22.50: GRNI nil, stock at the R228 paid', async () => {
    const start = await ledger(k);
    const w = await product(k, 'W-PARTS');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Widgets', quantity: 10, unitPrice: 22, productId: w }],
    });
    const line = po.lines[0].id;
    await received(k.p, po.id, [{ lineId: line, quantity: 4 }]);
    // Receipt 1: 4 × R22 = R88 in; GRNI R88 credit.
    const b1 = await billAgainst(k, po.id, [
      { description: 'Widgets', quantity: 6, unitPrice: 23, purchaseOrderLineId: line },
    ]);
    await approve(k, b1.id, true);
    // Bill 1, 6 × R23 = R138: the 4 received clear their R88 and cost 4 × R23 = R92, so R4 goes
    // onto them (all on hand: inventory R92); the 2 not received are billed ahead at 2 × R23 = R46.
    // GRNI: −88 + 138 − 4 = +46 (a debit).
    assert.deepEqual(delta(await ledger(k), start), { inventory: 92, costOfSales: 0, grni: 46 });
    await received(k.p, po.id, [{ lineId: line, quantity: 6 }], '2026-03-12');
    // Receipt 2 of 6: the 2 billed come in at their R46, the other 4 at the order's 4 × R22 = R88:
    // R134. Inventory 92 + 134 = R226; GRNI 46 − 134 = −88 (the 4 not billed, at R88).
    assert.deepEqual(await stock(k, w), { quantity: 10, value: 226 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 226, costOfSales: 0, grni: -88 });
    const b2 = await billAgainst(
      k,
      po.id,
      [{ description: 'Widgets', quantity: 4, unitPrice: 22.5, purchaseOrderLineId: line }],
      '2026-03-14',
    );
    assert.equal(b2.receiptMismatch, null);
    await approve(k, b2.id);
    // Bill 2, 4 × R22.50 = R90 clears the R88: R2 onto the last 4 received (on hand). Stock R228 =
    // 6 × R23 + 4 × R22.50 = R138 + R90, what was paid; GRNI 0.
    assert.deepEqual(await stock(k, w), { quantity: 10, value: 228 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 228, costOfSales: 0, grni: 0 });
    assert.equal((await fetched(k.s, `/api/purchase-orders/${po.id}`)).status, 'billed');
  });

  test('voided after 4 of 10 sold: GRNI owed again, the difference off the 6 left and out of cost of sales for 4', async () => {
    const start = await ledger(k);
    const w = await product(k, 'W-VOID');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Widgets', quantity: 10, unitPrice: 20, productId: w }],
    });
    await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 10 }]);
    const made = await billOrder(k.p, po.id, 'INV-VOID');
    assert.equal(made.statusCode, 201, made.body);
    const patched = await k.p.api({
      method: 'PATCH',
      url: `/api/bills/${made.json().id}`,
      payload: {
        lines: [{ description: 'Widgets', quantity: 10, unitPrice: 22, purchaseOrderLineId: po.lines[0].id }],
      },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    await approve(k, made.json().id);
    // 10 × R20 = R200 received; billed at 10 × R22 = R220: R20 onto the 10 on hand → R220 (R22 each).
    assert.deepEqual(await stock(k, w), { quantity: 10, value: 220 });
    await sell(k, w, 4, '2026-03-11');
    // 4 sold at the average R22 = R88.
    assert.deepEqual(delta(await ledger(k), start), { inventory: 132, costOfSales: 88, grni: 0 });
    const voided = await k.p.api({
      method: 'POST',
      url: `/api/bills/${made.json().id}/void`,
      payload: { date: '2026-03-12' },
    });
    assert.equal(voided.statusCode, 200, voided.body);
    // As if never billed: GRNI owes the R200 received again; the 6 left are at the order's R20
    // (R120: R132 less their 6 × R2 = R12); cost of sales keeps 4 × R20 = R80 (R88 less 4 × R2).
    assert.deepEqual(await stock(k, w), { quantity: 6, value: 120 });
    assert.deepEqual(delta(await ledger(k), start), { inventory: 120, costOfSales: 80, grni: -200 });
  });

  test('refused: more than ordered, a line of another order, another product; an approved bill’s lines', async () => {
    const w = await product(k, 'W-NO');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Widgets', quantity: 5, unitPrice: 10, productId: w }],
    });
    const other = await sentOrder(k.p, { lines: [{ description: 'Paper', quantity: 1, unitPrice: 10 }] });
    const create = (lines: object[]) =>
      k.p.api({
        method: 'POST',
        url: '/api/bills',
        payload: {
          contactId: k.p.supplierId,
          billNumber: `NO-${++billNo}`,
          issueDate: '2026-03-10',
          dueDate: '2026-04-30',
          purchaseOrderId: po.id,
          lines,
        },
      });
    const line = po.lines[0].id;
    // 5 ordered: 6 on one bill is more than ordered (a delivery beyond the order is ordered first).
    const over = await create([{ description: 'W', quantity: 6, unitPrice: 10, purchaseOrderLineId: line }]);
    assert.equal(assertProblem(over, 400).field, 'lines[0].quantity');
    const elsewhere = await create([
      { description: 'W', quantity: 1, unitPrice: 10, purchaseOrderLineId: other.lines[0].id },
    ]);
    assert.equal(assertProblem(elsewhere, 400).field, 'lines[0].purchaseOrderLineId');
    // Another supplier's bill naming this order's line (and no purchaseOrderId): refused, naming
    // the line that named the order, not a purchaseOrderId the request never sent (outside audit).
    const c = await k.p.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Another Supplier CC', contactType: 'SUPPLIER' },
    });
    assert.equal(c.statusCode, 201, c.body);
    const theirs = await k.p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: c.json().id,
        billNumber: `NO-${++billNo}`,
        issueDate: '2026-03-10',
        dueDate: '2026-04-30',
        lines: [{ description: 'W', quantity: 1, unitPrice: 10, purchaseOrderLineId: line }],
      },
    });
    const refused = assertProblem(theirs, 400);
    assert.equal(refused.field, 'lines[0].purchaseOrderLineId');
    assert.match(String(refused.detail), /another supplier/);
    const w2 = await product(k, 'W-NO2');
    const wrong = await create([
      { description: 'W', quantity: 1, unitPrice: 10, productId: w2, purchaseOrderLineId: line },
    ]);
    assert.equal(assertProblem(wrong, 400).field, 'lines[0].productId');
    // 3 billed on a draft: a second bill may take 2 more, not 3.
    const first = await create([{ description: 'W', quantity: 3, unitPrice: 10, purchaseOrderLineId: line }]);
    assert.equal(first.statusCode, 201, first.body);
    const second = await create([
      { description: 'W', quantity: 3, unitPrice: 10, purchaseOrderLineId: line },
    ]);
    assert.equal(assertProblem(second, 400).field, 'lines[0].quantity');
    // Lines change while the bill is a draft; approved, they are the supplier's invoice as posted.
    await received(k.p, po.id, [{ lineId: line, quantity: 3 }]);
    await approve(k, first.json().id);
    const late = await k.p.api({
      method: 'PATCH',
      url: `/api/bills/${first.json().id}`,
      payload: { lines: [{ description: 'W', quantity: 3, unitPrice: 11, purchaseOrderLineId: line }] },
    });
    assert.equal(assertProblem(late, 409).code, 'NOT_A_DRAFT');
  });
});

/**
 * A month of one order (the acceptance of issue 34): PO 100 @ R22; 5 Mar 60 received; 8 Mar 20
 * sold; 10 Mar the 60 billed at R23 (the conversion's draft changed to the supplier's price); 15
 * Mar 40 received; 18 Mar 50 sold; 20 Mar the 40 billed at R22.50 (captured naming the order).
 * Paid in all: 60 × R23 + 40 × R22.50 = R1,380 + R900 = R2,280; 70 sold, 30 on hand.
 */
async function month(costMethod: 'fifo' | 'average') {
  const b = await booksSetup(t, await register(t.app, { plan: 'business' }));
  const w = await product(b, `W-${costMethod}`, { cost_method: costMethod });
  const po = await sentOrder(b.p, {
    lines: [{ description: 'Widgets', quantity: 100, unitPrice: 22, productId: w }],
  });
  const line = po.lines[0].id;
  await received(b.p, po.id, [{ lineId: line, quantity: 60 }], '2026-03-05');
  await sell(b, w, 20, '2026-03-08');
  const made = await billOrder(b.p, po.id, 'INV-M1', '2026-03-10');
  assert.equal(made.statusCode, 201, made.body);
  assert.deepEqual(
    made
      .json()
      .lines.map((l: { quantity: number; unitPrice: number; purchaseOrderLineId: string }) => [
        l.quantity,
        l.unitPrice,
        l.purchaseOrderLineId,
      ]),
    [[60, 22, line]],
  );
  const patched = await b.p.api({
    method: 'PATCH',
    url: `/api/bills/${made.json().id}`,
    payload: { lines: [{ description: 'Widgets', quantity: 60, unitPrice: 23, purchaseOrderLineId: line }] },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  await approve(b, made.json().id);
  const mid = await ledger(b);
  await received(b.p, po.id, [{ lineId: line, quantity: 40 }], '2026-03-15');
  await sell(b, w, 50, '2026-03-18');
  const bill2 = await billAgainst(
    b,
    po.id,
    [{ description: 'Widgets', quantity: 40, unitPrice: 22.5, productId: w }],
    '2026-03-20',
  );
  await approve(b, bill2.id);
  const valuation = async (asOf: string) => {
    const res = await b.p.api({ method: 'GET', url: `/api/inventory/valuation?asOf=${asOf}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const order = await fetched(b.s, `/api/purchase-orders/${po.id}`);
  return {
    mid,
    end: await ledger(b),
    stock: await stock(b, w),
    at12: await valuation('2026-03-12'),
    at31: await valuation('2026-03-31'),
    status: order.status,
  };
}

describe('a month of one order: GRNI nil, cost of sales as worked by hand', () => {
  test('FIFO: 30 on hand at R675, cost of sales R1,605, GRNI 0; the valuation ties to the ledger', async () => {
    const m = await month('fifo');
    // 5 Mar: layer A 60 @ R22 = R1,320. 8 Mar: 20 from A = R440 (A: 40, R880).
    // 10 Mar: bill R1,380 against R1,320 received: R60 on 60 units, 40 of them still in A →
    //   R40 onto A (40 @ R23 = R920), 20 gone → R20 to cost of sales (R460 in all).
    assert.deepEqual(m.mid, { inventory: 920, costOfSales: 460, grni: 0 });
    assert.deepEqual([m.at12.totals, m.at12.difference], [{ quantity: 40, value: 920 }, 0]);
    // 15 Mar: layer B 40 @ R22 = R880. 18 Mar: 50 = all of A (R920) + 10 of B (R220) = R1,140.
    // 20 Mar: bill R900 against R880 received: R20 over 40 units of B, 30 still in it → R15 onto
    //   B (30 @ R22 = R660 + R15 = R675), 10 gone → R5 to cost of sales.
    // Cost of sales R460 + R1,140 + R5 = R1,605; stock R675; together R2,280, what was paid.
    assert.deepEqual(m.end, { inventory: 675, costOfSales: 1605, grni: 0 });
    assert.deepEqual(m.stock, { quantity: 30, value: 675 });
    assert.deepEqual(
      [m.at31.totals, m.at31.ledgerBalance, m.at31.difference],
      [{ quantity: 30, value: 675 }, 675, 0],
    );
    assert.equal(m.status, 'billed');
  });

  test('average: 30 on hand at R682.50, cost of sales R1,597.50, GRNI 0; the valuation ties', async () => {
    const m = await month('average');
    // 5 Mar: 60 @ R22 = R1,320. 8 Mar: 20 at R22 = R440 (40, R880).
    // 10 Mar: R60 on the 60 received; the pool went 60 → 40, so 40 of them are held → R40 into
    //   the pool (40, R920: R23), R20 to cost of sales (R460).
    assert.deepEqual(m.mid, { inventory: 920, costOfSales: 460, grni: 0 });
    // 15 Mar: +40 @ R22 = R880 → 80, R1,800 (R22.50). 18 Mar: 50 × R22.50 = R1,125 (30, R675).
    // 20 Mar: R20 on the 40 of 15 Mar; the 50 sold took 50/80 of every unit in the pool, so 15 of
    //   the 40 are held → R7.50 into the pool (30, R682.50), R12.50 to cost of sales.
    // Cost of sales R460 + R1,125 + R12.50 = R1,597.50. The same as the average worked with the
    // bills' prices from the start: 60 @ R23, 20 sold (R460), 40 @ R22.50 in → 80 @ R1,820 (R22.75),
    // 50 sold R1,137.50 → R460 + R1,137.50 = R1,597.50, 30 left at R682.50.
    assert.deepEqual(m.end, { inventory: 682.5, costOfSales: 1597.5, grni: 0 });
    assert.deepEqual(m.stock, { quantity: 30, value: 682.5 });
    assert.deepEqual(
      [m.at31.totals, m.at31.ledgerBalance, m.at31.difference],
      [{ quantity: 30, value: 682.5 }, 682.5, 0],
    );
    assert.equal(m.status, 'billed');
  });
});
