// Batches, serials and units on document lines: bought in by batch and serial, sold first expiry
// first out over several batches, returned with the batch and serial they left with, and lines
// counted in a unit of the product (a box of 12).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, release } from '../invoices/invoices.factories.ts';
import {
  approvedBill,
  type Books,
  books,
  booksSetup,
  movementCount,
  product,
  stock,
} from './flows.factories.ts';
import { secondCompanyForTest } from './ops.test-support.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

const line = (productId: string, quantity: number, o: Record<string, unknown> = {}) => ({
  description: 'Goods',
  quantity,
  unitPrice: 20,
  productId,
  ...o,
});

async function batches(productId: string): Promise<Record<string, number>> {
  const res = await k.p.api({ method: 'GET', url: `/api/inventory/batches?productId=${productId}` });
  assert.equal(res.statusCode, 200, res.body);
  return Object.fromEntries(res.json().map((b: { code: string; onHand: number }) => [b.code, b.onHand]));
}

async function serialAt(productId: string, serial: string) {
  const res = await k.p.api({
    method: 'GET',
    url: `/api/inventory/serials?productId=${productId}&serial=${serial}`,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().items[0]?.locationId ?? null;
}

describe('batches on bill and sales lines (FIFO cost)', () => {
  let milk: string;
  let invoiceId: string;
  test('bill A 5 @ R10 (expires 2027-01-31), then bill B 5 @ R12 (expires 2026-12-31): 10 worth R110', async () => {
    milk = await product(k, 'MILK', { tracking: 'batch', cost_method: 'fifo', allow_negative: false });
    await approvedBill(k, 'B-A', [
      line(milk, 5, { unitPrice: 10, batchCode: 'A', batchExpiry: '2027-01-31' }),
    ]);
    await approvedBill(k, 'B-B', [
      line(milk, 5, { unitPrice: 12, batchCode: 'B', batchExpiry: '2026-12-31' }),
    ]);
    // 5 × R10 + 5 × R12 = R110 in 1200.
    assert.deepEqual(await stock(k, milk), { quantity: 10, value: 110 });
    assert.deepEqual(await batches(milk), { B: 5, A: 5 });
  });

  test('a bill line of a batch product without its batch: 400 naming lines[0].batchCode', async () => {
    const res = await k.p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: k.p.supplierId,
        billNumber: 'B-none',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [line(milk, 1)],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const ok = await k.p.api({ method: 'POST', url: `/api/bills/${res.json().id}/approve` });
    assert.match(JSON.stringify(assertProblem(ok, 400)), /lines\[0\]\.batchCode/);
  });

  test('selling 6 with no batch named: FEFO takes 5 from B (first expiry) then 1 from A; FIFO cost R62', async () => {
    const before = await books(k);
    const inv = await release(k.s, (await createDoc(k.s, { lines: [line(milk, 6)] })).id);
    invoiceId = inv.id;
    // Cost is by FIFO layers whatever the batch: the oldest layer (A's 5 @ R10) = R50, then 1 of
    // B's layer @ R12 = R12 → cost of sales R62; left 4 @ R12 = R48.
    const now = await books(k);
    assert.equal(now.costOfSales - before.costOfSales, 62);
    assert.equal(now.inventory, 48);
    assert.deepEqual(await stock(k, milk), { quantity: 4, value: 48 });
    assert.deepEqual(await batches(milk), { B: 0, A: 4 });
  });

  test('a credit note of 1 naming batch A brings it back to A at the R12 that movement left with', async () => {
    const cn = await createDoc(k.s, {
      documentType: 'credit_note',
      creditedInvoiceId: invoiceId,
      lines: [line(milk, 1, { batchCode: 'A' })],
    });
    await release(k.s, cn.id);
    // The A movement (1 out) cost R12 (B's layer): back at R12 → 5 worth R60.
    assert.deepEqual(await stock(k, milk), { quantity: 5, value: 60 });
    assert.deepEqual(await batches(milk), { B: 0, A: 5 });
  });

  test('a credit note of 2 naming no batch takes those of the first sale movement (B, 5 out at R50) → R20', async () => {
    const cn = await createDoc(k.s, {
      documentType: 'credit_note',
      creditedInvoiceId: invoiceId,
      lines: [line(milk, 2)],
    });
    await release(k.s, cn.id);
    // 2 of the 5 that left B at R50: R50 × 2/5 = R20 → 7 worth R80.
    assert.deepEqual(await stock(k, milk), { quantity: 7, value: 80 });
    assert.deepEqual(await batches(milk), { B: 2, A: 5 });
  });

  test('selling 8 when 7 are in batches: 409 INSUFFICIENT_STOCK, nothing written', async () => {
    const before = await movementCount(k);
    const draft = await createDoc(k.s, { lines: [line(milk, 8)] });
    const res = await k.s.api({ method: 'POST', url: `/api/invoices/${draft.id}/release` });
    assert.equal(assertProblem(res, 409).code, 'INSUFFICIENT_STOCK');
    assert.equal(await movementCount(k), before);
  });

  test('a batch code on a product not batch-tracked: 400 naming lines[0].batchCode', async () => {
    const plain = await product(k, 'PLAIN');
    const res = await k.s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: k.s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [line(plain, 1, { batchCode: 'X' })],
      },
    });
    assert.match(JSON.stringify(assertProblem(res, 400)), /lines\[0\]\.batchCode/);
  });
});

