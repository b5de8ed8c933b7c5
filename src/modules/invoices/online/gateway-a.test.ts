// Gateway A's ITN through the app and the fake gateway A (test/support/fake-gateway-a.ts): the
// payer pays on the gateway's page, the gateway posts the ITN to the real listening app, the job
// worker checks it (merchant, signature with the passphrase, the gateway's validate, replay,
// payment_status, reference) and takes the payment or files it refused or for review.
//
// Figures: the invoice is R1,000 + 15% VAT = R1,150.00. The fake's fee is 2.3% of the gross:
// 1,150.00 × 0.023 = 26.45, reported as amount_fee -26.45, amount_net 1,123.55.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { type FakeGatewayA, startFakeGatewayA } from '../../../../test/support/fake-gateway-a.ts';
import { type Receiver, startReceiver } from '../../../../test/support/http-receiver.ts';
import { assertProblem } from '../../../../test/support/problem.ts';
import { entryLines, fetched } from '../invoices.factories.ts';
import { paymentForm } from './gateway-a.protocol.ts';
import {
  GATEWAY_A_KEYS,
  insertLink,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

let t: TestApp;
let fake: FakeGatewayA;
let receiver: Receiver;
let base: string;
/** A second merchant at the gateway: another business's. */
const OTHER_KEYS = { merchantId: '10000999', merchantKey: 'a1b2c3d4e5f6g', passphrase: 'Another-Pass9' };

before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  fake = await startFakeGatewayA([{ ...GATEWAY_A_KEYS }, { ...OTHER_KEYS }]);
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
  t.deps.config.gatewayABaseUrl = fake.url;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(async () => {
  await fake.close();
  await receiver.close();
  await t.close();
});

interface Ready {
  o: Online;
  invoice: { id: string; number: string };
  link: { id: string; token: string };
}

/** A business with gateway A set, a released invoice of R1,150.00 and its payment link. */
async function ready(plan = 'free'): Promise<Ready> {
  const o = await onlineSetup(t, plan);
  await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
  const invoice = await openInvoice(o);
  const link = await insertLink(t, o, invoice.id, 'gatewaya');
  return { o, invoice, link };
}

const notifyUrl = (o: Online) => `${base}/webhooks/gatewaya/itn/${o.tenantId}`;

/** The ITN the gateway would post for the link (R1,150.00 COMPLETE unless told otherwise). */
function itnOf(r: Ready, extra: Parameters<FakeGatewayA['itnFields']>[0] = {}) {
  return fake.itnFields({
    m_payment_id: r.link.id,
    custom_str1: r.o.tenantId,
    custom_str2: r.invoice.id,
    item_name: `Invoice ${r.invoice.number}`,
    ...extra,
  });
}

interface Notification {
  id: string;
  status: string;
  trusted: boolean;
  outcome: string;
  checks: Array<{ check: string; passed: boolean; detail: string }>;
  paymentId: string | null;
  invoiceId: string | null;
  amount: number | null;
  fee: number | null;
  externalPaymentId: string | null;
  kind: string;
  resolvedByType: string | null;
}

/** Posts the ITN and waits for the worker to finish its checks. */
async function post(
  o: Online,
  fields: Array<[string, string]>,
  options?: Parameters<FakeGatewayA['sendItn']>[2],
) {
  const sent = await fake.sendItn(notifyUrl(o), fields, options);
  assert.equal(sent.status, 200, sent.answer);
  return settled(o, JSON.parse(sent.answer).id);
}

async function settled(o: Online, id: string): Promise<Notification> {
  for (let i = 0; i < 200; i++) {
    const n = (await fetched(o, `/api/payment-notifications/${id}`)) as Notification;
    if (n.status !== 'received') return n;
    await sleep(100);
  }
  throw new Error(`notification ${id} was never checked`);
}

const checksOf = (n: Notification) => n.checks.map((c) => `${c.check}:${c.passed ? 'ok' : 'failed'}`);

async function invoiceOf(o: Online, id: string) {
  return fetched(o, `/api/invoices/${id}`);
}

async function paymentsOf(o: Online, id: string) {
  return (await fetched(o, `/api/invoices/${id}/payments`)) as Array<{
    id: string;
    amount: number;
    entryId: string;
    reference: string | null;
  }>;
}

async function codeOf(o: Online, systemKey: string): Promise<string> {
  const accounts = (await fetched(o, '/api/accounts')) as Array<{ code: string; systemKey: string | null }>;
  return accounts.find((a) => a.systemKey === systemKey)!.code;
}

describe("gateway A's ITN", () => {
  test('the payer pays on the gateway page: the signed ITN is matched, the invoice paid, the payment in the clearing account and the fee posted', async () => {
    const r = await ready();
    // The signed redirect form, as the pay page sends the payer to the gateway.
    const form = paymentForm(fake.url, GATEWAY_A_KEYS, {
      returnUrl: `${base}/pay/${r.link.token}?paid=1`,
      cancelUrl: `${base}/pay/${r.link.token}`,
      notifyUrl: notifyUrl(r.o),
      mPaymentId: r.link.id,
      amount: '1150.00',
      itemName: `Invoice ${r.invoice.number}`,
      customStr1: r.o.tenantId,
      customStr2: r.invoice.id,
    });
    // The gateway checks the form's signature: an amount changed on the way is refused.
    const tampered = form.fields.map(([k, v]): [string, string] => [k, k === 'amount' ? '1.00' : v]);
    const refused = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(tampered).toString(),
    });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /signature does not match/);
    const page = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    });
    const html = await page.text();
    assert.equal(page.status, 200, html);
    assert.match(html, /R1150\.00/);
    const ref = /name="ref" value="([^"]+)"/.exec(html)![1]!;
    const paid = await fetch(`${fake.url}/eng/process/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `ref=${ref}`,
      redirect: 'manual',
    });
    assert.equal(paid.status, 302);
    assert.equal(paid.headers.get('location'), `${base}/pay/${r.link.token}?paid=1`);
    const itn = fake.sent.at(-1)!;
    assert.equal(itn.status, 200, itn.answer);
    const n = await settled(r.o, JSON.parse(itn.answer).id);
    assert.equal(n.status, 'matched', n.outcome);
    assert.equal(n.trusted, true);
    assert.deepEqual(checksOf(n), [
      'merchant:ok',
      'signature:ok',
      'validate:ok',
      'replay:ok',
      'payment_status:ok',
      'reference:ok',
      'amount:ok',
    ]);
    assert.equal(n.invoiceId, r.invoice.id);
    // Gross 1,150.00, fee 26.45 (kept positive: what the gateway charged).
    assert.deepEqual([n.amount, n.fee], [1150, 26.45]);
    const inv = await invoiceOf(r.o, r.invoice.id);
    assert.deepEqual([inv.status, inv.amountDue], ['paid', 0]);
    const [payment, ...more] = await paymentsOf(r.o, r.invoice.id);
    assert.equal(more.length, 0);
    assert.equal(payment!.id, n.paymentId);
    assert.equal(payment!.amount, 1150);
    // Dr Gateway A clearing (1060) 1,150.00 / Cr trade debtors (1100) 1,150.00.
    const debtors = await codeOf(r.o, 'debtors_control');
    const clearing = await codeOf(r.o, 'gatewaya_clearing');
    assert.equal(clearing, '1060');
    const lines = (await entryLines(r.o, payment!.entryId)).map((l: unknown[]) => l.slice(0, 3));
    assert.deepEqual(
      lines.sort(),
      [
        [clearing, 1150, 0],
        [debtors, 0, 1150],
      ].sort(),
    );
    // The fee: Dr bank charges (6100) 26.45 / Cr Gateway A clearing 26.45. The clearing account
    // holds 1,150.00 − 26.45 = 1,123.55: the payout the gateway will make (amount_net).
    const accounts = (await fetched(r.o, '/api/accounts')) as Array<{ id: string; code: string }>;
    const clearingId = accounts.find((a) => a.code === clearing)!.id;
    const clearingLines = (await fetched(r.o, `/api/ledger?accountId=${clearingId}&limit=50`))
      .items as Array<{
      debit: number;
      credit: number;
      entryId: string;
    }>;
    const balance = clearingLines.reduce(
      (s, l) => s + Math.round(l.debit * 100) - Math.round(l.credit * 100),
      0,
    );
    assert.equal(balance, 112_355);
    const feeEntry = clearingLines.find((l) => l.credit === 26.45)!.entryId;
    assert.deepEqual(
      (await entryLines(r.o, feeEntry)).map((l: unknown[]) => l.slice(0, 3)).sort(),
      [
        ['6100', 26.45, 0],
        [clearing, 0, 26.45],
      ].sort(),
    );
  });

  test('a signature that does not match the body is refused: nothing recorded', async () => {
    const r = await ready();
    const n = await post(r.o, itnOf(r), { signature: 'deadbeef'.repeat(4) });
    assert.equal(n.status, 'refused');
    assert.equal(n.trusted, false);
    assert.deepEqual(checksOf(n), ['merchant:ok', 'signature:failed']);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('signed with the wrong passphrase, or with none while the merchant has one: refused', async () => {
    const r = await ready();
    const wrong = await post(r.o, itnOf(r), { passphrase: 'not-the-passphrase' });
    assert.equal(wrong.status, 'refused');
    assert.deepEqual(checksOf(wrong), ['merchant:ok', 'signature:failed']);
    assert.match(wrong.checks[1]!.detail, /passphrase/);
    const none = await post(r.o, itnOf(r), { passphrase: null });
    assert.equal(none.status, 'refused');
    assert.deepEqual(checksOf(none), ['merchant:ok', 'signature:failed']);
    const inv = await invoiceOf(r.o, r.invoice.id);
    assert.equal(inv.amountDue, 1150);
  });

  test('the gateway answering INVALID to the validate call: refused', async () => {
    const r = await ready();
    fake.validate = 'INVALID';
    try {
      const n = await post(r.o, itnOf(r));
      assert.equal(n.status, 'refused');
      assert.deepEqual(checksOf(n), ['merchant:ok', 'signature:ok', 'validate:failed']);
      assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
    } finally {
      fake.validate = 'normal';
    }
  });

  test("another business's merchant id is refused, even signed with that merchant's passphrase", async () => {
    const r = await ready();
    // The other business holds merchant 10000999; this one does not.
    const other = await onlineSetup(t);
    await setGateway(other, 'gatewaya', OTHER_KEYS);
    const n = await post(r.o, itnOf(r, { merchant_id: OTHER_KEYS.merchantId }), {
      passphrase: OTHER_KEYS.passphrase,
    });
    assert.equal(n.status, 'refused');
    assert.deepEqual(checksOf(n), ['merchant:failed']);
    assert.match(n.checks[0]!.detail, /10000999 is not a gateway A account of this business/);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('a replayed ITN is a duplicate: one payment, and invoice.paid delivered once', async () => {
    // Webhooks need a plan with them.
    const r = await ready('business');
    const hook = await r.o.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: {
        url: `http://127.0.0.1:${receiver.port}/paid/${r.o.tenantId}`,
        eventTypes: ['invoice.paid'],
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const fields = itnOf(r);
    const first = await post(r.o, fields);
    assert.equal(first.status, 'matched', first.outcome);
    // The gateway sends it again (it had no 200 in time, or someone replays it).
    const again = await post(r.o, fields);
    assert.equal(again.status, 'duplicate');
    assert.match(again.outcome, new RegExp(first.id));
    assert.equal(again.checks.find((c) => c.check === 'replay')!.passed, false);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 1);
    const arrived = () => receiver.received.filter((x) => x.url === `/paid/${r.o.tenantId}`);
    for (let i = 0; i < 100 && arrived().length === 0; i++) await sleep(100);
    await sleep(1500);
    assert.equal(arrived().length, 1);
    const body = new Webhook(hook.json().secret).verify(
      arrived()[0]!.body,
      arrived()[0]!.headers as Record<string, string>,
    ) as { type: string; data: { id: string; status: string; amountDue: number } };
    assert.deepEqual(
      [body.type, body.data.id, body.data.status, body.data.amountDue],
      ['invoice.paid', r.invoice.id, 'paid', 0],
    );
  });

  test('an amount outside the tolerance waits for review; matched by hand it pays the invoice', async () => {
    const r = await ready();
    // R1,100.00 paid against R1,150.00 due: 50.00 off, past the R0.01 tolerance.
    const n = await post(r.o, itnOf(r, { amount_gross: '1100.00' }));
    assert.equal(n.status, 'review', n.outcome);
    assert.equal(n.trusted, true);
    assert.equal(n.checks.at(-1)!.check, 'amount');
    assert.equal(n.checks.at(-1)!.passed, false);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
    const queue = await fetched(r.o, '/api/payment-notifications?status=review');
    assert.deepEqual(
      queue.items.map((x: Notification) => x.id),
      [n.id],
    );
    const res = await r.o.api({
      method: 'POST',
      url: `/api/payment-notifications/${n.id}/match`,
      payload: { invoiceId: r.invoice.id },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'matched');
    // 1,150.00 − 1,100.00 = 50.00 still due (due 2026-04-01: overdue by now).
    const inv = await invoiceOf(r.o, r.invoice.id);
    assert.equal(inv.amountDue, 50);
    assert.notEqual(inv.status, 'paid');
    // The amount that settles it (the last R50.00) is taken on its own.
    const rest = await post(r.o, itnOf(r, { amount_gross: '50.00' }));
    assert.equal(rest.status, 'matched', rest.outcome);
    assert.equal((await invoiceOf(r.o, r.invoice.id)).status, 'paid');
  });

  test('a payment in review dismissed with a reason: nothing recorded', async () => {
    const r = await ready();
    // m_payment_id names no link: trusted, but it names no invoice → review.
    const n = await post(r.o, itnOf(r, { m_payment_id: 'someone-else-s-order-77' }));
    assert.equal(n.status, 'review');
    assert.equal(n.checks.find((c) => c.check === 'reference')!.passed, false);
    const res = await r.o.api({
      method: 'POST',
      url: `/api/payment-notifications/${n.id}/dismiss`,
      payload: { reason: 'Paid in error: refunded at the gateway' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'dismissed');
    assert.equal(res.json().dismissReason, 'Paid in error: refunded at the gateway');
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('a reference naming another business (custom_str1) is not taken: review', async () => {
    const r = await ready();
    const other = await onlineSetup(t);
    const n = await post(r.o, itnOf(r, { custom_str1: other.tenantId }));
    assert.equal(n.status, 'review');
    assert.match(n.checks.find((c) => c.check === 'reference')!.detail, /does not name this business/);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('a CANCELLED payment is filed and set aside by the system: nothing recorded', async () => {
    const r = await ready();
    const n = await post(r.o, itnOf(r, { payment_status: 'CANCELLED' }));
    assert.equal(n.status, 'dismissed');
    assert.equal(n.kind, 'other');
    assert.equal(n.trusted, true);
    assert.equal(n.resolvedByType, 'system');
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('an unknown tenant is a 404; a body not form-urlencoded a 415; past 64 KiB a 413', async () => {
    const r = await ready();
    const unknown = await t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${crypto.randomUUID()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'm_payment_id=x&signature=y',
    });
    assertProblem(unknown, 404);
    const json = await t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${r.o.tenantId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assertProblem(json, 415);
    // Past 64 KiB: 413, nothing filed.
    const huge = await t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${r.o.tenantId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `item_description=${'x'.repeat(65 * 1024)}`,
    });
    assertProblem(huge, 413);
    assert.equal((await fetched(r.o, '/api/payment-notifications')).total, 0);
  });

  test('the inbox lists every notification with its checks', async () => {
    const r = await ready();
    const bad = await post(r.o, itnOf(r), { signature: '0'.repeat(32) });
    const good = await post(r.o, itnOf(r));
    const list = await fetched(r.o, '/api/payment-notifications?gateway=gatewaya');
    const byId = new Map(list.items.map((x: Notification) => [x.id, x]));
    assert.deepEqual(checksOf(byId.get(bad.id) as Notification), ['merchant:ok', 'signature:failed']);
    assert.equal((byId.get(good.id) as Notification).status, 'matched');
    assert.equal((byId.get(good.id) as Notification).checks.length, 7);
    assert.ok(list.total >= 2);
  });
});
