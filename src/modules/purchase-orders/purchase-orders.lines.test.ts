// Issue 34, item 9: every line of a bill or a purchase order is checked when it is written, the
// refusal naming the line's field: another tenant's product, a deleted one, a variant that is
// not the product's. An order whose product went since it was drafted is not e-mailed (the
// receipt would refuse it), and a release refused for want of stock names the line.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createBill, type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { createDoc } from '../invoices/invoices.factories.ts';
import { createOrder, order } from './purchase-orders.factories.ts';

let t: TestApp;
let p: Purchases;
let tenantId: string;
/** Another tenant's product: its id means nothing here. */
let foreign: string;
let mine: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  const a = await register(t.app, { plan: 'business' });
  tenantId = a.tenantId;
  p = await purchasesSetup(t, a);
  const b = await register(t.app, { plan: 'business' });
  foreign = (await productOf(await purchasesSetup(t, b), 'THEIRS-1')).id;
  mine = (await productOf(p, 'MINE-1')).id;
});
after(() => t.close());

async function productOf(who: Purchases, sku: string) {
  const res = await who.api({
    method: 'POST',
    url: '/api/inventory/products',
    payload: { sku, name: `Product ${sku}`, unitPrice: 100, isTracked: true },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const lines = (productId: string, extra: object = {}) => [
  { description: 'Paper', quantity: 1, unitPrice: 100 },
  { description: 'Toner', quantity: 2, unitPrice: 300 },
  { description: 'Stock', quantity: 3, unitPrice: 50, productId, ...extra },
];

describe('bill and order lines are checked when written', () => {
  test("a bill naming another tenant's product: 400 naming lines[2].productId, no bill", async () => {
    const res = await createBill(p, { billNumber: 'FOREIGN-1', lines: lines(foreign) });
    assert.equal(assertProblem(res, 400).field, 'lines[2].productId');
    const list = await p.api({ method: 'GET', url: '/api/bills' });
    assert.equal(
      list.json().items.some((b: { billNumber: string }) => b.billNumber === 'FOREIGN-1'),
      false,
    );
  });

  test("a bill naming a variant that is not the product's: 400 naming lines[2].variantId", async () => {
    const res = await createBill(p, {
      billNumber: 'VARIANT-1',
      lines: lines(mine, { variantId: crypto.randomUUID() }),
    });
    assert.equal(assertProblem(res, 400).field, 'lines[2].variantId');
  });

  test("an order naming another tenant's product: 400 naming lines[2].productId, on create and on change", async () => {
    const res = await createOrder(p, { lines: lines(foreign) });
    assert.equal(assertProblem(res, 400).field, 'lines[2].productId');
    const po = await order(p, { lines: lines(mine) });
    const changed = await p.api({
      method: 'PATCH',
      url: `/api/purchase-orders/${po.id}`,
      payload: { lines: lines(foreign) },
    });
    assert.equal(assertProblem(changed, 400).field, 'lines[2].productId');
  });

  test('an order whose product was deleted after the draft: not sent (400 naming lines[2].productId), no e-mail', async () => {
    const gone = (await productOf(p, 'GOING-1')).id;
    const po = await order(p, { lines: lines(gone) });
    const del = await p.api({ method: 'DELETE', url: `/api/inventory/products/${gone}` });
    assert.equal(del.statusCode, 204, del.body);
    const emails = async () =>
      Number(
        (
          await withTenant(t.database.db, tenantId, (tx) =>
            sql<{ n: string }>`select count(*)::text as n from emails where tenant_id = ${tenantId}`.execute(
              tx,
            ),
          )
        ).rows[0]!.n,
      );
    const before = await emails();
    const res = await p.api({
      method: 'POST',
      url: `/api/purchase-orders/${po.id}/send`,
      payload: { to: 'orders@karoo.example.co.za' },
    });
    assert.equal(assertProblem(res, 400).field, 'lines[2].productId');
    assert.equal(await emails(), before);
    const still = await p.api({ method: 'GET', url: `/api/purchase-orders/${po.id}` });
    assert.equal(still.json().status, 'draft');
  });

  test('an invoice refused for want of stock names the line: 409 INSUFFICIENT_STOCK, field lines[1].productId', async () => {
    await withTenant(t.database.db, tenantId, (tx) =>
      tx.updateTable('products').set({ allow_negative: false }).where('id', '=', mine).execute(),
    );
    const c = await p.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Thandi Stores', contactType: 'CUSTOMER' },
    });
    const inv = await createDoc(
      { api: p.api, customerId: c.json().id },
      {
        lines: [
          { description: 'Service', quantity: 1, unitPrice: 10 },
          { description: 'Stock', quantity: 1, unitPrice: 10, productId: mine },
        ],
      },
    );
    const res = await p.api({ method: 'POST', url: `/api/invoices/${inv.id}/release` });
    const problem = assertProblem(res, 409);
    assert.equal(problem.code, 'INSUFFICIENT_STOCK');
    assert.equal(problem.field, 'lines[1].productId');
  });
});
