// Issue 34, item 2: a transfer between locations keeps every FIFO layer's date and cost (it is
// neither a purchase nor a sale of the company), and its legs carry the same value to the cent,
// so the transit location ends empty at R0.00.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createDoc, entryLines, release } from '../invoices/invoices.factories.ts';
import { type Books, books, booksSetup } from './flows.factories.ts';
import { locationForTest, mainForTest } from './ops.test-support.ts';
import { adjust, stockProduct } from './stock.factories.ts';
import { transitLocation } from './stock.items.ts';

let t: TestApp;
let k: Books;
let main: string;
let transit: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  k = await booksSetup(t, await register(t.app, { plan: 'business' }));
  main = await mainForTest(t, k.b);
  transit = await withTenant(t.database.db, k.b.tenantId, (tx) =>
    transitLocation({ db: tx, tenantId: k.b.tenantId }, k.b.companyId),
  );
});
after(() => t.close());

const api = () => k.p.api;

async function transfer(
  productId: string,
  from: string,
  to: string,
  quantity: number,
  sent: string,
  got: string,
) {
  const res = await api()({
    method: 'POST',
    url: '/api/inventory/transfers',
    payload: { fromLocationId: from, toLocationId: to, date: sent, lines: [{ productId, quantity }] },
  });
  assert.equal(res.statusCode, 201, res.body);
  const rec = await api()({
    method: 'POST',
    url: `/api/inventory/transfers/${res.json().id}/receive`,
    payload: { date: got },
  });
  assert.equal(rec.statusCode, 200, rec.body);
}

/** The valuation's lines of one product: { locationId: [quantity, value] }, and the totals. */
async function valuationOf(productId: string, asOf = '2026-12-31') {
  const res = await api()({ method: 'GET', url: `/api/inventory/valuation?asOf=${asOf}` });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  const at: Record<string, [number, number]> = {};
  for (const l of body.lines) if (l.productId === productId) at[l.locationId] = [l.quantity, l.value];
  return { at, difference: body.difference };
}

/** What a released invoice of `quantity` from MAIN cost: its entry's debit on cost of sales 5000. */
async function costOfSale(productId: string, quantity: number, issueDate: string) {
  const inv = await release(
    k.s,
    (
      await createDoc(k.s, {
        issueDate,
        dueDate: issueDate,
        lines: [{ description: 'Sold', quantity, unitPrice: 50, productId }],
      })
    ).id,
  );
  const lines = await entryLines(k.s, inv.entryId);
  return lines.filter((l: unknown[]) => l[0] === '5000').reduce((s: number, l: number[]) => s + l[1]!, 0);
}

