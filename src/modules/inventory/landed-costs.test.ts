// Landed costs with worked figures: freight on stock still on hand raises its cost (average and
// FIFO), on units sold goes to cost of sales; shares sum exactly (largest remainder); a bill
// line is spread once; posting twice is a 409.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { money } from '../../platform/money/money.ts';
import { type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { largestRemainder } from './landed-costs.allocate.ts';
import {
  accountBalanceForTest,
  balanceForTest,
  poolForTest,
  productForTest,
  receiveForTest,
  secondCompanyForTest,
} from './ops.test-support.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let p: Purchases;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
  p = await purchasesSetup(t, a);
});
after(() => t.close());

let billNo = 0;
/** An approved bill with one exempt freight line of `amount` (net = amount, no VAT). */
async function freightBill(amount: number) {
  const res = await api({
    method: 'POST',
    url: '/api/bills',
    payload: {
      contactId: p.supplierId,
      billNumber: `FRT-${++billNo}`,
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'Sea freight', quantity: 1, unitPrice: amount, taxCode: 'exempt' }],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const approved = await api({ method: 'POST', url: `/api/bills/${res.json().id}/approve` });
  assert.equal(approved.statusCode, 200, approved.body);
  const bill = approved.json();
  return {
    billId: bill.id as string,
    billLineId: bill.lines[0].id as string,
    accountId: bill.lines[0].accountId as string,
  };
}

async function landed(body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/landed-costs', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('landed costs', () => {
  test('average: 10 @ R100, R200 freight by value → unit cost R120; the next sale costs R120', async () => {
    const item = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, { productId: item, quantity: 10, unitCost: 100 });
    const bill = await freightBill(200);
    const expensesBefore = await accountBalanceForTest(t, a, bill.accountId);
    const inventoryBefore = await balanceForTest(t, a, 'inventory');

    const lc = await landed({
      date: '2026-03-10',
      method: 'value',
      charges: [{ ...bill, accountId: undefined, amount: 200 }],
      receipts: [receipt],
    });
    assert.equal(lc.status, 'draft');
    assert.equal(lc.amount, 200);
    assert.deepEqual(lc.allocations, [{ movementId: receipt, productId: item, amount: 200 }]);
    const posted = await api({ method: 'POST', url: `/api/landed-costs/${lc.id}/post` });
    assert.equal(posted.statusCode, 200, posted.body);
    assert.equal(posted.json().status, 'posted');
    assert.ok(posted.json().entryId);
    // Dr inventory R200, Cr the freight line's account R200 (the bill's debit there is undone).
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore + 200);
    assert.equal(await accountBalanceForTest(t, a, bill.accountId), expensesBefore - 200);
    // R1,000 + R200 = R1,200 for 10 → R120 each.
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 10, value: 1200 });
    const cosBefore = await balanceForTest(t, a, 'cost_of_sales');
    await receiveForTest(t, a, { productId: item, quantity: -1, unitCost: 0, type: 'sale' });
    assert.equal(await balanceForTest(t, a, 'cost_of_sales'), cosBefore + 120);

    const twice = await api({ method: 'POST', url: `/api/landed-costs/${lc.id}/post` });
    assert.equal(assertProblem(twice, 409).code, 'LANDED_COST_POSTED');
    // The line's R200 is spread in full: another landed cost on it is a 409.
    const again = await api({
      method: 'POST',
      url: '/api/landed-costs',
      payload: {
        date: '2026-03-11',
        method: 'value',
        charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 1 }],
        receipts: [receipt],
      },
    });
    assert.equal(assertProblem(again, 409).code, 'BILL_LINE_USED');
  });

  test('FIFO with part sold: the sold part to cost of sales, the rest on the layer; next sale at the landed cost', async () => {
    const item = await productForTest(t, a, { costMethod: 'fifo' });
    // A: 10 @ R100 (R1,000); B: 10 @ R50 (R500). 5 sold first, from A (FIFO): cost R500.
    const ra = await receiveForTest(t, a, {
      productId: item,
      quantity: 10,
      unitCost: 100,
      date: '2026-03-01',
    });
    const rb = await receiveForTest(t, a, {
      productId: item,
      quantity: 10,
      unitCost: 50,
      date: '2026-03-02',
    });
    await receiveForTest(t, a, {
      productId: item,
      quantity: -5,
      unitCost: 0,
      type: 'sale',
      date: '2026-03-03',
    });
    const bill = await freightBill(300);
    const cosBefore = await balanceForTest(t, a, 'cost_of_sales');
    const inventoryBefore = await balanceForTest(t, a, 'inventory');
    // R300 by value over R1,000 and R500 → A R200, B R100.
    const lc = await landed({
      date: '2026-03-10',
      method: 'value',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 300 }],
      receipts: [ra, rb],
    });
    assert.deepEqual(
      lc.allocations.map((x: { amount: number }) => x.amount),
      [200, 100],
    );
    const posted = await api({ method: 'POST', url: `/api/landed-costs/${lc.id}/post` });
    assert.equal(posted.statusCode, 200, posted.body);
    // A: 5 of 10 left → R100 on the layer, R100 to cost of sales; B: all left → R100 on its layer.
    assert.equal(await balanceForTest(t, a, 'cost_of_sales'), cosBefore + 100);
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore + 200);
    // Pool: R1,500 − R500 sold + R200 = R1,200 for 15.
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 15, value: 1200 });
    // Next 5 sold come from A's layer: R500 + R100 = R600 (R120 each).
    await receiveForTest(t, a, {
      productId: item,
      quantity: -5,
      unitCost: 0,
      type: 'sale',
      date: '2026-03-11',
    });
    assert.equal(await balanceForTest(t, a, 'cost_of_sales'), cosBefore + 100 + 600);
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 10, value: 600 });
  });

  test('shares by quantity sum exactly: R100 over three equal receipts → 33.34, 33.33, 33.33', async () => {
    const item = await productForTest(t, a);
    const r = [];
    for (let i = 0; i < 3; i++)
      r.push(await receiveForTest(t, a, { productId: item, quantity: 2, unitCost: 10 }));
    const bill = await freightBill(100);
    const lc = await landed({
      date: '2026-03-10',
      method: 'quantity',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 100 }],
      receipts: r,
    });
    assert.deepEqual(
      lc.allocations.map((x: { amount: number }) => x.amount),
      [33.34, 33.33, 33.33],
    );
    // 1 cent over 7 receipts of 1, 1, 1, 1, 1, 1, 1 → the first takes it.
    assert.deepEqual(
      largestRemainder(
        money('0.01'),
        Array.from({ length: 7 }, () => money(1)),
      ).map((d) => d.toNumber()),
      [0.01, 0, 0, 0, 0, 0, 0],
    );
    // A draft deleted frees its line (so the weight check below is reached); another tenant's id is a 404.
    const del = await api({ method: 'DELETE', url: `/api/landed-costs/${lc.id}` });
    assert.equal(del.statusCode, 204);
    // Weight without a product weight is a 400 naming the receipt.
    const weight = await api({
      method: 'POST',
      url: '/api/landed-costs',
      payload: {
        date: '2026-03-10',
        method: 'weight',
        charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 1 }],
        receipts: [r[0]],
      },
    });
    assert.equal(assertProblem(weight, 400).field, 'receipts[0]');
    const b = await register(t.app, { plan: 'business' });
    const other = await as(t.app, b.token, b.companyId)({ method: 'GET', url: `/api/landed-costs/${lc.id}` });
    assertProblem(other, 404);
    const list = await api({ method: 'GET', url: '/api/landed-costs?status=posted' });
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().total, 2);
    const deleted = await api({ method: 'GET', url: `/api/landed-costs/${lc.id}` });
    assertProblem(deleted, 404);
  });
});

