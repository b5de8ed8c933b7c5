// Purchases move stock: a purchase-order receipt (Dr inventory / Cr GRNI at the order's net
// price), the bill made from the order clearing GRNI, a bill without an order buying stock in,
// and a bill's void taking it back out, or refused (409) when the goods have been sold.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, entryLines, fetched, release } from '../invoices/invoices.factories.ts';
import { billOrder, received, sentOrder } from '../purchase-orders/purchase-orders.factories.ts';
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

const voidBill = (id: string) => k.p.api({ method: 'POST', url: `/api/bills/${id}/void`, payload: {} });

describe('a purchase order received, then billed', () => {
  let bolt: string;
  let orderId: string;
  let billId: string;
  test('5 @ R50 received: inventory R250, GRNI R250 credit, in one entry of the receipt', async () => {
    bolt = await product(k, 'BOLT');
    const po = await sentOrder(k.p, {
      lines: [
        { description: 'Bolts', quantity: 5, unitPrice: 50, productId: bolt },
        { description: 'Courier', quantity: 1, unitPrice: 80 },
      ],
    });
    orderId = po.id;
    await received(k.p, po.id, [
      { lineId: po.lines[0].id, quantity: 5 },
      { lineId: po.lines[1].id, quantity: 1 },
    ]);
    // 5 × R50 net (VAT is not part of the cost): the courier line is no stock and posts nothing.
    assert.deepEqual(await books(k), { inventory: 250, costOfSales: 0, grni: -250 });
    assert.deepEqual(await stock(k, bolt), { quantity: 5, value: 250 });
  });

  test('its bill approved: Dr GRNI R250 instead of the expense account → GRNI 0; stock unchanged', async () => {
    const res = await billOrder(k.p, orderId);
    assert.equal(res.statusCode, 201, res.body);
    billId = res.json().id;
    const ok = await k.p.api({ method: 'POST', url: `/api/bills/${billId}/approve` });
    assert.equal(ok.statusCode, 200, ok.body);
    // Bolts R250 → 2160 (tagged as the line's input tax), courier R80 → its expense account,
    // VAT input 15% × R330 = R49.50, creditors R379.50.
    const lines = await entryLines(k.s, ok.json().entryId);
    const grni = lines.filter((l: unknown[]) => l[0] === '2160');
    assert.deepEqual(
      grni.map((l: unknown[]) => [l[1], l[2]]),
      [[250, 0]],
    );
    assert.deepEqual(await books(k), { inventory: 250, costOfSales: 0, grni: 0 });
    assert.deepEqual(await stock(k, bolt), { quantity: 5, value: 250 });
  });

  test('the bill voided: GRNI owed again (R250 credit), the received goods stay in stock', async () => {
    const res = await voidBill(billId);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await books(k), { inventory: 250, costOfSales: 0, grni: -250 });
    assert.deepEqual(await stock(k, bolt), { quantity: 5, value: 250 });
  });
});

describe('the bill dearer than the order', () => {
  test('4 @ R50 received (GRNI R200 credit), billed at R55: GRNI 0, the R20 onto the 4 rods still on hand', async () => {
    const start = await books(k);
    const rod = await product(k, 'ROD');
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Rods', quantity: 4, unitPrice: 50, productId: rod }],
    });
    await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 4 }]);
    assert.equal((await books(k)).grni, start.grni - 200);
    const res = await billOrder(k.p, po.id, 'KOS-R1');
    assert.equal(res.statusCode, 201, res.body);
    const bill = res.json();
    // The supplier's invoice says R55 a rod: the draft's line is changed to it before approval.
    const patched = await k.p.api({
      method: 'PATCH',
      url: `/api/bills/${bill.id}`,
      payload: {
        lines: [{ description: 'Rods', quantity: 4, unitPrice: 55, purchaseOrderLineId: po.lines[0].id }],
      },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    // 4 × R55 = R220 + VAT 15% R33 = R253.
    assert.deepEqual(
      [patched.json().subtotal, patched.json().vatAmount, patched.json().amount],
      [220, 33, 253],
    );
    const ok = await k.p.api({ method: 'POST', url: `/api/bills/${bill.id}/approve` });
    assert.equal(ok.statusCode, 200, ok.body);
    // Dr GRNI R220, Cr GRNI R20: GRNI nets to the R200 received. The 4 rods are all on hand, so
    // the R20 is their cost (IAS 2.10: the price paid): Dr inventory R20, R220 for 4 (R55 each).
    assert.deepEqual(await books(k), {
      inventory: start.inventory + 220,
      costOfSales: start.costOfSales,
      grni: start.grni,
    });
    assert.deepEqual(await stock(k, rod), { quantity: 4, value: 220 });
  });
});

describe('a bill without an order', () => {
  test('3 @ R100 bought in (Dr inventory R300), then voided: taken out again, inventory back', async () => {
    const start = await books(k);
    const nut = await product(k, 'NUT');
    const bill = await approvedBill(k, 'KOS-N1', [
      { description: 'Nuts', quantity: 3, unitPrice: 100, productId: nut },
    ]);
    assert.deepEqual(await stock(k, nut), { quantity: 3, value: 300 });
    assert.equal((await books(k)).inventory, start.inventory + 300);
    const res = await voidBill(bill.id);
    assert.equal(res.statusCode, 200, res.body);
    // The reversal takes R300 off inventory; the goods go out at their R300: nothing else moves.
    assert.deepEqual(await books(k), start);
    assert.deepEqual(await stock(k, nut), { quantity: 0, value: 0 });
  });

  test('voiding a bill whose goods were sold (a product refusing negative stock): 409, nothing written', async () => {
    const cog = await product(k, 'COG', { allow_negative: false });
    const bill = await approvedBill(k, 'KOS-C1', [
      { description: 'Cogs', quantity: 2, unitPrice: 100, productId: cog },
    ]);
    const inv = await createDoc(k.s, {
      lines: [{ description: 'Cog', quantity: 2, unitPrice: 150, productId: cog }],
    });
    await release(k.s, inv.id);
    const before = { books: await books(k), moves: await movementCount(k) };
    const res = await voidBill(bill.id);
    assertProblem(res, 409);
    assert.equal(res.json().code, 'INSUFFICIENT_STOCK');
    assert.equal((await fetched(k.s, `/api/bills/${bill.id}`)).status, 'approved');
    assert.deepEqual({ books: await books(k), moves: await movementCount(k) }, before);
  });

  test('a tracked product on a negative bill line: 400 naming its quantity', async () => {
    const pin = await product(k, 'PIN');
    const res = await k.p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: k.p.supplierId,
        billNumber: 'KOS-P1',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [
          { description: 'Pins', quantity: 5, unitPrice: 100 },
          { description: 'Pins returned', quantity: -1, unitPrice: 100, productId: pin },
        ],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = assertProblem(
      await k.p.api({ method: 'POST', url: `/api/bills/${res.json().id}/approve` }),
      400,
    );
    assert.match(JSON.stringify(body), /lines\[1\]\.quantity/);
  });
});
