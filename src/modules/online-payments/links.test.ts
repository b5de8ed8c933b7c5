// Payment links through the API: made for what is due now, in rand only (rule 4), while the
// gateway can take money (rule 3); gateway B's checkout made once at the (fake) gateway with
// the link id as its Idempotency-Key and exactly the metadata the webhook checks read.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type FakeGatewayB, startFakeGatewayB } from '../../../test/support/fake-gateway-b.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, pay } from '../invoices/invoices.factories.ts';
import {
  GATEWAY_A_KEYS,
  GATEWAY_B_KEYS,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

describe('payment links', () => {
  let t: TestApp;
  let fake: FakeGatewayB;
  before(async () => {
    t = await startTestApp({ jobsWork: false, config: { publicBaseUrl: 'https://pay.example.com' } });
    fake = await startFakeGatewayB(GATEWAY_B_KEYS.secretKey);
    t.deps.config.gatewayBBaseUrl = fake.url;
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  const make = (o: Online, invoiceId: string, payload: object = {}) =>
    o.api({ method: 'POST', url: `/api/invoices/${invoiceId}/payment-links`, payload });

  test('gateway A: a link for what is due, its page address, Location, and a clientId replay', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    // R1,000 + 15% VAT = R1,150.00 due; R150 paid leaves R1,000.00.
    assert.equal((await pay(o, inv.id, 150)).statusCode, 201);
    const clientId = crypto.randomUUID();
    const res = await make(o, inv.id, { clientId });
    assert.equal(res.statusCode, 201, res.body);
    const link = res.json();
    assert.equal(link.id, clientId);
    assert.equal(res.headers.location, `/api/invoices/${inv.id}/payment-links/${clientId}`);
    assert.equal(link.gateway, 'gatewaya');
    assert.equal(link.amount, 1000);
    assert.equal(link.currency, 'ZAR');
    assert.equal(link.status, 'active');
    assert.equal(link.checkoutUrl, null);
    assert.match(link.url, /^https:\/\/pay\.example\.com\/pay\/[A-Za-z0-9_-]{46}$/);
    // About 30 days from now by default.
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    const again = await make(o, inv.id, { clientId });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), link);
    const got = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}/payment-links/${clientId}` });
    assert.deepEqual(got.json(), link);
    const second = await make(o, inv.id, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    assert.equal(second.statusCode, 201, second.body);
    const list = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}/payment-links` });
    assert.deepEqual(
      list.json().map((l: { id: string }) => l.id),
      [second.json().id, clientId],
      'newest first',
    );
  });

  test('gateway B: the checkout is made once, with the link id as Idempotency-Key and the metadata', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewayb', GATEWAY_B_KEYS);
    const inv = await openInvoice(o);
    const before = fake.checkouts.length;
    const clientId = crypto.randomUUID();
    const res = await make(o, inv.id, { clientId });
    assert.equal(res.statusCode, 201, res.body);
    const link = res.json();
    assert.equal(link.gateway, 'gatewayb', 'the only gateway available is chosen');
    assert.equal(fake.checkouts.length, before + 1);
    const checkout = fake.checkouts.at(-1)!;
    assert.equal(checkout.idempotencyKey, link.id);
    // R1,150.00 in cents.
    assert.equal(checkout.amount, 115_000);
    assert.equal(checkout.currency, 'ZAR');
    assert.deepEqual(checkout.metadata, {
      tenantId: o.tenantId,
      invoiceId: inv.id,
      linkId: link.id,
      reference: inv.number,
    });
    assert.equal(checkout.successUrl, `${link.url}?result=success`);
    assert.equal(checkout.cancelUrl, `${link.url}?result=cancelled`);
    assert.equal(checkout.failureUrl, `${link.url}?result=failed`);
    assert.equal(link.checkoutUrl, checkout.redirectUrl);
    const again = await make(o, inv.id, { clientId });
    assert.equal(again.statusCode, 200);
    assert.equal(fake.checkouts.length, before + 1, 'a replay makes no second checkout');
  });

  test('gateway B refusing the key is 422; the gateway down is 503; nothing is kept', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewayb', { ...GATEWAY_B_KEYS, secretKey: 'sk_test_wrong' });
    const inv = await openInvoice(o);
    assertProblem(await make(o, inv.id), 422);
    await setGateway(o, 'gatewayb', GATEWAY_B_KEYS);
    fake.failWith = 500;
    try {
      assertProblem(await make(o, inv.id), 503);
    } finally {
      fake.failWith = null;
    }
    const list = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}/payment-links` });
    assert.deepEqual(list.json(), []);
  });

  test('a foreign-currency invoice is refused: 422 CURRENCY_NOT_SUPPORTED', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const usd = await createDoc(o, { currency: 'USD' });
    const p = assertProblem(await make(o, usd.id), 422);
    assert.equal(p.code, 'CURRENCY_NOT_SUPPORTED');
    assert.match(String(p.detail), /ZAR/);
  });

  test('a half-configured gateway B is unavailable: 409 GATEWAY_UNAVAILABLE with the reason', async () => {
    const o = await onlineSetup(t);
    const inv = await openInvoice(o);
    const none = assertProblem(await make(o, inv.id), 409);
    assert.equal(none.code, 'GATEWAY_UNAVAILABLE');
    assert.match(String(none.detail), /no credentials/);
    await setGateway(o, 'gatewayb', { secretKey: GATEWAY_B_KEYS.secretKey });
    const half = assertProblem(await make(o, inv.id, { gateway: 'gatewayb' }), 409);
    assert.equal(half.code, 'GATEWAY_UNAVAILABLE');
    assert.match(String(half.detail), /secret key but no webhook signing secret/);
  });

  test('draft, void, paid and a quote are refused', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const draft = await createDoc(o);
    assert.equal(assertProblem(await make(o, draft.id), 409).code, 'NOT_OPEN');
    const voided = await openInvoice(o);
    const del = await o.api({ method: 'DELETE', url: `/api/invoices/${voided.id}` });
    assert.ok(del.statusCode < 300, del.body);
    assert.equal(assertProblem(await make(o, voided.id), 409).code, 'NOT_OPEN');
    const paid = await openInvoice(o);
    assert.equal((await pay(o, paid.id, 1150)).statusCode, 201);
    assert.equal(assertProblem(await make(o, paid.id), 409).code, 'ALREADY_PAID');
    const quote = await createDoc(o, { documentType: 'quote' });
    assert.equal(assertProblem(await make(o, quote.id), 409).code, 'NOT_RECEIVABLE');
  });

  test('an expiry in the past is 400 naming expiresAt', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    const p = assertProblem(await make(o, inv.id, { expiresAt: '2020-01-01T00:00:00Z' }), 400);
    assert.equal(p.field, 'expiresAt');
  });

  test('revoke: the link is revoked; again is 409 LINK_NOT_ACTIVE; a paid invoice shows its link paid', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    const link = (await make(o, inv.id)).json();
    const url = `/api/invoices/${inv.id}/payment-links/${link.id}/revoke`;
    const res = await o.api({ method: 'POST', url });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'revoked');
    assert.ok(res.json().revokedAt);
    assert.equal(assertProblem(await o.api({ method: 'POST', url }), 409).code, 'LINK_NOT_ACTIVE');
    const other = (await make(o, inv.id)).json();
    assert.equal((await pay(o, inv.id, 1150)).statusCode, 201);
    const got = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}/payment-links/${other.id}` });
    assert.equal(got.json().status, 'paid');
  });

  test("another tenant's invoice or link is 404", async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    const link = (await make(o, inv.id)).json();
    const stranger = await onlineSetup(t);
    assertProblem(await make(stranger, inv.id), 404);
    assertProblem(
      await stranger.api({ method: 'GET', url: `/api/invoices/${inv.id}/payment-links/${link.id}` }),
      404,
    );
    assertProblem(
      await stranger.api({ method: 'POST', url: `/api/invoices/${inv.id}/payment-links/${link.id}/revoke` }),
      404,
    );
  });
});