describe('clientId on a landed cost', () => {
  test('sent twice: 201 then 200 (the bill line is not taken twice); posted twice at once: R200 once', async () => {
    const item = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, { productId: item, quantity: 10, unitCost: 100 });
    const bill = await freightBill(200);
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      date: '2026-03-10',
      method: 'value',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 200 }],
      receipts: [receipt],
    };
    const first = await api({ method: 'POST', url: '/api/landed-costs', payload });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    // Without the clientId check first, the replay would be a 409 BILL_LINE_USED (its own R200).
    const again = await api({ method: 'POST', url: '/api/landed-costs', payload });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());

    const inventoryBefore = await balanceForTest(t, a, 'inventory');
    const [x, y] = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', url: `/api/landed-costs/${clientId}/post` })),
    );
    // The row lock: the second sees it posted, 409 LANDED_COST_POSTED.
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 409]);
    // R1,000 + R200 once = R1,200 for 10 (R120 each); Dr inventory R200 once.
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 10, value: 1200 });
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore + 200);
    const later = await api({ method: 'POST', url: '/api/landed-costs', payload });
    assert.equal(later.statusCode, 200, later.body);
    assert.equal(later.json().status, 'posted');
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 10, value: 1200 });
  });

  test("two at once: one 201 and one 200; another company's id, or a deleted draft's, is 409 clientId", async () => {
    const item = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, { productId: item, quantity: 4, unitCost: 50 });
    const bill = await freightBill(40);
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      date: '2026-03-10',
      method: 'quantity',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 40 }],
      receipts: [receipt],
    };
    const [x, y] = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', url: '/api/landed-costs', payload })),
    );
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 201], `${x!.body} ${y!.body}`);
    assert.deepEqual(x!.json(), y!.json());
    // One draft holds the line's R40: one charge of R40, one share of R40.
    assert.deepEqual(
      x!.json().allocations.map((l: { amount: number }) => l.amount),
      [40],
    );

    const other = await secondCompanyForTest(t, a);
    const clash = await other({ method: 'POST', url: '/api/landed-costs', payload });
    assert.equal(assertProblem(clash, 409).field, 'clientId');

    const del = await api({ method: 'DELETE', url: `/api/landed-costs/${clientId}` });
    assert.equal(del.statusCode, 204);
    const gone = await api({ method: 'POST', url: '/api/landed-costs', payload });
    assert.equal(assertProblem(gone, 409).field, 'clientId');
    // The line is free again for a new landed cost (a new id).
    const fresh = await api({
      method: 'POST',
      url: '/api/landed-costs',
      payload: { ...payload, clientId: undefined },
    });
    assert.equal(fresh.statusCode, 201, fresh.body);
  });
});