describe('a transfer keeps the FIFO layers (IAS 2.25, 2.27)', () => {
  test('10 @ R10 then 10 @ R20, 5 moved MAIN → DBN, 10 sold from MAIN: cost of sales R100.00', async () => {
    const p = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'fifo', allowNegative: false });
    const dbn = await locationForTest(t, k.b, 'DBN');
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }], { type: 'opening' });
    await adjust(api(), '2026-03-02', [{ productId: p, quantity: 10, unitCost: 20 }], { type: 'opening' });
    await transfer(p, main, dbn, 5, '2026-03-05', '2026-03-06');
    // By hand. IAS 2.27: FIFO assumes the items bought first are sold first, so what remains is
    // what was bought last. The company bought 10 @ R10 (1 March) then 10 @ R20 (2 March); a
    // transfer between two of its own locations buys and sells nothing, so it cannot change that
    // order (IAS 2.25: one cost formula for the entity; a location is no reason for another).
    // The 10 sold are the 10 bought first: 10 × R10 = R100.00. The 10 left are the 10 bought last,
    // 10 × R20 = R200.00. (The old code took the 5 moved out of the oldest layer and put them
    // back as a layer dated 5 March, twice, so the sale took 10 @ R20 = R200.00.)
    assert.equal(await costOfSale(p, 10, '2026-03-10'), 100);
    // And the next 10, sold from where they are (5 at MAIN, 5 at DBN), are the R20 ones: R100.00.
    const left = await valuationOf(p);
    assert.equal(left.difference, 0);
    const qty = Object.values(left.at).reduce((s, [q]) => s + q, 0);
    const value = Object.values(left.at).reduce((s, [, v]) => s + v, 0);
    assert.deepEqual([qty, value], [10, 200]);
    assert.equal(await costOfSale(p, 5, '2026-03-11'), 100);
  });

  test('the transfer carries what the units stood at where they left; transit ends at 0 units and R0.00', async () => {
    const p = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'fifo', allowNegative: false });
    const cpt = await locationForTest(t, k.b, 'CPT');
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }], { type: 'opening' });
    await adjust(api(), '2026-03-02', [{ productId: p, quantity: 10, unitCost: 20 }], { type: 'opening' });
    await transfer(p, main, cpt, 5, '2026-03-05', '2026-03-06');
    // By hand: MAIN held 20 units worth R300.00 (10 × R10 + 10 × R20). The 5 that leave take
    // MAIN's value pro rata, R300.00 × 5 / 20 = R75.00, and the leg out of transit carries the
    // same R75.00: MAIN 15 units R225.00, CPT 5 units R75.00, transit nothing at all. The
    // company still holds 20 units worth R300.00, equal to the ledger's inventory.
    const v = await valuationOf(p);
    assert.deepEqual(v.at[main], [15, 225]);
    assert.deepEqual(v.at[cpt], [5, 75]);
    assert.equal(v.at[transit], undefined, 'no units and no value left in transit');
    assert.equal(v.difference, 0);
  });

  test('average cost: the receiving leg equals the sending leg although the pool changed between them', async () => {
    const p = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'average', allowNegative: false });
    const pta = await locationForTest(t, k.b, 'PTA');
    // 3 @ R3.3333 = R9.9999 → R10.00 (cents, half-up).
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 3, unitCost: 3.3333 }], { type: 'opening' });
    const sent = await api()({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: pta,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 1 }],
      },
    });
    assert.equal(sent.statusCode, 201, sent.body);
    // While the unit is on the road MAIN buys 1 more @ R5.00: the pool is 4 units, R15.00.
    await adjust(api(), '2026-03-06', [{ productId: p, quantity: 1, unitCost: 5 }], { type: 'opening' });
    const got = await api()({
      method: 'POST',
      url: `/api/inventory/transfers/${sent.json().id}/receive`,
      payload: { date: '2026-03-07' },
    });
    assert.equal(got.statusCode, 200, got.body);
    // By hand: the unit left MAIN at R10.00 × 1/3 = R3.33 (half-up) and arrives at PTA at that
    // same R3.33, so transit is left with nothing. (The old receiving leg took the pool's new
    // average, R15.00 / 4 = R3.75, and left transit at 0 units and −R0.42.) The valuation shows
    // every unit at the company's weighted average (IAS 2.27), R15.00 / 4 = R3.75: PTA 1 × R3.75,
    // MAIN 3 × R3.75 = R11.25 (stock.apportion.ts: a location's value is its share by units).
    const v = await valuationOf(p);
    assert.deepEqual(v.at[pta], [1, 3.75]);
    assert.deepEqual(v.at[main], [3, 11.25]);
    assert.equal(v.at[transit], undefined);
    assert.equal(v.difference, 0);
    assert.deepEqual(await books(k).then((b) => b.grni), 0);
  });

  test('after a transfer, a location is worth its units at the company cost, not what the movements left on it', async () => {
    // The outside audit of issue 34: FIFO 10 @ R10 (1 March) and 10 @ R20 (2 March) at MAIN, 10
    // moved to DBN, the 10 at DBN written off. The write-off costs the company's oldest layer,
    // 10 × R10 = R100.00 (IAS 2.27), leaving 10 @ R20 = R200.00, all at MAIN. The movements left
    // MAIN at R300.00 − R150.00 (the 10 sent, pro rata) = R150.00 and DBN at R150.00 − R100.00 =
    // R50.00 with no units: the valuation shares the item's R200.00 by units, MAIN 10 → R200.00.
    const p = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'fifo', allowNegative: false });
    const dbn = await locationForTest(t, k.b, 'DBN2');
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }], { type: 'opening' });
    await adjust(api(), '2026-03-02', [{ productId: p, quantity: 10, unitCost: 20 }], { type: 'opening' });
    await transfer(p, main, dbn, 10, '2026-03-03', '2026-03-03');
    const off = await adjust(api(), '2026-03-04', [{ productId: p, quantity: -10 }], { locationId: dbn });
    assert.equal(off.value, -100);
    const v = await valuationOf(p, '2026-03-31');
    assert.deepEqual(v.at[main], [10, 200]);
    assert.equal(v.at[dbn], undefined, 'no units and no value at DBN');
    assert.equal(v.difference, 0);
    // The stock list says the same, per location and for the product.
    const list = await api()({ method: 'GET', url: `/api/inventory/stock?productId=${p}` });
    assert.equal(list.statusCode, 200, list.body);
    const item = list.json().items[0];
    assert.deepEqual([item.quantity, item.value], [10, 200]);
    assert.deepEqual(
      item.lines.map((l: { locationId: string; quantity: number; value: number }) => [
        l.locationId,
        l.quantity,
        l.value,
      ]),
      [[main, 10, 200]],
    );
  });

  test('average cost: a location moved to before a dearer purchase is worth the new average', async () => {
    // 10 @ R10 at MAIN, 5 moved to DBN, then 10 more @ R40 at MAIN: 20 units worth R100 + R400 =
    // R500.00, R25.00 each (the company's weighted average, IAS 2.27). DBN's 5 are worth 5 × R25 =
    // R125.00 (the movements had left R50.00 there), MAIN's 15 are worth 15 × R25 = R375.00.
    const p = await stockProduct(t, api(), k.b.tenantId, { costMethod: 'average', allowNegative: false });
    const dbn = await locationForTest(t, k.b, 'DBN3');
    await adjust(api(), '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }], { type: 'opening' });
    await transfer(p, main, dbn, 5, '2026-03-02', '2026-03-02');
    await adjust(api(), '2026-03-03', [{ productId: p, quantity: 10, unitCost: 40 }], { type: 'opening' });
    const v = await valuationOf(p, '2026-03-31');
    assert.deepEqual(v.at[main], [15, 375]);
    assert.deepEqual(v.at[dbn], [5, 125]);
    assert.equal(v.difference, 0);
    // Asked for one location, the valuation answers its share.
    const one = await api()({
      method: 'GET',
      url: `/api/inventory/valuation?asOf=2026-03-31&locationId=${dbn}`,
    });
    assert.equal(one.statusCode, 200, one.body);
    const mine = one.json().lines.filter((l: { productId: string }) => l.productId === p);
    assert.deepEqual(
      mine.map((l: { quantity: number; value: number }) => [l.quantity, l.value]),
      [[5, 125]],
    );
  });
});
