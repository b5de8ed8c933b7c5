// Gateway B, after the signature and the reference: what a trusted event does to the books. A
// payment outside the tolerance waits for review and is matched by hand; a whole refund
// reverses the payment (a partial one waits for review); invoice.paid goes once however often
// the gateway retries. Payments go into the Gateway B clearing account (a bank account).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { entryLines } from '../invoices/invoices.factories.ts';
import {
  type GatewayBWorld,
  gatewayBBusiness,
  inboxOf,
  invoiceOf,
  invoiceWithCheckout,
  paymentsOf,
  startGatewayBWorld,
} from './gateway-b.factories.ts';
import type { Online } from './online.factories.ts';

/** An entry's lines as [account name, debit, credit]. */
async function namedLines(o: Online, entryId: string) {
  const accounts = (await o.api({ method: 'GET', url: '/api/accounts' })).json() as Array<{
    code: string;
    name: string;
  }>;
  const nameOf = (code: string) => accounts.find((a) => a.code === code)!.name;
  return (await entryLines(o, entryId)).map(([code, dr, cr]: [string, number, number]) => [
    nameOf(code),
    dr,
    cr,
  ]);
}

describe('gateway B: review, refunds and invoice.paid', () => {
  let w: GatewayBWorld;
  let receiver: Receiver;
  before(async () => {
    w = await startGatewayBWorld({ webhookAllowPrivateTargets: true });
    receiver = await startReceiver((_req, res) => res.writeHead(204).end());
  });
  after(async () => {
    await receiver.close();
    await w.close();
  });

  test('an amount outside the tolerance waits in review, then a person matches it', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    // R1,000.00 paid (100,000 cents) against R1,150.00 due: R150.00 off, tolerance R0.01.
    const d = await w.fake.pay(checkout.id, { amount: 100_000 });
    assert.equal(d.status, 200, d.body);
    assert.equal(JSON.parse(d.body).status, 'review');
    const [n] = await inboxOf(w, o.tenantId);
    assert.equal(n!.status, 'review');
    assert.match(n!.outcome, /R1000\.00 paid against R1150\.00 due/);
    assert.equal((await paymentsOf(w, o.tenantId, invoice.id)).length, 0);
    const queue = await o.api({ method: 'GET', url: '/api/payment-notifications?status=review' });
    assert.equal(queue.statusCode, 200, queue.body);
    assert.deepEqual(
      queue.json().items.map((x: { id: string }) => x.id),
      [n!.id],
    );
    const matched = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${n!.id}/match`,
      payload: { invoiceId: invoice.id },
    });
    assert.equal(matched.statusCode, 200, matched.body);
    assert.equal(matched.json().status, 'matched');
    const [payment] = await paymentsOf(w, o.tenantId, invoice.id);
    assert.equal(payment!.amount, '1000.00');
    // R1,150.00 due less R1,000.00 paid = R150.00 still due.
    assert.equal((await invoiceOf(o, invoice.id)).amountDue, 150);
    // Dr Gateway B clearing 1,000.00 / Cr debtors 1,000.00.
    const lines = await namedLines(o, payment!.entry_id);
    assert.deepEqual(lines[0], ['Gateway B clearing', 1000, 0]);
    assert.deepEqual(lines[1].slice(1), [0, 1000]);
    assert.equal(lines.length, 2);
  });

  test('a full refund reverses the payment: the invoice is open again, the entry reversed', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    const paid = await w.fake.pay(checkout.id);
    assert.equal(JSON.parse(paid.body).status, 'matched');
    assert.equal((await invoiceOf(o, invoice.id)).status, 'paid');
    // The whole R1,150.00 (115,000 cents) refunded.
    const d = await w.fake.refund(paid.paymentId, 115_000);
    assert.equal(d.status, 200, d.body);
    assert.equal(JSON.parse(d.body).status, 'matched');
    const refund = (await inboxOf(w, o.tenantId)).at(-1)!;
    assert.deepEqual(
      [refund.kind, refund.status, refund.external_payment_id],
      ['refund', 'matched', d.refundId],
    );
    const [payment] = await paymentsOf(w, o.tenantId, invoice.id);
    assert.equal(refund.payment_id, payment!.id);
    assert.ok(payment!.reversed_at, 'the payment is reversed');
    const open = await invoiceOf(o, invoice.id);
    assert.notEqual(open.status, 'paid');
    assert.equal(open.amountDue, 1150);
    // The payment was Dr clearing 1,150.00 / Cr debtors 1,150.00; its reversal is the mirror:
    // Dr debtors 1,150.00 / Cr Gateway B clearing 1,150.00, so the clearing account nets to 0.
    const original = await namedLines(o, payment!.entry_id);
    const reversal = await namedLines(o, payment!.reversal_entry_id!);
    assert.deepEqual(original[0], ['Gateway B clearing', 1150, 0]);
    assert.deepEqual(
      reversal.sort(),
      original.map(([name, dr, cr]: [string, number, number]) => [name, cr, dr]).sort(),
    );
    // The gateway retrying the refund changes nothing more.
    const again = await w.fake.redeliver(d.eventId!);
    assert.equal(JSON.parse(again.body).status, 'duplicate');
    assert.equal((await invoiceOf(o, invoice.id)).amountDue, 1150);
  });

  test('a partial refund, or a refund of a payment never recorded here, waits in review', async () => {
    const o = await gatewayBBusiness(w);
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    const paid = await w.fake.pay(checkout.id);
    // R500.00 of the R1,150.00 payment.
    const partial = await w.fake.refund(paid.paymentId, 50_000);
    assert.equal(JSON.parse(partial.body).status, 'review');
    const n = (await inboxOf(w, o.tenantId)).at(-1)!;
    assert.match(n.outcome, /partial refund \(R500\.00 of R1150\.00\)/);
    const [payment] = await paymentsOf(w, o.tenantId, invoice.id);
    assert.equal(payment!.reversed_at, null, 'the payment stands');
    assert.equal((await invoiceOf(o, invoice.id)).status, 'paid');
    // A refund naming a payment the fake made but this service refused (another checkout, no link).
    const second = await invoiceWithCheckout(w, o);
    const other = await w.fake.pay(second.checkout.id, { amount: 100_000 });
    assert.equal(JSON.parse(other.body).status, 'review', 'R1,000.00 of R1,150.00: not recorded');
    const orphan = await w.fake.refund(other.paymentId, 100_000);
    assert.equal(JSON.parse(orphan.body).status, 'review');
    assert.match((await inboxOf(w, o.tenantId)).at(-1)!.outcome, /not recorded here/);
    // A refund in review cannot be matched as a payment; it is dismissed with a reason.
    const id = (await inboxOf(w, o.tenantId)).at(-1)!.id;
    const match = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${id}/match`,
      payload: { invoiceId: second.invoice.id },
    });
    assert.equal(match.statusCode, 409, match.body);
    const dismissed = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${id}/dismiss`,
      payload: { reason: 'Refunded at the gateway; nothing was recorded' },
    });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
  });

  test('invoice.paid is delivered once, signed, however often the gateway retries', async () => {
    const o = await gatewayBBusiness(w);
    const hook = await o.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: `http://127.0.0.1:${receiver.port}/paid/${o.tenantId}`, eventTypes: ['invoice.paid'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const secret = hook.json().secret;
    const { invoice, checkout } = await invoiceWithCheckout(w, o);
    const paid = await w.fake.pay(checkout.id);
    assert.equal(JSON.parse(paid.body).status, 'matched');
    await w.fake.redeliver(paid.eventId!);
    await w.fake.redeliver(paid.eventId!);
    const arrived = () => receiver.received.filter((r) => r.url === `/paid/${o.tenantId}`);
    for (let i = 0; i < 100 && arrived().length === 0; i++) await sleep(100);
    await sleep(2000);
    assert.equal(arrived().length, 1, 'one delivery');
    const body = new Webhook(secret).verify(
      arrived()[0]!.body,
      arrived()[0]!.headers as Record<string, string>,
    ) as {
      type: string;
      data: { id: string; status: string; total: number; amountDue: number };
    };
    assert.equal(body.type, 'invoice.paid');
    // R1,150.00 total, all of it paid online: nothing due.
    assert.deepEqual(
      [body.data.id, body.data.status, body.data.total, body.data.amountDue],
      [invoice.id, 'paid', 1150, 0],
    );
    assert.deepEqual(
      (await inboxOf(w, o.tenantId)).map((n) => n.status),
      ['matched', 'duplicate', 'duplicate'],
    );
  });
});