describe('landed costs: the units gone, the charge, the date (issue 34, items 3, 4, 7)', () => {
  test('average, 10 held before, 10 received, 10 sold: half the freight is on units gone → cost of sales', async () => {
    const item = await productForTest(t, a);
    await receiveForTest(t, a, { productId: item, quantity: 10, unitCost: 100, date: '2026-03-01' });
    const receipt = await receiveForTest(t, a, {
      productId: item,
      quantity: 10,
      unitCost: 100,
      date: '2026-03-02',
    });
    await receiveForTest(t, a, {
      productId: item,
      quantity: -10,
      unitCost: 0,
      type: 'sale',
      date: '2026-03-03',
    });
    const bill = await freightBill(200);
    const cosBefore = await balanceForTest(t, a, 'cost_of_sales');
    const inventoryBefore = await balanceForTest(t, a, 'inventory');
    const lc = await landed({
      date: '2026-03-10',
      method: 'value',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 200 }],
      receipts: [receipt],
    });
    const posted = await api({ method: 'POST', url: `/api/landed-costs/${lc.id}/post` });
    assert.equal(posted.statusCode, 200, posted.body);
    // IAS 2.25/27 weighted average: had the R200 been on the receipt, the pool after it would have
    // been 20 units at R2,200 (R110 each) and the 10 sold would have cost R1,100, not R1,000. So
    // R100 is the cost of units gone (cost of sales) and R100 stays on the 10 held (R1,100, R110).
    // 10 on hand are not "the receipt's 10": the pool keeps no units apart.
    assert.equal(await balanceForTest(t, a, 'cost_of_sales'), cosBefore + 100);
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore + 100);
    assert.deepEqual(await poolForTest(t, a, item), { quantity: 10, value: 1100 });
  });

  test('the charge is a service or expense line of a bill, never a line of stock: 400 naming it', async () => {
    const item = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, { productId: item, quantity: 5, unitCost: 10 });
    // A bill buying 1 more of the item (a stock line: posted to inventory, not to its account).
    const res = await api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: p.supplierId,
        billNumber: `STK-${++billNo}`,
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [{ description: 'One more', quantity: 1, unitPrice: 10, taxCode: 'exempt', productId: item }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const approved = await api({ method: 'POST', url: `/api/bills/${res.json().id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    const inventoryBefore = await balanceForTest(t, a, 'inventory');
    const refused = await api({
      method: 'POST',
      url: '/api/landed-costs',
      payload: {
        date: '2026-03-10',
        method: 'value',
        charges: [{ billId: res.json().id, billLineId: approved.json().lines[0].id, amount: 10 }],
        receipts: [receipt],
      },
    });
    // Spread, it would have put R10 on inventory a second time and credited General expenses
    // R10 the bill never debited there.
    assert.equal(assertProblem(refused, 400).field, 'charges[0].billLineId');
    assert.equal(await balanceForTest(t, a, 'inventory'), inventoryBefore);
  });

  test('dated before its receipt: 400 naming date (value cannot come before the goods)', async () => {
    const item = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, {
      productId: item,
      quantity: 5,
      unitCost: 10,
      date: '2026-03-05',
    });
    const bill = await freightBill(30);
    const early = await api({
      method: 'POST',
      url: '/api/landed-costs',
      payload: {
        date: '2026-03-04',
        method: 'value',
        charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 30 }],
        receipts: [receipt],
      },
    });
    assert.equal(assertProblem(early, 400).field, 'date');
    // The receipt's own day is fine.
    const same = await landed({
      date: '2026-03-05',
      method: 'value',
      charges: [{ billId: bill.billId, billLineId: bill.billLineId, amount: 30 }],
      receipts: [receipt],
    });
    assert.equal(same.status, 'draft');
  });
});
