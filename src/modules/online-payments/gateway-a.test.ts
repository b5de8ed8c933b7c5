// Gateway A's ITN through the app and the fake gateway A (test/support/fake-gateway-a.ts): the
// payer pays on the gateway's page, the gateway posts the ITN to the real listening app, the job
// worker checks it (merchant, signature with the passphrase, the gateway's validate, replay,
// payment_status, reference) and takes the payment or files it refused or for review.
//
// Figures: the invoice is R1,000 + 15% VAT = R1,150.00. The fake's fee is 2.3% of the gross:
// 1,150.00 × 0.023 = 26.45, reported as amount_fee -26.45, amount_net 1,123.55.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { entryLines, fetched } from '../invoices/invoices.factories.ts';
import {
  type Bench,
  checked,
  checksOf,
  itnOf,
  type Notification,
  notifyUrl,
  OTHER_KEYS,
  paymentsOf,
  postItn,
  ready,
  startBench,
} from './gateway-a.factories.ts';
import { paymentForm } from './gateway-a.protocol.ts';
import { GATEWAY_A_KEYS, type Online, onlineSetup, setGateway } from './online.factories.ts';

let b: Bench;
let receiver: Receiver;
before(async () => {
  b = await startBench();
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
});
after(async () => {
  await receiver.close();
  await b.close();
});

const invoiceOf = (o: Online, id: string) => fetched(o, `/api/invoices/${id}`);

async function codeOf(o: Online, systemKey: string): Promise<string> {
  const accounts = (await fetched(o, '/api/accounts')) as Array<{ code: string; systemKey: string | null }>;
  return accounts.find((a) => a.systemKey === systemKey)!.code;
}

describe("gateway A's ITN", () => {
  test('the payer pays on the gateway page: the signed ITN is matched, the invoice paid, the payment in the clearing account and the fee posted', async () => {
    const r = await ready(b);
    // The signed redirect form, as the pay page sends the payer to the gateway.
    const form = paymentForm(b.fake.url, GATEWAY_A_KEYS, {
      returnUrl: `${b.base}/pay/${r.link.token}?paid=1`,
      cancelUrl: `${b.base}/pay/${r.link.token}`,
      notifyUrl: notifyUrl(b, r.o),
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
    const paid = await fetch(`${b.fake.url}/eng/process/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `ref=${ref}`,
      redirect: 'manual',
    });
    assert.equal(paid.status, 302);
    assert.equal(paid.headers.get('location'), `${b.base}/pay/${r.link.token}?paid=1`);
    const itn = b.fake.sent.at(-1)!;
    assert.equal(itn.status, 200, itn.answer);
    const n = await checked(r.o, JSON.parse(itn.answer).id);
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
    // Dr Gateway A clearing (1010, the first free bank account code) 1,150.00 / Cr trade debtors (1100) 1,150.00.
    const debtors = await codeOf(r.o, 'debtors_control');
    const clearing = await codeOf(r.o, 'gatewaya_clearing');
    assert.equal(clearing, '1010');
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
    const r = await ready(b);
    const n = await postItn(b, r.o, itnOf(b, r), { signature: 'deadbeef'.repeat(4) });
    assert.equal(n.status, 'refused');
    assert.equal(n.trusted, false);
    assert.deepEqual(checksOf(n), ['merchant:ok', 'signature:failed']);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('signed with the wrong passphrase, or with none while the merchant has one: refused', async () => {
    const r = await ready(b);
    const wrong = await postItn(b, r.o, itnOf(b, r), { passphrase: 'not-the-passphrase' });
    assert.equal(wrong.status, 'refused');
    assert.deepEqual(checksOf(wrong), ['merchant:ok', 'signature:failed']);
    assert.match(wrong.checks[1]!.detail, /passphrase/);
    const none = await postItn(b, r.o, itnOf(b, r), { passphrase: null });
    assert.equal(none.status, 'refused');
    assert.deepEqual(checksOf(none), ['merchant:ok', 'signature:failed']);
    const inv = await invoiceOf(r.o, r.invoice.id);
    assert.equal(inv.amountDue, 1150);
  });

  test('the gateway answering INVALID to the validate call: refused', async () => {
    const r = await ready(b);
    b.fake.validate = 'INVALID';
    try {
      const n = await postItn(b, r.o, itnOf(b, r));
      assert.equal(n.status, 'refused');
      assert.deepEqual(checksOf(n), ['merchant:ok', 'signature:ok', 'validate:failed']);
      assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
    } finally {
      b.fake.validate = 'normal';
    }
  });

  test("another business's merchant id is refused, even signed with that merchant's passphrase", async () => {
    const r = await ready(b);
    // The other business holds merchant 10000999; this one does not.
    const other = await onlineSetup(b.t);
    await setGateway(other, 'gatewaya', OTHER_KEYS);
    const n = await postItn(b, r.o, itnOf(b, r, { merchant_id: OTHER_KEYS.merchantId }), {
      passphrase: OTHER_KEYS.passphrase,
    });
    assert.equal(n.status, 'refused');
    assert.deepEqual(checksOf(n), ['merchant:failed']);
    assert.match(n.checks[0]!.detail, /10000999 is not a gateway A account of this business/);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('a replayed ITN is a duplicate: one payment, and invoice.paid delivered once', async () => {
    // Webhooks need a plan with them.
    const r = await ready(b, 'business');
    const hook = await r.o.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: {
        url: `http://127.0.0.1:${receiver.port}/paid/${r.o.tenantId}`,
        eventTypes: ['invoice.paid'],
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const fields = itnOf(b, r);
    const first = await postItn(b, r.o, fields);
    assert.equal(first.status, 'matched', first.outcome);
    // The gateway sends it again (it had no 200 in time, or someone replays it).
    const again = await postItn(b, r.o, fields);
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

  test('a CANCELLED payment is filed and set aside by the system: nothing recorded', async () => {
    const r = await ready(b);
    const n = await postItn(b, r.o, itnOf(b, r, { payment_status: 'CANCELLED' }));
    assert.equal(n.status, 'dismissed');
    assert.equal(n.kind, 'other');
    assert.equal(n.trusted, true);
    assert.equal(n.resolvedByType, 'system');
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });

  test('an unknown tenant is a 404; a body not form-urlencoded a 415; past 64 KiB a 413', async () => {
    const r = await ready(b);
    const unknown = await b.t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${crypto.randomUUID()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'm_payment_id=x&signature=y',
    });
    assertProblem(unknown, 404);
    const json = await b.t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${r.o.tenantId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assertProblem(json, 415);
    // Past 64 KiB: 413, nothing filed.
    const huge = await b.t.app.inject({
      method: 'POST',
      url: `/webhooks/gatewaya/itn/${r.o.tenantId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `item_description=${'x'.repeat(65 * 1024)}`,
    });
    assertProblem(huge, 413);
    assert.equal((await fetched(r.o, '/api/payment-notifications')).total, 0);
  });

  test('the inbox lists every notification with its checks', async () => {
    const r = await ready(b);
    const bad = await postItn(b, r.o, itnOf(b, r), { signature: '0'.repeat(32) });
    const good = await postItn(b, r.o, itnOf(b, r));
    const list = await fetched(r.o, '/api/payment-notifications?gateway=gatewaya');
    const byId = new Map(list.items.map((x: Notification) => [x.id, x]));
    assert.deepEqual(checksOf(byId.get(bad.id) as Notification), ['merchant:ok', 'signature:failed']);
    assert.equal((byId.get(good.id) as Notification).status, 'matched');
    assert.equal((byId.get(good.id) as Notification).checks.length, 7);
    assert.ok(list.total >= 2);
  });
});
