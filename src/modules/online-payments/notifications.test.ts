// takeTrustedPayment, the one way a trusted gateway payment is recorded: within the gateway's
// tolerance of what its invoice has due it is recorded into the clearing account; outside it,
// or naming no invoice, it waits in the review queue, where a person matches or dismisses it.
// Each gateway's own checks (signatures, the validate call, replays) are in gateway-a/-b tests.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import { bankingSetup } from '../banking/banking.factories.ts';
import { lineOf, match } from '../banking/reconciliation.factories.ts';
import { gatewayAccountRow } from './gateways.service.ts';
import { fileNotification, takeTrustedPayment } from './notifications.service.ts';
import { GATEWAY_A_KEYS, type Online, onlineSetup, openInvoice, setGateway } from './online.factories.ts';

describe('trusted payments: the tolerance, the review queue, match and dismiss', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /** A trusted gateway A payment of `amount` for the invoice, as an inbound route hands it over. */
  async function take(o: Online, invoiceId: string | null, amount: string, fee?: string) {
    return withTenant(t.database.db, o.tenantId, async (tx) => {
      const account = (await gatewayAccountRow(tx, o.tenantId, o.companyId, 'gatewaya'))!;
      const id = await fileNotification(tx, o.tenantId, {
        gateway: 'gatewaya',
        rawBody: `amount_gross=${amount}`,
        trusted: true,
        externalPaymentId: crypto.randomUUID(),
        amount,
      });
      const outcome = await takeTrustedPayment(tx, t.deps, o.tenantId, {
        notificationId: id,
        account,
        invoiceId,
        amount: money(amount),
        fee: fee ? money(fee) : null,
        externalPaymentId: `pf-${id}`,
        checks: [{ check: 'signature', passed: true, detail: 'test' }],
      });
      return { id, ...outcome };
    });
  }

  async function ready() {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    return o;
  }

  test('one cent short (the default tolerance) is recorded; two cents short waits for review', async () => {
    const o = await ready();
    // R1,000.00 + 15% VAT = R1,150.00 due.
    const inv = await openInvoice(o);
    const off = await take(o, inv.id, '1149.98');
    assert.equal(off.status, 'review');
    assert.match(off.outcome, /R1149\.98 paid against R1150\.00 due/);
    const near = await take(o, inv.id, '1149.99');
    assert.equal(near.status, 'matched', near.outcome);
    // 1,150.00 - 1,149.99 = 0.01 left on the invoice (overdue: its due date, 2026-04-01, is past).
    const after = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}` });
    assert.equal(after.json().amountPaid, 1149.99);
    assert.equal(after.json().amountDue, 0.01);
  });

  test('recorded into the clearing account, the fee as a bank charge: the clearing balance is the payout', async () => {
    const o = await ready();
    const inv = await openInvoice(o);
    const r = await take(o, inv.id, '1150.00', '26.45');
    assert.equal(r.status, 'matched', r.outcome);
    const today = new Date().toISOString().slice(0, 10);
    const tb = (await o.api({ method: 'GET', url: `/api/reports/trial-balance?asOf=${today}` })).json();
    const line = (code: string) => tb.accounts.find((a: { code: string }) => a.code === code);
    // Dr 1010 Gateway A clearing (a bank account: the first free bank code) 1,150.00, Cr 1100
    // debtors 1,150.00; then the fee, Dr 6100 bank charges 26.45, Cr 1010 26.45: the clearing
    // account holds 1,150.00 - 26.45 = 1,123.55, what the gateway pays out.
    assert.equal(line('1010').name, 'Gateway A clearing');
    assert.equal(line('1010').debit, 1123.55);
    assert.equal(line('6100').debit, 26.45);
    const paid = await o.api({ method: 'GET', url: `/api/invoices/${inv.id}` });
    assert.equal(paid.json().status, 'paid');
  });

  test("the gateway's payout, reconciled as a transfer from the clearing account, settles it", async () => {
    const o = await ready();
    const k = await bankingSetup(t, o.b);
    const inv = await openInvoice(o);
    assert.equal((await take(o, inv.id, '1150.00', '26.45')).status, 'matched');
    const clearing = (await o.api({ method: 'GET', url: '/api/payment-gateways' })).json()[0]
      .clearingAccountId;
    // The gateway pays out 1,150.00 - 26.45 = 1,123.55 into the FNB account (1020: the clearing
    // account, made first, took 1010).
    const today = new Date().toISOString().slice(0, 10);
    const line = await lineOf(t, { ...k, sales: o }, '1123.55', 'GATEWAY A PAYOUT', today);
    await match({ ...k, sales: o }, { bankTransactionId: line, transfer: { bankAccountId: clearing } });
    const tb = (await o.api({ method: 'GET', url: `/api/reports/trial-balance?asOf=${today}` })).json();
    const line1 = (code: string) => tb.accounts.find((a: { code: string }) => a.code === code);
    // Dr 1020 1,123.55, Cr 1010 1,123.55: the clearing account is back to nothing.
    assert.equal(line1('1020').debit, 1123.55);
    const clearingLeft = line1('1010');
    assert.ok(
      !clearingLeft || (clearingLeft.debit === 0 && clearingLeft.credit === 0),
      JSON.stringify(clearingLeft),
    );
  });

  test('review → a person matches it to an invoice; another dismissed with a reason; neither twice', async () => {
    const o = await ready();
    const inv = await openInvoice(o);
    const lost = await take(o, null, '1150.00');
    assert.equal(lost.status, 'review');
    const queue = await o.api({
      method: 'GET',
      url: '/api/payment-notifications',
      query: { status: 'review' },
    });
    assert.equal(queue.statusCode, 200, queue.body);
    assert.deepEqual(
      queue.json().items.map((n: { id: string }) => n.id),
      [lost.id],
    );
    const match = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${lost.id}/match`,
      payload: { invoiceId: inv.id },
    });
    assert.equal(match.statusCode, 200, match.body);
    assert.equal(match.json().status, 'matched');
    assert.equal(match.json().resolvedByType, 'user');
    assert.equal((await o.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json().status, 'paid');
    const again = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${lost.id}/match`,
      payload: { invoiceId: inv.id },
    });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'NOT_IN_REVIEW');

    const stray = await take(o, null, '99.00');
    const dismissed = await o.api({
      method: 'POST',
      url: `/api/payment-notifications/${stray.id}/dismiss`,
      payload: { reason: 'A test payment at the gateway' },
    });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
    assert.equal(dismissed.json().status, 'dismissed');
    assert.equal(dismissed.json().dismissReason, 'A test payment at the gateway');
  });

  test("another tenant's notification is 404", async () => {
    const o = await ready();
    const other = await ready();
    const n = await take(o, null, '10.00');
    const res = await other.api({ method: 'GET', url: `/api/payment-notifications/${n.id}` });
    assert.equal(res.statusCode, 404, res.body);
  });
});
