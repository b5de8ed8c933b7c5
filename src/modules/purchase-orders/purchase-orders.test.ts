// Purchase orders: an order of 10 reams received 6 then 4 and billed whole, or billed in two
// parts; a bill of 12 against 10 received is held (receiptMismatch, approval needs
// acceptMismatch); drafts change and are deleted, sent orders are cancelled; the PDF; another
// tenant's order is 404 and a free plan is 403. Figures worked by hand from the rule each cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfOf } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { act, type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { entryLines, fetched, type Sales } from '../invoices/invoices.factories.ts';
import {
  billOrder,
  createOrder,
  fieldOf,
  order,
  REAMS,
  receive,
  received,
  sentOrder,
} from './purchase-orders.factories.ts';

/** A receipt line that names no batch or serials (migrations/0050). */
const noStock = { batchCode: null, batchExpiry: null, serials: null };
let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

async function setup(plan = 'starter'): Promise<Purchases> {
  const b = await register(t.app, { plan, companyName: 'Protea Trading (Pty) Ltd' });
  return purchasesSetup(t, b);
}

const sales = (p: Purchases): Sales => ({ api: p.api, customerId: p.supplierId });

/** Balances (debit − credit) by account code from the trial balance. */
async function balances(p: Purchases, asOf: string, codes: string[]) {
  const tb = await fetched(sales(p), `/api/reports/trial-balance?asOf=${asOf}`);
  return codes.map((code) => {
    const a = tb.accounts.find((x: { code: string }) => x.code === code);
    return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
  });
}

