// Stock transfers: stock at from, transit and to after each step; the valuation and the ledger
// unchanged (a transfer posts nothing); cancel brings it back; a closed transfer is a 409.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import {
  balanceForTest,
  entryCountForTest,
  locationForTest,
  mainForTest,
  onHandForTest,
  poolForTest,
  productForTest,
  receiveForTest,
} from './ops.test-support.ts';
import { transitLocation } from './stock.items.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

async function transit() {
  return withTenant(t.database.db, a.tenantId, (tx) =>
    transitLocation({ db: tx, tenantId: a.tenantId }, a.companyId),
  );
}

describe('stock transfers', () => {
  test('send, receive: stock moves from → transit → to; valuation and ledger unchanged', async () => {
    const main = await mainForTest(t, a);
    const durban = await locationForTest(t, a, 'DBN');
    const p = await productForTest(t, a);
    // 10 @ R10 + 10 @ R13 → 20 units, R230 (average R11.50).
    await receiveForTest(t, a, { productId: p, quantity: 10, unitCost: 10 });
    await receiveForTest(t, a, { productId: p, quantity: 10, unitCost: 13 });
    const entries = await entryCountForTest(t, a);
    const inventory = await balanceForTest(t, a, 'inventory');
    assert.equal(inventory, 230);

    const sent = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: durban,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 6 }],
      },
    });
    assert.equal(sent.statusCode, 201, sent.body);
    const tr = sent.json();
    assert.equal(tr.status, 'in_transit');
    assert.equal(sent.headers.location, `/api/inventory/transfers/${tr.id}`);
    const tloc = await transit();
    // 20 − 6 = 14 at MAIN; 6 in transit; none at DBN yet.
    assert.equal(await onHandForTest(t, a, p, main), 14);
    assert.equal(await onHandForTest(t, a, p, tloc), 6);
    assert.equal(await onHandForTest(t, a, p, durban), 0);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 20, value: 230 });

    const got = await api({
      method: 'POST',
      url: `/api/inventory/transfers/${tr.id}/receive`,
      payload: { date: '2026-03-07' },
    });
    assert.equal(got.statusCode, 200, got.body);
    assert.equal(got.json().status, 'received');
    assert.equal(got.json().receivedDate, '2026-03-07');
    assert.equal(await onHandForTest(t, a, p, main), 14);
    assert.equal(await onHandForTest(t, a, p, tloc), 0);
    assert.equal(await onHandForTest(t, a, p, durban), 6);
    // Still 20 units worth R230 in the company; no journal entry; inventory account R230.
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 20, value: 230 });
    assert.equal(await entryCountForTest(t, a), entries);
    assert.equal(await balanceForTest(t, a, 'inventory'), 230);

    const again = await api({ method: 'POST', url: `/api/inventory/transfers/${tr.id}/cancel`, payload: {} });
    assert.equal(assertProblem(again, 409).code, 'TRANSFER_CLOSED');

    const one = await api({ method: 'GET', url: `/api/inventory/transfers/${tr.id}` });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().lines[0].quantity, 6);
    const list = await api({ method: 'GET', url: '/api/inventory/transfers?status=received' });
    assert.ok(list.json().items.some((x: { id: string }) => x.id === tr.id));
  });

  test('cancel in transit: back at from; too much is a 409 INSUFFICIENT_STOCK; same location 400', async () => {
    const main = await mainForTest(t, a);
    const cpt = await locationForTest(t, a, 'CPT');
    const p = await productForTest(t, a);
    await receiveForTest(t, a, { productId: p, quantity: 4, unitCost: 25 });
    const tooMany = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: cpt,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 5 }],
      },
    });
    assert.equal(assertProblem(tooMany, 409).code, 'INSUFFICIENT_STOCK');
    const same = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: main,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 1 }],
      },
    });
    assert.equal(assertProblem(same, 400).field, 'toLocationId');
    const sent = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: {
        fromLocationId: main,
        toLocationId: cpt,
        date: '2026-03-05',
        lines: [{ productId: p, quantity: 4 }],
      },
    });
    assert.equal(sent.statusCode, 201, sent.body);
    assert.equal(await onHandForTest(t, a, p, main), 0);
    const cancelled = await api({
      method: 'POST',
      url: `/api/inventory/transfers/${sent.json().id}/cancel`,
      payload: {},
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().status, 'cancelled');
    // 4 back at MAIN, worth 4 × R25 = R100 as before.
    assert.equal(await onHandForTest(t, a, p, main), 4);
    assert.equal(await onHandForTest(t, a, p, cpt), 0);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 4, value: 100 });
  });

  test("another tenant's transfer is a 404", async () => {
    const b = await register(t.app, { plan: 'business' });
    const res = await as(
      t.app,
      b.token,
      b.companyId,
    )({ method: 'GET', url: `/api/inventory/transfers/${crypto.randomUUID()}` });
    assertProblem(res, 404);
  });
});
