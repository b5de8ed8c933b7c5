// A refund gateway B reports (refund.succeeded, trusted): the payment it refunds is reversed
// when the refund is the whole of it (the invoice is open again, the payment's entry reversed).
// A partial refund, or a payment this service never recorded, waits in the review queue with
// the reason: a person decides (a credit note, a partial reversal) and dismisses it.
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import { HttpError } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { reversePayment } from '../invoices/index.ts';
import type { GatewayAccountRow } from './gateways.service.ts';
import { type TakeOutcome, updateNotification } from './notifications.service.ts';
import type { NotificationCheck, NotificationStatus } from './online.tables.ts';

export interface TrustedRefund {
  notificationId: string;
  account: GatewayAccountRow;
  /** The refund's amount. */
  amount: Decimal;
  /** The gateway's id of the payment refunded (payload.paymentId). */
  paymentOf: string | null;
  checks: NotificationCheck[];
}

export async function takeRefund(
  db: Tx,
  deps: AppDeps,
  tenantId: string,
  r: TrustedRefund,
): Promise<TakeOutcome> {
  const checks = [...r.checks];
  const finish = async (status: NotificationStatus, outcome: string, paymentId: string | null) => {
    await updateNotification(db, tenantId, r.notificationId, { status, outcome, checks, paymentId });
    return { status, outcome, paymentId };
  };
  // The notification that recorded the payment: trusted, of this company, a payment recorded.
  const taken = r.paymentOf
    ? await db
        .selectFrom('payment_notifications')
        .select(['id', 'payment_id'])
        .where('tenant_id', '=', tenantId)
        .where('gateway', '=', 'gatewayb')
        .where('kind', '=', 'payment')
        .where('trusted', '=', true)
        .where('company_id', '=', r.account.company_id)
        .where('external_payment_id', '=', r.paymentOf)
        .where('payment_id', 'is not', null)
        .orderBy('received_at')
        .limit(1)
        .executeTakeFirst()
    : undefined;
  const payment = taken?.payment_id
    ? await db
        .selectFrom('invoice_payments')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('id', '=', taken.payment_id)
        .executeTakeFirst()
    : undefined;
  checks.push({
    check: 'payment refunded',
    passed: !!payment,
    detail: payment
      ? `Payment ${r.paymentOf} was recorded here (R${money(payment.amount).toFixed(2)})`
      : `Payment ${r.paymentOf ?? '(none named)'} was not recorded here`,
  });
  if (!payment)
    return finish('review', 'The refund names a payment not recorded here: check it and dismiss it', null);
  const whole = money(payment.amount).equals(r.amount);
  checks.push({
    check: 'amount',
    passed: whole,
    detail: `R${r.amount.toFixed(2)} refunded of a payment of R${money(payment.amount).toFixed(2)}`,
  });
  if (!whole)
    return finish(
      'review',
      `A partial refund (R${r.amount.toFixed(2)} of R${money(payment.amount).toFixed(2)}): adjust the invoice by hand (a credit note), then dismiss it`,
      payment.id,
    );
  try {
    await reversePayment(
      { db, tenantId, companyId: payment.company_id, deps, principal: { type: 'system' } },
      payment.invoice_id,
      payment.id,
    );
  } catch (err) {
    // Already reversed, a locked period, ...: a person looks at it; the refund is not lost.
    if (!(err instanceof HttpError)) throw err;
    return finish('review', `The payment could not be reversed: ${err.message}`, payment.id);
  }
  return finish('matched', `Refunded: the payment of R${r.amount.toFixed(2)} was reversed`, payment.id);
}
