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
  secondCompanyForTest,
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

describe('clientId on a stock transfer', () => {
  test('sent twice: 201 then 200 with the same transfer; 6 units leave MAIN once', async () => {
    const main = await mainForTest(t, a);
    const pta = await locationForTest(t, a, 'PTA');
    const p = await productForTest(t, a);
    await receiveForTest(t, a, { productId: p, quantity: 10, unitCost: 10 });
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      fromLocationId: main,
      toLocationId: pta,
      date: '2026-03-05',
      lines: [{ productId: p, quantity: 6 }],
    };
    const first = await api({ method: 'POST', url: '/api/inventory/transfers', payload });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    const again = await api({ method: 'POST', url: '/api/inventory/transfers', payload });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    // 10 − 6 = 4 at MAIN, 6 in transit: the replay moved nothing (not 10 − 12).
    assert.equal(await onHandForTest(t, a, p, main), 4);
    assert.equal(await onHandForTest(t, a, p, await transit()), 6);
    assert.deepEqual(await poolForTest(t, a, p), { quantity: 10, value: 100 });
    // Received twice at once: one 200, one 409 TRANSFER_CLOSED (the row lock), 6 at PTA once.
    const [r1, r2] = await Promise.all(
      [1, 2].map(() =>
        api({
          method: 'POST',
          url: `/api/inventory/transfers/${clientId}/receive`,
          payload: { date: '2026-03-07' },
        }),
      ),
    );
    assert.deepEqual([r1!.statusCode, r2!.statusCode].sort(), [200, 409]);
    assert.equal(await onHandForTest(t, a, p, pta), 6);
    assert.equal(await onHandForTest(t, a, p, await transit()), 0);
    // Once received, the create's replay answers the transfer as it is now.
    const later = await api({ method: 'POST', url: '/api/inventory/transfers', payload });
    assert.equal(later.statusCode, 200, later.body);
    assert.equal(later.json().status, 'received');
  });

  test("two at once: one 201 and one 200, one set of movements; another company's id is 409 clientId", async () => {
    const main = await mainForTest(t, a);
    const jhb = await locationForTest(t, a, 'JHB');
    const p = await productForTest(t, a);
    await receiveForTest(t, a, { productId: p, quantity: 5, unitCost: 20 });
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      fromLocationId: main,
      toLocationId: jhb,
      date: '2026-03-05',
      lines: [{ productId: p, quantity: 3 }],
    };
    const [x, y] = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', url: '/api/inventory/transfers', payload })),
    );
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 201], `${x!.body} ${y!.body}`);
    assert.equal(x!.json().id, clientId);
    assert.equal(y!.json().id, clientId);
    // 5 − 3 = 2 at MAIN (twice would have been a 409 INSUFFICIENT_STOCK or −1).
    assert.equal(await onHandForTest(t, a, p, main), 2);
    const moves = await api({ method: 'GET', url: `/api/inventory/transfers/${clientId}` });
    assert.equal(moves.json().lines.length, 1);

    const other = await secondCompanyForTest(t, a);
    const clash = await other({ method: 'POST', url: '/api/inventory/transfers', payload });
    assert.equal(assertProblem(clash, 409).field, 'clientId');
    const bad = await api({
      method: 'POST',
      url: '/api/inventory/transfers',
      payload: { ...payload, clientId: 'not-a-uuid' },
    });
    assert.equal(assertProblem(bad, 400).field, 'clientId');
  });
});