const get = async (p: Purchases, id: string) => {
  const res = await p.api({ method: 'GET', url: `/api/purchase-orders/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

const line = (po: { lines: Array<Record<string, unknown>> }) => {
  const l = po.lines[0]!;
  return [l.quantity, l.quantityReceived, l.quantityBilled];
};

describe('an order of 10 reams at 100.00', () => {
  test('PO-0001 draft; received 6 then 4; billed whole: a bill of 10 linked to it, the order billed', async () => {
    const p = await setup();
    const draft = await order(p, {
      expectedDate: '2026-03-09',
      deliveryAddress: '12 Long Street, Cape Town',
    });
    // 10 × 100.00 = 1,000.00 at 15% (VAT Act s7(1)(a), the rate on 2 March 2026) = 150.00: 1,150.00.
    assert.deepEqual(
      [draft.number, draft.status, draft.subtotal, draft.vatTotal, draft.total, draft.supplierName],
      ['PO-0001', 'draft', 1000, 150, 1150, 'Karoo Office Supplies CC'],
    );
    assert.deepEqual(line(draft), [10, 0, 0]);
    // An order is a commitment: nothing is posted, creditors stay 0.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1300', '6750']), [0, 0, 0]);

    // A draft takes no receipts: it has not been sent.
    const early = await receive(p, draft.id, [{ lineId: draft.lines[0].id, quantity: 1 }]);
    assert.equal(assertProblem(early, 409).code, 'ORDER_NOT_SENT');

    const sent = await p.api({
      method: 'POST',
      url: `/api/purchase-orders/${draft.id}/send`,
      payload: { to: 'orders@karoo.example.co.za' },
    });
    assert.equal(sent.statusCode, 202, sent.body);
    assert.equal(sent.json().status, 'stored'); // no SMTP in this file: kept in the database
    assert.equal(sent.json().purchaseOrder.status, 'sent');
    const lineId = draft.lines[0].id;

    const six = await received(p, draft.id, [{ lineId, quantity: 6 }], '2026-03-05');
    assert.equal(six.status, 'partially_received');
    assert.deepEqual(line(six), [10, 6, 0]);
    // 10 ordered − 6 received = 4 still to come: 5 is refused, naming the line's quantity.
    const over = await receive(p, draft.id, [{ lineId, quantity: 5 }]);
    assertProblem(over, 400);
    assert.equal(fieldOf(over), 'lines[0].quantity');
    const four = await received(p, draft.id, [{ lineId, quantity: 4 }], '2026-03-06');
    assert.equal(four.status, 'received');
    assert.deepEqual(line(four), [10, 10, 0]);
    assert.deepEqual(
      four.receipts.map((r: { date: string; lines: unknown[] }) => [r.date, r.lines]),
      [
        ['2026-03-05', [{ lineId, quantity: 6, ...noStock }]],
        ['2026-03-06', [{ lineId, quantity: 4, ...noStock }]],
      ],
    );
    // Still nothing posted: goods are costed when the bill is approved.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1300', '6750']), [0, 0, 0]);

    const res = await billOrder(p, draft.id);
    assert.equal(res.statusCode, 201, res.body);
    const bill = res.json();
    // The received 10 at the order's price: 1,000.00 + VAT 150.00 = 1,150.00.
    assert.deepEqual(
      [
        bill.status,
        bill.purchaseOrderId,
        bill.purchaseOrderNumber,
        bill.subtotal,
        bill.vatAmount,
        bill.amount,
      ],
      ['draft', draft.id, 'PO-0001', 1000, 150, 1150],
    );
    assert.deepEqual(
      bill.lines.map((l: Record<string, unknown>) => [
        l.description,
        l.quantity,
        l.unitPrice,
        l.purchaseOrderLineId,
      ]),
      [['A4 paper, ream', 10, 100, lineId]],
    );
    assert.equal(bill.receiptMismatch, null);
    const billed = await get(p, draft.id);
    assert.equal(billed.status, 'billed');
    assert.deepEqual(line(billed), [10, 10, 10]);
    assert.deepEqual(billed.billIds, [bill.id]);
    assert.equal(assertProblem(await billOrder(p, draft.id, 'KOS-1002'), 409).code, 'ORDER_CLOSED');

    // Approved without a mismatch: Dr General expenses 6750 1,000.00, Dr VAT input 1300 150.00,
    // Cr creditors control 2000 1,150.00 (the bill's own posting; the order added nothing).
    await act(p, bill.id, 'submit');
    const ok = await act(p, bill.id, 'approve');
    assert.deepEqual(
      [...(await entryLines(sales(p), ok.entryId))].sort((x, y) => String(x).localeCompare(String(y))),
      [
        ['1300', 150, 0, 'input_standard', 15],
        ['2000', 0, 1150, null, null],
        ['6750', 1000, 0, 'input_standard', 15],
      ],
    );
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1300', '6750']), [-1150, 150, 1000]);
  });

  test('billed in two parts: 6 received and billed (partially_received), then 4 (billed); a voided bill reopens it', async () => {
    const p = await setup();
    const po = await sentOrder(p);
    const lineId = po.lines[0].id;
    assert.equal(assertProblem(await billOrder(p, po.id), 409).code, 'NOTHING_TO_BILL');
    await received(p, po.id, [{ lineId, quantity: 6 }]);
    const first = await billOrder(p, po.id, 'KOS-2001');
    assert.equal(first.statusCode, 201, first.body);
    // 6 × 100.00 = 600.00 + VAT 90.00 (15%) = 690.00.
    assert.deepEqual([first.json().lines[0].quantity, first.json().amount], [6, 690]);
    let now = await get(p, po.id);
    assert.equal(now.status, 'partially_received');
    assert.deepEqual(line(now), [10, 6, 6]);
    // Part of it billed: it is no longer cancelled.
    const cancel = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/cancel` });
    assert.equal(assertProblem(cancel, 409).code, 'ORDER_BILLED');
    await received(p, po.id, [{ lineId, quantity: 4 }]);
    now = await get(p, po.id);
    assert.equal(now.status, 'received'); // all in, 4 not billed yet
    const second = await billOrder(p, po.id, 'KOS-2002');
    assert.equal(second.statusCode, 201, second.body);
    // 4 × 100.00 = 400.00 + VAT 60.00 = 460.00; 690.00 + 460.00 = 1,150.00, the order's total.
    assert.deepEqual([second.json().lines[0].quantity, second.json().amount], [4, 460]);
    now = await get(p, po.id);
    assert.equal(now.status, 'billed');
    assert.deepEqual(line(now), [10, 10, 10]);
    assert.equal(now.billIds.length, 2);
    // The second bill voided (never posted): its 4 are to bill again, the order is received again.
    await act(p, second.json().id, 'void', {});
    now = await get(p, po.id);
    assert.deepEqual([now.status, ...line(now), now.billIds.length], ['received', 10, 10, 6, 1]);
    const third = await billOrder(p, po.id, 'KOS-2003');
    assert.equal(third.statusCode, 201, third.body);
    assert.deepEqual([third.json().lines[0].quantity, (await get(p, po.id)).status], [4, 'billed']);
  });
});

