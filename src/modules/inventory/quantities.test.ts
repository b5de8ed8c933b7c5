// Issue 34, item 8: quantities are kept to four decimals (NUMERIC(20,4), (18,4)) and answered as
// stored, not rounded to cents as money is: 3.7035 kg stays 3.7035 in every answer that shows it
// (on hand, valuation, movements, transfers, stock takes, batches, bill lines, purchase-order
// lines and their receipts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { created } from '../bills/bills.factories.ts';
import { order, received, sentOrder } from '../purchase-orders/purchase-orders.factories.ts';
import { type Books, booksSetup } from './flows.factories.ts';
import { locationForTest, mainForTest } from './ops.test-support.ts';
import { adjust, stockProduct } from './stock.factories.ts';

let t: TestApp;
let k: Books;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
});
after(() => t.close());

const get = async (url: string) => {
  const res = await k.p.api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

describe('quantities answered as stored, to four decimals', () => {
  test('3.7035 kg in, 1.2345 kg moved: every stock answer shows the four decimals', async () => {
    const flour = await stockProduct(t, k.p.api, k.b.tenantId, { allowNegative: false });
    const main = await mainForTest(t, k.b);
    const bakery = await locationForTest(t, k.b, 'BAKERY');
    // 3.7035 kg @ R10.00 = R37.035 → R37.04 (cents, half-up): the value is money, the weight is not.
    await adjust(k.p.api, '2026-03-01', [{ productId: flour, quantity: 3.7035, unitCost: 10 }], {
      type: 'opening',
    });
    const moves = await get(`/api/inventory/movements?productId=${flour}`);
    assert.deepEqual(
      moves.items.map((m: { quantity: number; value: number }) => [m.quantity, m.value]),
      [[3.7035, 37.04]],
    );
    const sent = await k.p.api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: bakery,
        date: '2026-03-02',
        lines: [{ productId: flour, quantity: 1.2345 }],
      },
    });
    assert.equal(sent.statusCode, 201, sent.body);
    assert.equal(sent.json().lines[0].quantity, 1.2345);
    const got = await k.p.api({
      method: 'POST',
      url: `/api/inventory/transfers/${sent.json().id}/receive`,
      payload: { date: '2026-03-02' },
    });
    assert.equal(got.statusCode, 200, got.body);
    // By hand: 3.7035 − 1.2345 = 2.4690 kg at MAIN, 1.2345 kg at the bakery, 3.7035 kg in all.
    const stock = await get(`/api/inventory/stock?productId=${flour}`);
    const line = stock.items[0];
    assert.equal(line.quantity, 3.7035);
    const at = Object.fromEntries(
      line.lines.map((l: { locationId: string; quantity: number }) => [l.locationId, l.quantity]),
    );
    assert.deepEqual([at[main], at[bakery]], [2.469, 1.2345]);
    const v = await get('/api/inventory/valuation?asOf=2026-03-31');
    const mine = v.lines.filter((l: { productId: string }) => l.productId === flour);
    assert.deepEqual(mine.map((l: { quantity: number }) => l.quantity).sort(), [1.2345, 2.469]);
    assert.equal(v.difference, 0);
    const take = await k.p.api({
      method: 'POST',
      url: '/api/inventory/stock-takes',
      payload: { date: '2026-03-31', locationId: main, productIds: [flour] },
    });
    assert.equal(take.statusCode, 201, take.body);
    assert.equal(take.json().lines[0].expected, 2.469);
  });

  test('a batch of 0.0005 kg short of a kilogram: on hand 0.9995', async () => {
    const yeast = await stockProduct(t, k.p.api, k.b.tenantId, { tracking: 'batch' });
    await adjust(
      k.p.api,
      '2026-03-01',
      [{ productId: yeast, quantity: 0.9995, unitCost: 40, batchCode: 'Y-1' }],
      {
        type: 'opening',
      },
    );
    const batches = await get(`/api/inventory/batches?productId=${yeast}`);
    assert.equal(batches[0].onHand, 0.9995);
  });

  test('bill and purchase-order lines: 3.7035 ordered, 1.2345 received, as given', async () => {
    const bill = await created(k.p, {
      billNumber: 'QTY-1',
      lines: [{ description: 'Cake flour, kg', quantity: 3.7035, unitPrice: 10 }],
    });
    // 3.7035 × R10.00 = R37.035 → R37.04 net (half-up); VAT 15% of it R5.556 → R5.56.
    assert.deepEqual(
      [bill.lines[0].quantity, bill.lines[0].netAmount, bill.vatAmount],
      [3.7035, 37.04, 5.56],
    );
    const po = await sentOrder(k.p, {
      lines: [{ description: 'Cake flour, kg', quantity: 3.7035, unitPrice: 10 }],
    });
    const after = await received(k.p, po.id, [{ lineId: po.lines[0].id, quantity: 1.2345 }]);
    assert.deepEqual(
      [after.lines[0].quantity, after.lines[0].quantityReceived, after.receipts[0].lines[0].quantity],
      [3.7035, 1.2345, 1.2345],
    );
    // A unit price is kept to four decimals too: 3 × R3.3333 = R9.9999 → R10.00 net.
    const draft = await order(k.p, {
      lines: [{ description: 'Rye, kg', quantity: 0.0001, unitPrice: 3.3333 }],
    });
    assert.deepEqual([draft.lines[0].quantity, draft.lines[0].unitPrice], [0.0001, 3.3333]);
    const priced = await created(k.p, {
      billNumber: 'QTY-2',
      lines: [{ description: 'Rye, kg', quantity: 3, unitPrice: 3.3333 }],
    });
    assert.deepEqual([priced.lines[0].unitPrice, priced.lines[0].netAmount], [3.3333, 10]);
  });
});