describe('serials on bill and sales lines', () => {
  let phone: string;
  let invoiceId: string;
  test('a bill of 2 phones at R300 each with serials SN1, SN2: two movements of R300, both in stock', async () => {
    phone = await product(k, 'PHONE', { tracking: 'serial', allow_negative: false });
    const before = await movementCount(k);
    const bill = await approvedBill(k, 'P-1', [line(phone, 2, { unitPrice: 300, serials: ['SN1', 'SN2'] })]);
    assert.deepEqual(bill.lines[0].serials, ['SN1', 'SN2']);
    assert.equal(await movementCount(k), before + 2);
    assert.deepEqual(await stock(k, phone), { quantity: 2, value: 600 });
    assert.ok(await serialAt(phone, 'SN2'));
  });

  test('serials not one per unit: 400 naming lines[0].serials when the bill is made', async () => {
    const res = await k.p.api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: k.p.supplierId,
        billNumber: 'P-bad',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [line(phone, 2, { serials: ['SN3'] })],
      },
    });
    assert.match(JSON.stringify(assertProblem(res, 400)), /lines\[0\]\.serials/);
  });

  test('a sale of a serial product naming no serials: 400 naming lines[0].serials, nothing written', async () => {
    const before = await movementCount(k);
    const draft = await createDoc(k.s, { lines: [line(phone, 1)] });
    const res = await k.s.api({ method: 'POST', url: `/api/invoices/${draft.id}/release` });
    assert.match(JSON.stringify(assertProblem(res, 400)), /lines\[0\]\.serials/);
    assert.equal(await movementCount(k), before);
  });

  test('selling SN2 takes it out at the average R300; the line answers its serial', async () => {
    const inv = await release(
      k.s,
      (await createDoc(k.s, { lines: [line(phone, 1, { serials: ['SN2'] })] })).id,
    );
    invoiceId = inv.id;
    assert.deepEqual(inv.lines[0].serials, ['SN2']);
    assert.equal(await serialAt(phone, 'SN2'), null);
    assert.deepEqual(await stock(k, phone), { quantity: 1, value: 300 });
  });

  test('a credit note naming no serial brings back SN2, the serial of the movement it reverses', async () => {
    const cn = await createDoc(k.s, {
      documentType: 'credit_note',
      creditedInvoiceId: invoiceId,
      lines: [line(phone, 1)],
    });
    await release(k.s, cn.id);
    assert.ok(await serialAt(phone, 'SN2'));
    assert.deepEqual(await stock(k, phone), { quantity: 2, value: 600 });
  });
});

describe('units on lines', () => {
  let nails: string;
  test('a box of 12 bought at R120 → 12 each at R10; selling 3 each costs R30', async () => {
    nails = await product(k, 'NAILS');
    const u = await k.p.api({
      method: 'POST',
      url: `/api/inventory/products/${nails}/units`,
      payload: { name: 'box', factor: 12 },
    });
    assert.equal(u.statusCode, 201, u.body);
    const bill = await approvedBill(k, 'N-1', [line(nails, 1, { unitPrice: 120, unit: 'box' })]);
    assert.equal(bill.lines[0].unit, 'box');
    // 1 box = 12 base units, R120 net → R10 each.
    assert.deepEqual(await stock(k, nails), { quantity: 12, value: 120 });
    const before = await books(k);
    await release(k.s, (await createDoc(k.s, { lines: [line(nails, 3, { unit: 'each' })] })).id);
    // 3 × R10 = R30 to cost of sales; 9 left worth R90.
    assert.equal((await books(k)).costOfSales - before.costOfSales, 30);
    assert.deepEqual(await stock(k, nails), { quantity: 9, value: 90 });
  });

  test('selling 0.5 box moves 6 each (R60)', async () => {
    await release(k.s, (await createDoc(k.s, { lines: [line(nails, 0.5, { unit: 'BOX' })] })).id);
    assert.deepEqual(await stock(k, nails), { quantity: 3, value: 30 });
  });

  test('a unit the product does not have: 400 naming lines[0].unit', async () => {
    const res = await k.s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: k.s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [line(nails, 1, { unit: 'crate' })],
      },
    });
    assert.match(JSON.stringify(assertProblem(res, 400)), /lines\[0\]\.unit/);
  });
});

describe('clientId on a stock adjustment', () => {
  test('sent twice: 201 then 200 with the same adjustment, stock moved once (5 @ R8 = R40)', async () => {
    const bolt = await product(k, 'ADJ-1');
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      date: '2026-03-01',
      reason: 'Found in the back',
      lines: [{ productId: bolt, quantity: 5, unitCost: 8 }],
    };
    const first = await k.p.api({ method: 'POST', url: '/api/inventory/adjustments', payload });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    const again = await k.p.api({ method: 'POST', url: '/api/inventory/adjustments', payload });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    assert.deepEqual(await stock(k, bolt), { quantity: 5, value: 40 });
  });

  test("two at once: one 201 and one 200, 3 @ R7 = R21 in once; another company's id is 409 clientId", async () => {
    const nut = await product(k, 'ADJ-2');
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      date: '2026-03-01',
      reason: 'Counted in',
      lines: [{ productId: nut, quantity: 3, unitCost: 7 }],
    };
    const [x, y] = await Promise.all(
      [1, 2].map(() => k.p.api({ method: 'POST', url: '/api/inventory/adjustments', payload })),
    );
    // Without the lock the loser's entry would clash on its primary key: a bare 409.
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 201], `${x!.body} ${y!.body}`);
    assert.deepEqual(await stock(k, nut), { quantity: 3, value: 21 });
    const other = await secondCompanyForTest(k.t, k.b);
    const clash = await other({ method: 'POST', url: '/api/inventory/adjustments', payload });
    assert.equal(assertProblem(clash, 409).field, 'clientId');
  });
});
