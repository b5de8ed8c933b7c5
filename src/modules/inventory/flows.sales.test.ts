// Sales move stock: an invoice's cost of sales in its own entry, a credit note's return at the
// cost the goods left with, the 409 that writes nothing, a cash sale and its void, delivery notes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { balanceOfCode, createDoc, entryLines, fetched, release } from '../invoices/invoices.factories.ts';
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
let widget: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
  widget = await product(k, 'W-1', { allow_negative: false });
});
after(() => t.close());

const sale = (productId: string, quantity: number, o: Record<string, unknown> = {}) =>
  createDoc(k.s, {
    lines: [{ description: 'Widget', quantity, unitPrice: 150, productId }],
    ...o,
  });

describe('an invoice, a credit note, a refusal, a cash sale and its void', () => {
  test('bill 10 @ R100 (no order): inventory R1,000, stock 10 worth R1,000', async () => {
    await approvedBill(k, 'KOS-1', [
      { description: 'Widgets', quantity: 10, unitPrice: 100, productId: widget },
    ]);
    assert.deepEqual(await books(k), { inventory: 1000, costOfSales: 0, grni: 0 });
    assert.deepEqual(await stock(k, widget), { quantity: 10, value: 1000 });
  });

  let invoiceId: string;
  test('invoice 4 @ R150 released: one entry with Dr cost of sales R400 / Cr inventory R400 beside the sale', async () => {
    const inv = await release(k.s, (await sale(widget, 4)).id);
    invoiceId = inv.id;
    // 4 × R150 = R600 + VAT 15% R90 = R690; 4 × average R100 = R400 out of stock.
    const lines = await entryLines(k.s, inv.entryId);
    assert.deepEqual(
      lines.map((l: unknown[]) => [l[0], l[1], l[2]]).sort(),
      [
        ['1100', 690, 0],
        ['1200', 0, 400],
        ['2100', 0, 90],
        ['4000', 0, 600],
        ['5000', 400, 0],
      ].sort(),
    );
    assert.deepEqual(await books(k), { inventory: 600, costOfSales: 400, grni: 0 });
    assert.equal(await balanceOfCode(k.s, '4000'), -600);
    assert.deepEqual(await stock(k, widget), { quantity: 6, value: 600 });
  });

  test('credit note for 1 returned: comes back at the R100 it left with → inventory R700, cost of sales R300', async () => {
    const cn = await createDoc(k.s, {
      documentType: 'credit_note',
      creditedInvoiceId: invoiceId,
      lines: [{ description: 'Widget returned', quantity: 1, unitPrice: 150, productId: widget }],
    });
    await release(k.s, cn.id);
    assert.deepEqual(await books(k), { inventory: 700, costOfSales: 300, grni: 0 });
    assert.deepEqual(await stock(k, widget), { quantity: 7, value: 700 });
  });

  test('selling 8 when 7 are on hand (a product that refuses negative stock): 409, nothing written', async () => {
    const before = await movementCount(k);
    const draft = await sale(widget, 8);
    const res = await k.s.api({ method: 'POST', url: `/api/invoices/${draft.id}/release` });
    assertProblem(res, 409);
    assert.equal(res.json().code, 'INSUFFICIENT_STOCK');
    assert.equal((await fetched(k.s, `/api/invoices/${draft.id}`)).status, 'draft');
    assert.equal(await movementCount(k), before);
    assert.deepEqual(await books(k), { inventory: 700, costOfSales: 300, grni: 0 });
  });

  test('a cash sale of 2 takes R200 out; its void (a credit note, refunded) brings them back at R200', async () => {
    const cash = await release(k.s, (await sale(widget, 2, { documentType: 'cash_sale' })).id);
    // 7 on hand worth R700: 2 out at R100 each.
    assert.deepEqual(await books(k), { inventory: 500, costOfSales: 500, grni: 0 });
    const res = await k.s.api({ method: 'DELETE', url: `/api/invoices/${cash.id}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await books(k), { inventory: 700, costOfSales: 300, grni: 0 });
    assert.deepEqual(await stock(k, widget), { quantity: 7, value: 700 });
  });

  test('an untracked product and a free-text line move nothing', async () => {
    const res = await k.p.api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'SVC', name: 'Installation', unitPrice: 500 },
    });
    assert.equal(res.statusCode, 201, res.body);
    const before = await movementCount(k);
    await release(
      k.s,
      (
        await createDoc(k.s, {
          lines: [
            { description: 'Installation', quantity: 1, unitPrice: 500, productId: res.json().id },
            { description: 'Call-out', quantity: 1, unitPrice: 100 },
          ],
        })
      ).id,
    );
    assert.equal(await movementCount(k), before);
  });

  test('a batch-tracked product with no batch in stock: 409 INSUFFICIENT_STOCK, nothing written', async () => {
    const batched = await product(k, 'B-1', { tracking: 'batch', allow_negative: false });
    const draft = await sale(batched, 1);
    const res = await k.s.api({ method: 'POST', url: `/api/invoices/${draft.id}/release` });
    assert.equal(assertProblem(res, 409).code, 'INSUFFICIENT_STOCK');
    assert.equal((await fetched(k.s, `/api/invoices/${draft.id}`)).status, 'draft');
  });
});

describe('returns: at the cost the goods left with, else the average', () => {
  test('sold 4 at R100, then 10 more bought at R130: the credit note brings 1 back at R100, not the R118.75 average', async () => {
    const lamp = await product(k, 'LAMP');
    await approvedBill(k, 'KOS-L1', [
      { description: 'Lamps', quantity: 10, unitPrice: 100, productId: lamp },
    ]);
    const inv = await release(k.s, (await sale(lamp, 4)).id);
    await approvedBill(k, 'KOS-L2', [
      { description: 'Lamps', quantity: 10, unitPrice: 130, productId: lamp },
    ]);
    // 6 @ R100 + 10 @ R130 = 16 worth R1,900 (average R118.75).
    assert.deepEqual(await stock(k, lamp), { quantity: 16, value: 1900 });
    const before = await books(k);
    const cn = await createDoc(k.s, {
      documentType: 'credit_note',
      creditedInvoiceId: inv.id,
      lines: [{ description: 'Lamp returned', quantity: 1, unitPrice: 150, productId: lamp }],
    });
    await release(k.s, cn.id);
    assert.deepEqual(await stock(k, lamp), { quantity: 17, value: 2000 });
    assert.deepEqual(await books(k), {
      inventory: before.inventory + 100,
      costOfSales: before.costOfSales - 100,
      grni: 0,
    });
  });

  test('a credit note naming no invoice: back at the average; voided: out again', async () => {
    const lamp = await product(k, 'LAMP2');
    await approvedBill(k, 'KOS-L3', [{ description: 'Lamps', quantity: 3, unitPrice: 100, productId: lamp }]);
    const before = await books(k);
    const cn = await release(
      k.s,
      (
        await createDoc(k.s, {
          documentType: 'credit_note',
          lines: [{ description: 'Lamp returned', quantity: 1, unitPrice: 150, productId: lamp }],
        })
      ).id,
    );
    // 3 @ R100: 1 back at the average R100 → 4 worth R400.
    assert.deepEqual(await stock(k, lamp), { quantity: 4, value: 400 });
    assert.equal((await books(k)).inventory, before.inventory + 100);
    const res = await k.s.api({ method: 'DELETE', url: `/api/invoices/${cn.id}` });
    assert.equal(res.statusCode, 200, res.body);
    // Its entry reversed, the lamp goes out again at R100: the books as before it.
    assert.deepEqual(await stock(k, lamp), { quantity: 3, value: 300 });
    assert.deepEqual(await books(k), before);
  });
});

describe('delivery notes: the goods leave once', () => {
  test('a sales order of 3, delivered (R300 out), then invoiced: the invoice moves nothing more', async () => {
    const gadget = await product(k, 'G-1');
    await approvedBill(k, 'KOS-2', [
      { description: 'Gadgets', quantity: 5, unitPrice: 100, productId: gadget },
    ]);
    const start = await books(k);
    const order = await sale(gadget, 3, { documentType: 'sales_order' });
    const convert = (documentType: string) =>
      k.s.api({
        method: 'POST',
        url: `/api/invoices/${order.id}/convert`,
        payload: { documentType, issueDate: '2026-03-02' },
      });
    const dn = await convert('delivery_note');
    assert.equal(dn.statusCode, 201, dn.body);
    await release(k.s, dn.json().id);
    // 3 × R100 out on delivery: cost of sales +R300, inventory −R300.
    assert.deepEqual(await books(k), {
      inventory: start.inventory - 300,
      costOfSales: start.costOfSales + 300,
      grni: 0,
    });
    assert.deepEqual(await stock(k, gadget), { quantity: 2, value: 200 });
    const inv = await convert('invoice');
    assert.equal(inv.statusCode, 201, inv.body);
    await release(k.s, inv.json().id);
    // Already delivered: no second cost of sales.
    assert.deepEqual(await stock(k, gadget), { quantity: 2, value: 200 });
    assert.deepEqual(await books(k), {
      inventory: start.inventory - 300,
      costOfSales: start.costOfSales + 300,
      grni: 0,
    });
    // The invoice voided (a credit note): the goods stay delivered, the delivery note stands.
    const voided = await k.s.api({ method: 'DELETE', url: `/api/invoices/${inv.json().id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.deepEqual(await stock(k, gadget), { quantity: 2, value: 200 });
  });

  test('goods of no cost yet (never bought, negative stock allowed): delivered and the note voided, nothing posted', async () => {
    const free = await product(k, 'FREE');
    const start = await books(k);
    const dn = await release(k.s, (await sale(free, 2, { documentType: 'delivery_note' })).id);
    // Out at R0: below zero, at the last cost it came in at (none): no entry to post.
    assert.deepEqual(await stock(k, free), { quantity: -2, value: 0 });
    const res = await k.s.api({ method: 'DELETE', url: `/api/invoices/${dn.id}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await stock(k, free), { quantity: 0, value: 0 });
    assert.deepEqual(await books(k), start);
  });

  test('a delivery note voided: its goods come back at the cost they left with', async () => {
    const part = await product(k, 'PART');
    await approvedBill(k, 'KOS-P2', [{ description: 'Parts', quantity: 4, unitPrice: 25, productId: part }]);
    const start = await books(k);
    const dn = await release(k.s, (await sale(part, 3, { documentType: 'delivery_note' })).id);
    // 3 × R25 = R75 out.
    assert.equal((await books(k)).costOfSales, start.costOfSales + 75);
    const res = await k.s.api({ method: 'DELETE', url: `/api/invoices/${dn.id}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await stock(k, part), { quantity: 4, value: 100 });
    assert.deepEqual(await books(k), start);
  });
});
