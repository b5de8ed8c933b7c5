// Supplier credit notes send goods back: out of stock at the cost they came in with on the bill
// credited, in the credit note's own entry; refused (409, nothing written) when they are gone.
// And the order path: an order line in boxes, a receipt naming its batch, its bill, a return.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, release } from '../invoices/invoices.factories.ts';
import { billOrder, sentOrder } from '../purchase-orders/purchase-orders.factories.ts';
import {
  approvedBill,
  type Books,
  books,
  booksSetup,
  movementCount,
  product,
  stock,
} from './flows.factories.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

function creditNote(billId: string, number: string, lines: object[]) {
  return k.p.api({
    method: 'POST',
    url: '/api/bills/credit-notes',
    payload: { billId, creditNoteNumber: number, issueDate: '2026-03-05', settlement: 'offset', lines },
  });
}

describe('supplier credit notes move stock out at the cost it came in with', () => {
  let drill: string;
  let first: string;
  let second: string;
  test('bills of 10 @ R100 and 10 @ R130: 20 at R2,300 (average R115)', async () => {
    drill = await product(k, 'DRILL');
    first = (
      await approvedBill(k, 'D-1', [
        { description: 'Drills', quantity: 10, unitPrice: 100, productId: drill },
      ])
    ).id;
    second = (
      await approvedBill(k, 'D-2', [
        { description: 'Drills', quantity: 10, unitPrice: 130, productId: drill },
      ])
    ).id;
    assert.deepEqual(await stock(k, drill), { quantity: 20, value: 2300 });
  });

  test('2 sent back on the R130 bill, credited at R130: out at R260 (not the R230 average); cost of sales unchanged', async () => {
    const before = await books(k);
    const res = await creditNote(second, 'SCN-1', [
      { description: 'Drills returned', quantity: 2, unitPrice: 130, productId: drill },
    ]);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().lines[0].productId, drill);
    // 2 × R130 = R260 out of 1200; the credit line (R260 net + R39 VAT = R299 off creditors) credits
    // cost of sales R260 against the movement's Dr cost of sales R260: net nothing.
    const now = await books(k);
    assert.equal(now.inventory - before.inventory, -260);
    assert.equal(now.costOfSales - before.costOfSales, 0);
    assert.deepEqual(await stock(k, drill), { quantity: 18, value: 2040 });
  });

  test('1 sent back on the R100 bill but credited at R90: out at R100, the R10 difference to cost of sales', async () => {
    const before = await books(k);
    const res = await creditNote(first, 'SCN-2', [
      { description: 'Drill returned', quantity: 1, unitPrice: 90, productId: drill },
    ]);
    assert.equal(res.statusCode, 201, res.body);
    // Out at R100 (Cr 1200 R100, Dr 5000 R100); the credit line Cr 5000 R90 → cost of sales +R10.
    const now = await books(k);
    assert.equal(now.inventory - before.inventory, -100);
    assert.equal(now.costOfSales - before.costOfSales, 10);
    assert.deepEqual(await stock(k, drill), { quantity: 17, value: 1940 });
  });

  test('goods sold since: 409 INSUFFICIENT_STOCK, no credit note, nothing moved', async () => {
    const saw = await product(k, 'SAW', { allow_negative: false });
    const bill = await approvedBill(k, 'S-1', [
      { description: 'Saws', quantity: 3, unitPrice: 50, productId: saw },
    ]);
    await release(
      k.s,
      (await createDoc(k.s, { lines: [{ description: 'Saws', quantity: 3, unitPrice: 80, productId: saw }] }))
        .id,
    );
    const before = await movementCount(k);
    const res = await creditNote(bill.id, 'SCN-3', [
      { description: 'Saw returned', quantity: 1, unitPrice: 50, productId: saw },
    ]);
    assert.equal(assertProblem(res, 409).code, 'INSUFFICIENT_STOCK');
    assert.equal(await movementCount(k), before);
    const list = await k.p.api({ method: 'GET', url: `/api/bills/credit-notes?billId=${bill.id}` });
    assert.deepEqual(list.json(), []);
  });
});