describe('a bill against an order that bills more than was received', () => {
  test('12 reams billed against 10 received: receiptMismatch, approval needs acceptMismatch', async () => {
    const p = await setup();
    const po = await sentOrder(p);
    await received(p, po.id, [{ lineId: po.lines[0].id, quantity: 10 }]);
    const res = await p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: p.supplierId,
        billNumber: 'KOS-3001',
        issueDate: '2026-03-10',
        dueDate: '2026-04-09',
        purchaseOrderId: po.id,
        lines: [{ description: 'A4 paper, ream', quantity: 12, unitPrice: 100 }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const bill = res.json();
    // Its lines name no order line, so it is matched in value: 12 × 100.00 = 1,200.00 billed (excl.
    // VAT) against 10 × 100.00 = 1,000.00 received.
    assert.equal(bill.purchaseOrderNumber, 'PO-0001'); // filled from the order
    assert.equal(
      bill.receiptMismatch,
      'This bill bills more than was received on purchase order PO-0001: R 1 200.00 billed (excl. VAT) ' +
        'against R 1 000.00 received',
    );
    await act(p, bill.id, 'submit');
    const refused = await p.api({ method: 'POST', url: `/api/bills/${bill.id}/approve` });
    const problem = assertProblem(refused, 409);
    assert.equal(problem.code, 'RECEIPT_MISMATCH');
    assert.ok(String(problem.detail).startsWith(bill.receiptMismatch), String(problem.detail));
    assert.equal((await get(p, po.id)).status, 'received'); // nothing changed
    const ok = await act(p, bill.id, 'approve', { acceptMismatch: true });
    assert.equal(ok.status, 'approved');
    assert.equal(ok.receiptMismatch, bill.receiptMismatch); // the reason stays on the approved bill
    // 1,200.00 + VAT 180.00 = 1,380.00 owed to the supplier.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000']), [-1380]);
  });

  test('a bill that came before the goods is held, and released at approval once they are received', async () => {
    const p = await setup();
    const po = await sentOrder(p);
    const res = await p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: p.supplierId,
        billNumber: 'KOS-4001',
        issueDate: '2026-03-04',
        dueDate: '2026-04-03',
        purchaseOrderId: po.id,
        lines: REAMS,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    // 10 × 100.00 = 1,000.00 billed, nothing received yet (R 0.00).
    assert.match(res.json().receiptMismatch, /R 1 000\.00 billed \(excl\. VAT\) against R 0\.00 received$/);
    await received(p, po.id, [{ lineId: po.lines[0].id, quantity: 10 }]);
    // Matched again at approval: 1,000.00 billed against 1,000.00 received, no acceptMismatch needed.
    const ok = await act(p, res.json().id, 'approve');
    assert.equal(ok.status, 'approved');
    assert.equal(ok.receiptMismatch, null);
  });

  test('a bill of what was received is not held; the order must be a sent one of the same supplier', async () => {
    const p = await setup();
    const po = await sentOrder(p);
    await received(p, po.id, [{ lineId: po.lines[0].id, quantity: 10 }]);
    const bill = (body: Record<string, unknown>) =>
      p.api({
        method: 'POST',
        url: '/api/bills',
        payload: {
          contactId: p.supplierId,
          billNumber: `KOS-${Math.random().toString(36).slice(2, 8)}`,
          issueDate: '2026-03-10',
          dueDate: '2026-04-09',
          lines: REAMS,
          ...body,
        },
      });
    const fine = await bill({ purchaseOrderId: po.id });
    assert.equal(fine.statusCode, 201, fine.body);
    assert.equal(fine.json().receiptMismatch, null);
    const none = await bill({ purchaseOrderId: crypto.randomUUID() });
    assertProblem(none, 400);
    assert.equal(fieldOf(none), 'purchaseOrderId');
    const draft = await order(p);
    const unsent = await bill({ purchaseOrderId: draft.id });
    assertProblem(unsent, 400);
    assert.equal(fieldOf(unsent), 'purchaseOrderId');
  });
});

describe('drafts, cancelling, listing', () => {
  test('a draft changes (lines replaced) and is deleted; once sent it does not change', async () => {
    const p = await setup();
    const po = await order(p);
    const patched = await p.api({
      method: 'PATCH',
      url: `/api/purchase-orders/${po.id}`,
      payload: {
        reference: 'Stationery, March',
        lines: [
          { description: 'A4 paper, ream', quantity: 20, unitPrice: 95 },
          { description: 'Delivery', quantity: 1, unitPrice: 50, taxCode: 'zero' },
        ],
      },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    // 20 × 95.00 = 1,900.00 at 15% = 285.00; delivery 50.00 zero-rated: 1,950.00 + 285.00 = 2,235.00.
    const p2 = patched.json();
    assert.deepEqual([p2.subtotal, p2.vatTotal, p2.total, p2.lines.length], [1950, 285, 2235, 2]);
    const unknown = await p.api({
      method: 'PATCH',
      url: `/api/purchase-orders/${po.id}`,
      payload: { colour: 'red' },
    });
    assertProblem(unknown, 400);
    const del = await p.api({ method: 'DELETE', url: `/api/purchase-orders/${po.id}` });
    assert.equal(del.statusCode, 200, del.body);
    assert.match(del.json().ledgerNotice, /Nothing in the ledger changed/);
    assert.equal((await p.api({ method: 'GET', url: `/api/purchase-orders/${po.id}` })).statusCode, 404);
    // The counter goes on: a deleted draft keeps its number.
    const next = await sentOrder(p);
    assert.equal(next.number, 'PO-0002');
    const late = await p.api({
      method: 'PATCH',
      url: `/api/purchase-orders/${next.id}`,
      payload: { notes: 'x' },
    });
    assert.equal(assertProblem(late, 409).code, 'NOT_A_DRAFT');
  });

  test('a sent order is cancelled (DELETE or cancel); a draft is not cancelled', async () => {
    const p = await setup();
    const draft = await order(p);
    const c1 = await p.api({ method: 'POST', url: `/api/purchase-orders/${draft.id}/cancel` });
    assert.equal(assertProblem(c1, 409).code, 'ORDER_NOT_SENT');
    const po = await sentOrder(p);
    await received(p, po.id, [{ lineId: po.lines[0].id, quantity: 3 }]);
    const cancelled = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/cancel` });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().status, 'cancelled');
    assert.deepEqual(line(cancelled.json()), [10, 3, 0]); // what came stays recorded
    const more = await receive(p, po.id, [{ lineId: po.lines[0].id, quantity: 1 }]);
    assert.equal(assertProblem(more, 409).code, 'ORDER_CLOSED');
    const other = await sentOrder(p);
    const del = await p.api({ method: 'DELETE', url: `/api/purchase-orders/${other.id}` });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().status, 'cancelled');
    assert.equal((await get(p, other.id)).status, 'cancelled');
  });

  test('the paged list filters by status and supplier; a clientId replay answers 200', async () => {
    const p = await setup();
    const clientId = crypto.randomUUID();
    const first = await createOrder(p, { clientId });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers.location, `/api/purchase-orders/${clientId}`);
    const again = await createOrder(p, { clientId });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().number, first.json().number);
    await sentOrder(p);
    const drafts = await fetched(sales(p), '/api/purchase-orders?status=draft');
    assert.deepEqual(
      drafts.items.map((o: { id: string }) => o.id),
      [clientId],
    );
    assert.equal(drafts.total ?? drafts.items.length, 1);
    const all = await fetched(sales(p), `/api/purchase-orders?contactId=${p.supplierId}`);
    assert.equal(all.items.length, 2);
    const customer = await p.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'A Customer', contactType: 'CUSTOMER' },
    });
    const wrong = await createOrder(p, { contactId: customer.json().id });
    assertProblem(wrong, 400);
    assert.equal(fieldOf(wrong), 'contactId');
  });
});

describe('the PDF', () => {
  test('a real PDF naming the order, the supplier, the lines and the total', async () => {
    const p = await setup();
    const po = await order(p, { deliveryAddress: '12 Long Street, Cape Town' });
    const res = await p.api({ method: 'GET', url: `/api/purchase-orders/${po.id}/pdf` });
    assert.equal(res.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const [page] = await pdfOf(res, /PO-0001\.pdf/);
    for (const s of [
      'Purchase Order PO-0001',
      'Protea Trading (Pty) Ltd',
      'Karoo Office Supplies CC',
      '12 Long Street, Cape Town',
      'A4 paper, ream',
      '1 150.00',
      'DRAFT',
    ]) {
      assert.ok(page!.includes(s), `"${s}" in:\n${page}`);
    }
  });
});

describe('access', () => {
  test("another tenant's order is 404; a free plan is 403 MODULE_NOT_LICENSED", async () => {
    const p = await setup();
    const po = await order(p);
    const other = await setup();
    for (const [method, url] of [
      ['GET', `/api/purchase-orders/${po.id}`],
      ['GET', `/api/purchase-orders/${po.id}/pdf`],
      ['POST', `/api/purchase-orders/${po.id}/cancel`],
    ] as const) {
      assertProblem(await other.api({ method, url }), 404, `${method} ${url}`);
    }
    const b = await register(t.app, { plan: 'free' });
    const free = await purchasesSetup(t, b);
    const res = await createOrder(free);
    assert.equal(assertProblem(res, 403).code, 'MODULE_NOT_LICENSED');
    const list = await free.api({ method: 'GET', url: '/api/purchase-orders' });
    assert.equal(assertProblem(list, 403).code, 'MODULE_NOT_LICENSED');
  });
});
