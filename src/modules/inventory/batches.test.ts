// Batches and serials: on hand per batch and location, FEFO picking (expired batches never
// picked), and a serial never in two places (SERIAL_IN_STOCK, SERIAL_NOT_IN_STOCK).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { locationForTest, mainForTest, productForTest, receiveForTest } from './ops.test-support.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

/** The error a test helper's failed move throws (its message carries the problem's code). */
async function refused(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return String((e as { extensions?: { code?: string } }).extensions?.code ?? (e as Error).message);
  }
  assert.fail('expected a refusal');
}

describe('batches', () => {
  test('on hand per batch and location; FEFO: earliest expiry first, expired excluded, undated last, short', async () => {
    const main = await mainForTest(t, a);
    const shop = await locationForTest(t, a, 'B-SHOP');
    const p = await productForTest(t, a, { tracking: 'batch' });
    await receiveForTest(t, a, {
      productId: p,
      quantity: 5,
      unitCost: 10,
      batchCode: 'OLD',
      expiryDate: '2026-02-01',
    });
    await receiveForTest(t, a, {
      productId: p,
      quantity: 4,
      unitCost: 10,
      batchCode: 'JUN',
      expiryDate: '2026-06-30',
    });
    await receiveForTest(t, a, {
      productId: p,
      quantity: 3,
      unitCost: 10,
      batchCode: 'APR',
      expiryDate: '2026-04-30',
    });
    await receiveForTest(t, a, { productId: p, quantity: 2, unitCost: 10, batchCode: 'NODATE' });
    await receiveForTest(t, a, {
      productId: p,
      quantity: 7,
      unitCost: 10,
      batchCode: 'APR',
      expiryDate: '2026-04-30',
      locationId: shop,
    });

    const list = await api({ method: 'GET', url: `/api/inventory/batches?productId=${p}` });
    assert.equal(list.statusCode, 200, list.body);
    const batches = list.json() as {
      code: string;
      onHand: number;
      locations: { locationId: string; quantity: number }[];
    }[];
    assert.deepEqual(
      batches.map((b) => [b.code, b.onHand]),
      [
        ['OLD', 5],
        ['APR', 10],
        ['JUN', 4],
        ['NODATE', 2],
      ],
    );
    const apr = batches.find((b) => b.code === 'APR')!;
    assert.deepEqual(
      apr.locations
        .map((l) => [l.locationId === main ? 'main' : l.locationId === shop ? 'shop' : '?', l.quantity])
        .sort(),
      [
        ['main', 3],
        ['shop', 7],
      ],
    );

    // On 2026-03-01 at MAIN, 8 asked: OLD expired (skipped), APR 3, JUN 4, NODATE 1.
    const fefo = await api({
      method: 'GET',
      url: `/api/inventory/batches/fefo?productId=${p}&quantity=8&date=2026-03-01&locationId=${main}`,
    });
    assert.equal(fefo.statusCode, 200, fefo.body);
    assert.deepEqual(
      fefo.json().picks.map((x: { code: string; quantity: number }) => [x.code, x.quantity]),
      [
        ['APR', 3],
        ['JUN', 4],
        ['NODATE', 1],
      ],
    );
    assert.equal(fefo.json().short, 0);
    // 12 asked: 3 + 4 + 2 = 9 picked, 3 short (the expired 5 are not offered).
    const short = await api({
      method: 'GET',
      url: `/api/inventory/batches/fefo?productId=${p}&quantity=12&date=2026-03-01`,
    });
    assert.equal(short.json().short, 3);
  });
});

test('FEFO in a new company (MAIN is made with it): nothing to pick, all short', async () => {
  const b = await register(t.app, { plan: 'business' });
  const res = await as(
    t.app,
    b.token,
    b.companyId,
  )({
    method: 'GET',
    url: `/api/inventory/batches/fefo?productId=${crypto.randomUUID()}&quantity=3`,
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual([res.json().picks, res.json().short], [[], 3]);
});

describe('serials', () => {
  test('a serial is never in two places: in stock twice is SERIAL_IN_STOCK, out of the wrong place SERIAL_NOT_IN_STOCK', async () => {
    const main = await mainForTest(t, a);
    const van = await locationForTest(t, a, 'VAN');
    const p = await productForTest(t, a, { tracking: 'serial' });
    await receiveForTest(t, a, { productId: p, quantity: 1, unitCost: 500, serial: 'SN-001' });
    await receiveForTest(t, a, {
      productId: p,
      quantity: 1,
      unitCost: 500,
      serial: 'SN-002',
      locationId: van,
    });

    // SN-001 is at MAIN: receiving it again (anywhere) is refused.
    assert.equal(
      await refused(() =>
        receiveForTest(t, a, { productId: p, quantity: 1, unitCost: 500, serial: 'SN-001', locationId: van }),
      ),
      'SERIAL_IN_STOCK',
    );
    // Selling SN-001 from the van, where it is not, is refused.
    assert.equal(
      await refused(() =>
        receiveForTest(t, a, {
          productId: p,
          quantity: -1,
          unitCost: 0,
          serial: 'SN-001',
          locationId: van,
          type: 'sale',
        }),
      ),
      'SERIAL_NOT_IN_STOCK',
    );
    // A transfer of SN-002 from MAIN (it is in the van) is refused too.
    const tr = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: van,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 1, serials: ['SN-002'] }],
      },
    });
    assert.equal(assertProblem(tr, 409).code, 'SERIAL_NOT_IN_STOCK');
    // Sold from MAIN: out of stock, then it may come back in (a return).
    await receiveForTest(t, a, { productId: p, quantity: -1, unitCost: 0, serial: 'SN-001', type: 'sale' });

    const list = await api({ method: 'GET', url: `/api/inventory/serials?productId=${p}&history=true` });
    assert.equal(list.statusCode, 200, list.body);
    const items = list.json().items as {
      serial: string;
      status: string;
      locationId: string | null;
      history: { type: string }[];
    }[];
    const one = items.find((s) => s.serial === 'SN-001')!;
    const two = items.find((s) => s.serial === 'SN-002')!;
    assert.equal(one.status, 'out_of_stock');
    assert.equal(one.locationId, null);
    assert.deepEqual(
      one.history.map((h) => h.type),
      ['purchase', 'sale'],
    );
    assert.equal(two.status, 'in_stock');
    assert.equal(two.locationId, van);
    const inStock = await api({
      method: 'GET',
      url: `/api/inventory/serials?productId=${p}&status=in_stock`,
    });
    assert.deepEqual(
      inStock.json().items.map((s: { serial: string }) => s.serial),
      ['SN-002'],
    );
    await receiveForTest(t, a, { productId: p, quantity: 1, unitCost: 500, serial: 'SN-001' });
  });
});