describe('an order in boxes, received by batch, billed, and a box sent back (the GRNI path)', () => {
  let tea: string;
  let billId: string;
  test('2 boxes of 12 ordered at R120 a box, received as batch T1: 24 each at R10, Dr inventory / Cr GRNI R240', async () => {
    tea = await product(k, 'TEA', { tracking: 'batch', cost_method: 'fifo', allow_negative: false });
    const u = await k.p.api({
      method: 'POST',
      url: `/api/inventory/products/${tea}/units`,
      payload: { name: 'box', factor: 12 },
    });
    assert.equal(u.statusCode, 201, u.body);
    const before = await books(k);
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Tea', quantity: 2, unitPrice: 120, productId: tea, unit: 'box' }],
    });
    assert.equal(po.lines[0].unit, 'box');
    const res = await k.p.api({
      method: 'POST',
      url: `/api/purchase-orders/${po.id}/receipts`,
      payload: {
        date: '2026-03-03',
        lines: [{ lineId: po.lines[0].id, quantity: 2, batchCode: 'T1', batchExpiry: '2027-06-30' }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().receipts[0].lines[0].batchCode, 'T1');
    // 2 boxes × 12 = 24 base units; 2 × R120 = R240 → R10 each.
    assert.deepEqual(await stock(k, tea), { quantity: 24, value: 240 });
    const now = await books(k);
    assert.equal(now.inventory - before.inventory, 240);
    assert.equal(now.grni - before.grni, -240);
    const bill = await billOrder(k.p, po.id, 'TEA-1', '2026-03-04');
    assert.equal(bill.statusCode, 201, bill.body);
    billId = bill.json().id;
    assert.equal(bill.json().lines[0].unit, 'box');
    const ok = await k.p.api({ method: 'POST', url: `/api/bills/${billId}/approve` });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await books(k)).grni, before.grni);
  });

  test("1 box sent back on the order's bill: 12 out of batch T1 at the receipt's R10 each (R120)", async () => {
    const before = await books(k);
    const res = await creditNote(billId, 'SCN-T', [
      { description: 'Tea returned', quantity: 1, unitPrice: 120, productId: tea, unit: 'box' },
    ]);
    assert.equal(res.statusCode, 201, res.body);
    // The receipt's movement (24 at R240) undone for 12: R120 out of 1200, its layer left 12 at R120.
    const now = await books(k);
    assert.equal(now.inventory - before.inventory, -120);
    assert.equal(now.costOfSales - before.costOfSales, 0);
    assert.deepEqual(await stock(k, tea), { quantity: 12, value: 120 });
  });
});

describe('a variant sent back', () => {
  test('the credit note line names the variant: only its stock leaves, at its own cost', async () => {
    // T-shirts in two variants, billed 5 red @ R20 (R100) and 5 blue @ R30 (R150). 2 blue sent
    // back at R30: blue 5 − 2 = 3 left worth 3 × R30 = R90; red untouched, 5 worth R100.
    const shirt = await product(k, 'SHIRT');
    const variant = async (sku: string, name: string) => {
      const res = await k.p.api({
        method: 'POST',
        url: `/api/inventory/products/${shirt}/variants`,
        payload: { sku, name },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const red = await variant('SHIRT-RED', 'Red');
    const blue = await variant('SHIRT-BLUE', 'Blue');
    const bill = await approvedBill(k, 'SHIRTS-1', [
      { description: 'Red shirts', quantity: 5, unitPrice: 20, productId: shirt, variantId: red },
      { description: 'Blue shirts', quantity: 5, unitPrice: 30, productId: shirt, variantId: blue },
    ]);
    const res = await creditNote(bill.id, 'SCN-V1', [
      { description: 'Blue shirts returned', quantity: 2, unitPrice: 30, productId: shirt, variantId: blue },
    ]);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().lines[0].productId, res.json().lines[0].variantId], [shirt, blue]);
    assert.deepEqual(await stock(k, blue), { quantity: 3, value: 90 });
    assert.deepEqual(await stock(k, red), { quantity: 5, value: 100 });
    // A variant of another product, or without its product: 400 naming the field.
    const other = await creditNote(bill.id, 'SCN-V2', [
      {
        description: 'Drills',
        quantity: 1,
        unitPrice: 30,
        productId: await product(k, 'OTHER'),
        variantId: blue,
      },
    ]);
    assertProblem(other, 400);
    assert.equal(other.json().errors?.[0]?.field ?? other.json().field, 'lines[0].variantId');
    const bare = await creditNote(bill.id, 'SCN-V3', [
      { description: 'Blue shirt', quantity: 1, unitPrice: 30, variantId: blue },
    ]);
    assertProblem(bare, 400);
    assert.equal(bare.json().errors?.[0]?.field ?? bare.json().field, 'lines[0].variantId');
  });
});
