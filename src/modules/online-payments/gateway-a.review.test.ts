// Gateway A's trusted payments that cannot be taken on their own wait in the review queue: an
// amount outside the tolerance, a reference naming no link of this business, or naming another
// business. A person matches them to an invoice (the payment recorded then) or dismisses them.
//
// Figures: the invoice is R1,000 + 15% VAT = R1,150.00; the tolerance is R0.01.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetched } from '../invoices/invoices.factories.ts';
import {
  type Bench,
  itnOf,
  type Notification,
  paymentsOf,
  postItn,
  ready,
  startBench,
} from './gateway-a.factories.ts';
import { type Online, onlineSetup } from './online.factories.ts';

let b: Bench;
before(async () => {
  b = await startBench();
});
after(() => b.close());

const invoiceOf = (o: Online, id: string) => fetched(o, `/api/invoices/${id}`);

describe("gateway A's review queue", () => {
  test('an amount outside the tolerance waits for review; matched by hand it pays the invoice', async () => {
    const r = await ready(b);
    // R1,100.00 paid against R1,150.00 due: 50.00 off, past the R0.01 tolerance.
    const n = await postItn(b, r.o, itnOf(b, r, { amount_gross: '1100.00' }));
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
    const rest = await postItn(b, r.o, itnOf(b, r, { amount_gross: '50.00' }));
    assert.equal(rest.status, 'matched', rest.outcome);
    assert.equal((await invoiceOf(r.o, r.invoice.id)).status, 'paid');
  });

  test('a payment in review dismissed with a reason: nothing recorded', async () => {
    const r = await ready(b);
    // m_payment_id names no link: trusted, but it names no invoice → review.
    const n = await postItn(b, r.o, itnOf(b, r, { m_payment_id: 'someone-else-s-order-77' }));
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
    const r = await ready(b);
    const other = await onlineSetup(b.t);
    const n = await postItn(b, r.o, itnOf(b, r, { custom_str1: other.tenantId }));
    assert.equal(n.status, 'review');
    assert.match(n.checks.find((c) => c.check === 'reference')!.detail, /does not name this business/);
    assert.equal((await paymentsOf(r.o, r.invoice.id)).length, 0);
  });
});
