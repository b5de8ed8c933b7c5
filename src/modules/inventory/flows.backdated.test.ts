// Issue 34, item 5: a back-dated sale of a product that refuses negative stock is checked against
// what was on hand at the invoice's date and at every later date, per location, not against what
// is on hand now: otherwise the valuation at that date shows units below zero.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, release } from '../invoices/invoices.factories.ts';
import { type Books, booksSetup, movementCount } from './flows.factories.ts';
import { locationForTest, mainForTest } from './ops.test-support.ts';
import { adjust, adjustRaw, stockProduct } from './stock.factories.ts';

let t: TestApp;
let k: Books;
let main: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
  main = await mainForTest(t, k.b);
});
after(() => t.close());

const api = () => k.p.api;
const refusing = () => stockProduct(t, api(), k.b.tenantId, { allowNegative: false });

const draft = (productId: string, quantity: number, issueDate: string) =>
  createDoc(k.s, {
    issueDate,
    dueDate: issueDate,
    lines: [
      { description: 'Service', quantity: 1, unitPrice: 10 },
      { description: 'Goods', quantity, unitPrice: 50, productId },
    ],
  });

/** The product's quantity at MAIN in the valuation at `asOf`. */
async function atMain(productId: string, asOf: string) {
  const res = await api()({ method: 'GET', url: `/api/inventory/valuation?asOf=${asOf}&locationId=${main}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.find((l: { productId: string }) => l.productId === productId)?.quantity ?? 0;
}

describe('a back-dated sale is checked at its date and every later date', () => {
  test('sold on 5 March, goods in on 10 March: 409 INSUFFICIENT_STOCK naming the line, nothing written', async () => {
    const p = await refusing();
    // By hand: on hand at MAIN on 5 March is 0 (the 5 units come in on 10 March), so selling 5
    // on 5 March would leave −5 at that date. On hand now (5) is not the test.
    await adjust(api(), '2026-03-10', [{ productId: p, quantity: 5, unitCost: 20 }], { type: 'opening' });
    const before = await movementCount(k);
    const inv = await draft(p, 5, '2026-03-05');
    const res = await api()({ method: 'POST', url: `/api/invoices/${inv.id}/release` });
    const problem = assertProblem(res, 409);
    assert.equal(problem.code, 'INSUFFICIENT_STOCK');
    assert.equal(problem.field, 'lines[1].productId');
    assert.equal(await movementCount(k), before);
    assert.equal(await atMain(p, '2026-03-05'), 0);
    // Dated on or after the receipt it is a sale of stock on hand: 5 − 5 = 0, never below.
    const later = await draft(p, 5, '2026-03-10');
    await release(k.s, later.id);
    assert.equal(await atMain(p, '2026-03-10'), 0);
  });

  test('enough on its date, but a later sale used it: 409 naming the later date', async () => {
    const p = await refusing();
    // 10 in on 1 March; 8 sold on 10 March. A sale of 5 dated 5 March: on hand then 10 − 5 = 5,
    // but on 10 March 10 − 5 − 8 = −3: refused. (Checked against now, 2 on hand, it would also
    // fail; the 3 that follow show the date matters both ways.)
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 10, unitCost: 20 }], { type: 'opening' });
    await release(k.s, (await draft(p, 8, '2026-03-10')).id);
    const res = await api()({
      method: 'POST',
      url: `/api/invoices/${(await draft(p, 5, '2026-03-05')).id}/release`,
    });
    const problem = assertProblem(res, 409);
    assert.equal(problem.code, 'INSUFFICIENT_STOCK');
    assert.match(String(problem.detail), /2026-03-10/);
    // 12 more come in on 20 March: now 14 on hand, yet 10 March still falls to −3 with the sale of
    // 5 on 5 March. Refused although "now" has plenty.
    await adjust(api(), '2026-03-20', [{ productId: p, quantity: 12, unitCost: 20 }], { type: 'opening' });
    const again = await api()({
      method: 'POST',
      url: `/api/invoices/${(await draft(p, 5, '2026-03-05')).id}/release`,
    });
    assert.equal(assertProblem(again, 409).code, 'INSUFFICIENT_STOCK');
    // 2 on 5 March fits: 10 − 2 = 8 then, 8 − 8 = 0 on 10 March, 12 on 20 March.
    await release(k.s, (await draft(p, 2, '2026-03-05')).id);
    assert.equal(await atMain(p, '2026-03-05'), 8);
    assert.equal(await atMain(p, '2026-03-10'), 0);
    assert.equal(await atMain(p, '2026-03-20'), 12);
  });

  test('per location: units at another warehouse do not cover MAIN; back-dated adjustments are checked too', async () => {
    const p = await refusing();
    const jhb = await locationForTest(t, k.b, 'JHB-BD');
    // 6 at JHB on 1 March, 6 at MAIN on 15 March: 12 in the company now, 0 at MAIN on 5 March.
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 6, unitCost: 20 }], {
      type: 'opening',
      locationId: jhb,
    });
    await adjust(api(), '2026-03-15', [{ productId: p, quantity: 6, unitCost: 20 }], { type: 'opening' });
    const res = await api()({
      method: 'POST',
      url: `/api/invoices/${(await draft(p, 1, '2026-03-05')).id}/release`,
    });
    assert.equal(assertProblem(res, 409).code, 'INSUFFICIENT_STOCK');
    // A write-off of 1 at MAIN dated 5 March: the same rule, naming the adjustment's line.
    const off = await adjustRaw(api(), '2026-03-05', [{ productId: p, quantity: -1 }]);
    const problem = assertProblem(off, 409);
    assert.equal(problem.code, 'INSUFFICIENT_STOCK');
    assert.match(String(problem.field), /^lines\[0\]/);
    // A transfer out of MAIN dated 5 March too.
    const moved = await api()({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: jhb,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 1 }],
      },
    });
    assert.equal(assertProblem(moved, 409).field, 'lines[0].quantity');
  });
});
