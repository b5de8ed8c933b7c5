// POST /webhooks/gatewayb/invoice/{tenantId}: gateway B's Standard Webhooks, sent by the fake
// gateway over real HTTP to the app listening on a port. The tenant in the path routes only
// (spec Payments rule 2): the signature must verify with a secret the tenant stored AND the
// metadata echoed back must name this tenant and one of its links, or the call is refused
// (and filed). Retries keep the webhook-id: a second delivery is a duplicate, never a payment.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entryLines, salesSetup } from '../invoices/invoices.factories.ts';
import {
  type GatewayBWorld,
  gatewayBBusiness,
  inboxOf,
  invoiceOf,
  invoiceWithCheckout,
  paymentsOf,
  startGatewayBWorld,
  webhookUrl,
} from './gateway-b.factories.ts';
import { GATEWAY_B_KEYS, type Online, setGateway } from './online.factories.ts';

describe('gateway B webhooks', () => {
  let w: GatewayBWorld;
  before(async () => {
    w = await startGatewayBWorld();
  });
  after(() => w.close());

  test('a valid payment.succeeded is matched: the invoice paid into the gateway B clearing account', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, link, checkout } = await invoiceWithCheckout(w, o);
    const d = await w.fake.pay(checkout.id);
    assert.equal(d.status, 200, d.body);
    assert.equal(JSON.parse(d.body).status, 'matched');
    const [n] = await inboxOf(w, o.tenantId);
    assert.equal(n!.status, 'matched');
    assert.equal(n!.trusted, true);
    assert.equal(n!.kind, 'payment');
    assert.equal(n!.external_payment_id, d.paymentId);
    assert.equal(n!.link_id, link.id);
    assert.equal(n!.invoice_id, invoice.id);
    // 115,000 cents / 100 = R1,150.00 exactly.
    assert.equal(n!.amount, '1150.00');
    assert.deepEqual(
      n!.checks.map((c) => [c.check, c.passed]),
      [
        ['signature', true],
        ['tenant', true],
        ['checkout', true],
        ['amount', true],
      ],
    );
    const paid = await invoiceOf(o, invoice.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.amountDue, 0);
    const [payment] = await paymentsOf(w, o.tenantId, invoice.id);
    assert.equal(payment!.id, n!.payment_id);
    assert.equal(payment!.method, 'gatewayb');
    assert.equal(payment!.reference, d.paymentId);
    // Dr Gateway B clearing (1010, the first free bank account code) 1,150.00 / Cr debtors 1,150.00.
    const lines = (await entryLines(o, payment!.entry_id)).map((l: unknown[]) => l.slice(0, 3));
    const accounts = (await o.api({ method: 'GET', url: '/api/accounts' })).json();
    const nameOf = (code: string) => accounts.find((a: { code: string }) => a.code === code).name;
    assert.deepEqual(
      lines.map(([code, dr, cr]: [string, number, number]) => [nameOf(code), dr, cr]),
      [
        ['Gateway B clearing', 1150, 0],
        [nameOf(lines[1][0]), 0, 1150],
      ],
    );
    assert.match(nameOf(lines[1][0]), /receivable|debtors/i);
    // The inbox answers it through the API too.
    const listed = await o.api({ method: 'GET', url: `/api/payment-notifications/${n!.id}` });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(listed.json().status, 'matched');
  });

  test('an invalid signature is refused with 401 SIGNATURE_INVALID and filed refused; nothing is recorded', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    const url = webhookUrl(w, o.tenantId);
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'payment.succeeded',
      payload: {
        id: 'p_forged',
        amount: 115_000,
        currency: 'ZAR',
        metadata: { checkoutId: checkout.id, tenantId: o.tenantId, invoiceId: invoice.id },
      },
    });
    // Signed with another secret; then a body tampered after signing; then a stale timestamp.
    const other = `whsec_${Buffer.from('not-the-tenant-secret-at-all!!').toString('base64')}`;
    const forged = await w.fake.send(body, w.fake.sign(other, 'evt_forged', body), url);
    const signed = w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_tampered', body);
    const tampered = await w.fake.send(body.replace('115000', '1'), signed, url);
    const old = new Date(Date.now() - 6 * 60_000);
    const stale = await w.fake.send(
      body,
      w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_stale', body, old),
      url,
    );
    // A forged body with a NUL byte (PostgreSQL text holds none) is filed all the same.
    const nul = await w.fake.send(`${body}\u0000`, w.fake.sign(other, 'evt_nul', body), url);
    for (const d of [forged, tampered, stale, nul]) {
      assert.equal(d.status, 401, d.body);
      assert.equal(JSON.parse(d.body).code, 'SIGNATURE_INVALID');
    }
    assert.match(JSON.parse(stale.body).detail, /too old/);
    const inbox = await inboxOf(w, o.tenantId);
    assert.deepEqual(
      inbox.map((n) => [n.status, n.trusted, n.checks[0]!.check, n.checks[0]!.passed]),
      Array(4).fill(['refused', false, 'signature', false]),
    );
    assert.equal(inbox[1]!.raw_body, body.replace('115000', '1'), 'the raw body is kept as received');
    assert.equal((await paymentsOf(w, o.tenantId, invoice.id)).length, 0);
    assert.equal((await invoiceOf(o, invoice.id)).amountDue, 1150);
    // The company sees the refused ones in its inbox (filed before any company was known).
    const listed = await o.api({ method: 'GET', url: '/api/payment-notifications?status=refused' });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(listed.json().items.length, 4);
  });

  test('a half-configured gateway B (a secret key, no webhook secret) refuses every delivery', async () => {
    const o = await gatewayBBusiness(w, { secretKey: GATEWAY_B_KEYS.secretKey });
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    // The gateway still signs with the secret it holds; the business never stored it.
    w.fake.subscribe(webhookUrl(w, o.tenantId), GATEWAY_B_KEYS.webhookSecret);
    const d = await w.fake.pay(checkout.id);
    assert.equal(d.status, 401, d.body);
    assert.match(JSON.parse(d.body).detail, /half-configured/);
    const [n] = await inboxOf(w, o.tenantId);
    assert.equal(n!.status, 'refused');
    assert.equal((await paymentsOf(w, o.tenantId, invoice.id)).length, 0);
  });

  test("rule 2: tenant X's checkout delivered to tenant Y's path with Y's own valid signature is refused; nothing recorded in either", async () => {
    const x = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, x);
    const ySecret = `whsec_${Buffer.from('tenant-y-own-webhook-secret-24b').toString('base64')}`;
    const y = await gatewayBBusiness(w, { secretKey: GATEWAY_B_KEYS.secretKey, webhookSecret: ySecret });
    const yInvoice = (await invoiceWithCheckout(w, y)).invoice;
    // The gateway sends to Y's webhook, signed with Y's secret: the signature verifies for Y.
    w.fake.subscribe(webhookUrl(w, y.tenantId), ySecret);
    const d = await w.fake.pay(checkout.id);
    assert.equal(d.status, 409, d.body);
    assert.equal(JSON.parse(d.body).code, 'REFERENCE_MISMATCH');
    const [n, ...more] = await inboxOf(w, y.tenantId);
    assert.equal(more.length, 0);
    assert.equal(n!.status, 'refused');
    assert.equal(n!.trusted, false);
    assert.deepEqual(
      n!.checks.map((c) => [c.check, c.passed]),
      [
        ['signature', true],
        ['tenant', false],
      ],
    );
    assert.equal((await inboxOf(w, x.tenantId)).length, 0, "nothing is filed in X's inbox");
    assert.equal((await paymentsOf(w, x.tenantId, invoice.id)).length, 0);
    assert.equal((await paymentsOf(w, y.tenantId, yInvoice.id)).length, 0);
    assert.equal((await invoiceOf(x, invoice.id)).amountDue, 1150);
    // Y's metadata with X's checkout id (Y's tenant named, no link of Y's): refused too.
    const body = JSON.stringify({
      id: 'evt_mixed',
      type: 'payment.succeeded',
      payload: {
        id: 'p_mixed',
        amount: 115_000,
        currency: 'ZAR',
        metadata: { checkoutId: checkout.id, tenantId: y.tenantId, invoiceId: yInvoice.id },
      },
    });
    const mixed = await w.fake.send(body, w.fake.sign(ySecret, 'evt_mixed', body));
    assert.equal(mixed.status, 409, mixed.body);
    assert.equal((await paymentsOf(w, y.tenantId, yInvoice.id)).length, 0);
  });

  test('with gateway B in two companies, the secret that verifies names the company', async () => {
    const first = await gatewayBBusiness(w);
    const created = await first.api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Second Branch' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const sales = await salesSetup(w.t, { ...first.b, companyId: created.json().id });
    const second: Online = { ...first, ...sales, companyId: created.json().id };
    const secondSecret = `whsec_${Buffer.from('second-company-webhook-secret!').toString('base64')}`;
    await setGateway(second, 'gatewayb', {
      secretKey: GATEWAY_B_KEYS.secretKey,
      webhookSecret: secondSecret,
    });
    const ofFirst = await invoiceWithCheckout(w, first);
    const ofSecond = await invoiceWithCheckout(w, second);
    w.fake.subscribe(webhookUrl(w, first.tenantId), secondSecret);
    // The first company's checkout signed with the second company's secret: not its link.
    const wrong = await w.fake.pay(ofFirst.checkout.id);
    assert.equal(wrong.status, 409, wrong.body);
    const right = await w.fake.pay(ofSecond.checkout.id);
    assert.equal(right.status, 200, right.body);
    assert.equal(JSON.parse(right.body).status, 'matched');
    const n = (await inboxOf(w, first.tenantId)).at(-1)!;
    assert.equal(n.company_id, second.companyId);
    const [payment] = await paymentsOf(w, first.tenantId, ofSecond.invoice.id);
    assert.equal(payment!.company_id, second.companyId);
    assert.equal((await invoiceOf(second, ofSecond.invoice.id)).status, 'paid');
    assert.equal((await paymentsOf(w, first.tenantId, ofFirst.invoice.id)).length, 0);
  });

  test('the gateway retrying with a fresh timestamp is filed as a duplicate: one payment', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    const first = await w.fake.pay(checkout.id);
    assert.equal(first.status, 200, first.body);
    const again = await w.fake.redeliver(first.eventId!);
    assert.equal(again.status, 200, again.body);
    assert.equal(JSON.parse(again.body).status, 'duplicate');
    const inbox = await inboxOf(w, o.tenantId);
    assert.deepEqual(
      inbox.map((n) => [n.status, n.event_id]),
      [
        ['matched', first.eventId],
        ['duplicate', first.eventId],
      ],
    );
    const payments = await paymentsOf(w, o.tenantId, invoice.id);
    assert.equal(payments.length, 1);
    assert.equal((await invoiceOf(o, invoice.id)).status, 'paid');
  });

  test('two deliveries of one event at the same moment: one payment, the other a duplicate', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout, link } = await invoiceWithCheckout(w, o);
    const body = JSON.stringify({
      id: 'evt_race',
      type: 'payment.succeeded',
      payload: {
        id: 'p_race',
        amount: 115_000,
        currency: 'ZAR',
        metadata: { checkoutId: checkout.id, tenantId: o.tenantId, invoiceId: invoice.id, linkId: link.id },
      },
    });
    const headers = w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_race', body);
    const answers = await Promise.all([w.fake.send(body, headers), w.fake.send(body, headers)]);
    assert.deepEqual(
      answers.map((d) => d.status),
      [200, 200],
    );
    assert.deepEqual(answers.map((d) => JSON.parse(d.body).status).sort(), ['duplicate', 'matched']);
    assert.equal((await paymentsOf(w, o.tenantId, invoice.id)).length, 1);
  });

  test('refund.failed and other events are filed and dismissed by the system; unknown fields ignored', async () => {
    const o = await gatewayBBusiness(w);
    const { checkout } = await invoiceWithCheckout(w, o);
    const paid = await w.fake.pay(checkout.id);
    const d = await w.fake.emit('refund.failed', paid.paymentId, {
      reason: 'insufficient funds',
      extra: { x: 1 },
    });
    assert.equal(d.status, 200, d.body);
    const n = (await inboxOf(w, o.tenantId)).at(-1)!;
    assert.deepEqual(
      [n.kind, n.status, n.trusted, n.resolved_by_type],
      ['other', 'dismissed', true, 'system'],
    );
    // A signed event type with a NUL in it (JSON's \u0000) is filed and dismissed too.
    const odd = JSON.stringify({ type: 'odd\u0000type', payload: {} });
    const d2 = await w.fake.send(odd, w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_odd', odd));
    assert.equal(d2.status, 200, d2.body);
    assert.equal(JSON.parse(d2.body).status, 'dismissed');
  });

  test('an unknown tenant is a 404; a body that is not JSON but signed is a 400 naming it', async () => {
    const body = '{"type":"payment.succeeded"}';
    const sig = w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_x', body);
    const none = await w.fake.send(body, sig, webhookUrl(w, crypto.randomUUID()));
    assert.equal(none.status, 404, none.body);
    const o = await gatewayBBusiness(w);
    const broken = 'not json';
    const res = await w.fake.send(
      broken,
      w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_y', broken),
      webhookUrl(w, o.tenantId),
    );
    assert.equal(res.status, 400, res.body);
    assert.equal((await inboxOf(w, o.tenantId))[0]!.status, 'refused');
    // Larger than any event (64 KiB): 413 before anything is read.
    const big = JSON.stringify({ type: 'payment.succeeded', padding: 'x'.repeat(70_000) });
    const large = await w.fake.send(
      big,
      w.fake.sign(GATEWAY_B_KEYS.webhookSecret, 'evt_z', big),
      webhookUrl(w, o.tenantId),
    );
    assert.equal(large.status, 413, large.body);
  });
});
