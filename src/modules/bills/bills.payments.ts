// Paying a supplier: Dr creditors control (the bill's open item, the supplier), Cr bank. The
// bill row is locked while what is due is checked, so two payments at once cannot together pay
// more than is owed; a payment of more than is due is 400 (a supplier's credit is not kept yet).
// The bill's status follows: approved → partially_paid → paid (paidAt set).

import type { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { bankAccount, ledgerCtxOf, post, reverse } from '../ledger/index.ts';
import { assertNotHeld } from './bills.hold.ts';
import { creditorsLine } from './bills.posting.ts';
import { amountDueOf, type BillRow, billSettlements } from './bills.queries.ts';
import type { BillPayment, BillPaymentCreate } from './bills.schemas.ts';
import { lockBill } from './bills.service.ts';

type Payment = Static<typeof BillPayment>;

function toBillPayment(r: {
  id: string;
  bill_id: string;
  amount: string;
  date: string;
  reference: string | null;
  bank_account_id: string;
  entry_id: string;
  reversed_at: Date | null;
  reversal_entry_id: string | null;
  created_at: Date;
}): Payment {
  return {
    id: r.id,
    billId: r.bill_id,
    amount: toNumber(r.amount),
    date: r.date,
    reference: r.reference,
    bankAccountId: r.bank_account_id,
    entryId: r.entry_id,
    status: r.reversed_at ? 'reversed' : 'paid',
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalEntryId: r.reversal_entry_id,
    createdAt: r.created_at.toISOString(),
  };
}

export async function payBill(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BillPaymentCreate>,
): Promise<Payment> {
  const { payment, created } = await payBillCore(ctx, id, input);
  ctx.reply.code(created ? 201 : 200);
  return payment;
}

/**
 * The payment itself, without an HTTP reply (a request's TenantCtx or a job's WorkCtx: bank
 * reconciliation pays bills after an import). created: false on a clientId replay.
 */
export async function payBillCore(
  ctx: WorkCtx,
  id: string,
  input: Static<typeof BillPaymentCreate>,
): Promise<{ payment: Payment; created: boolean }> {
  const { id: paymentId, replay } = await claimClientId(ctx, input.clientId, {
    table: 'bill_payments',
    owner: ['bill_id', id],
  });
  if (replay) {
    const existing = await ctx.db
      .selectFrom('bill_payments')
      .selectAll()
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    return { payment: toBillPayment(existing), created: false };
  }
  const row = await lockBill(ctx, id);
  if (row.status === 'paid') throw conflict('This bill is paid already', { code: 'ALREADY_PAID' });
  if (row.status !== 'approved' && row.status !== 'partially_paid')
    throw conflict(`Only an approved bill is paid; this one is ${row.status}`, { code: 'NOT_APPROVED' });
  assertNotHeld(row);
  if (!hasAtMostDecimals(input.amount, 2)) throw badRequest('amount', 'at most two decimals');
  if (input.date < row.issue_date) throw badRequest('date', 'must not be before the bill’s issue date');
  const due = money(amountDueOf(row, (await billSettlements(ctx.db, ctx.tenantId, [id])).get(id)!));
  const amount = money(input.amount);
  if (amount.greaterThan(due))
    throw badRequest('amount', `${amount.toFixed(2)} is more than the ${due.toFixed(2)} due on this bill`);
  const bank = await bankAccount(ctx, row.company_id, input.bankAccountId);
  const entryId = await post(ledgerCtxOf(ctx), {
    companyId: row.company_id,
    date: input.date,
    description: `Payment of bill ${row.bill_number}`,
    reference: input.reference ?? row.bill_number,
    source: { type: 'bill_payment', id: paymentId },
    lines: [
      { ...(await creditorsLine(ctx, row)), debit: amount, description: `Bill ${row.bill_number}` },
      { accountId: bank, credit: amount, description: `Payment of bill ${row.bill_number}` },
    ],
  });
  const payment = await recordPayment(ctx, row, {
    id: paymentId,
    amount,
    date: input.date,
    reference: input.reference ?? null,
    bankAccountId: bank,
    entryId,
    paymentRunId: null,
  });
  return { payment, created: true };
}

/**
 * The payment record of money already posted (entryId), and the bill's status after it. A
 * single payment posts its own entry; a payment run posts one entry for all its bills and
 * records each bill's payment here with that entry.
 */
export async function recordPayment(
  ctx: WorkCtx,
  row: BillRow,
  p: {
    id: string;
    amount: Decimal;
    date: string;
    reference: string | null;
    bankAccountId: string;
    entryId: string;
    paymentRunId: string | null;
  },
): Promise<Payment> {
  const payment = await ctx.db
    .insertInto('bill_payments')
    .values({
      tenant_id: ctx.tenantId,
      id: p.id,
      bill_id: row.id,
      company_id: row.company_id,
      amount: toSql(p.amount),
      date: p.date,
      reference: p.reference,
      bank_account_id: p.bankAccountId,
      entry_id: p.entryId,
      payment_run_id: p.paymentRunId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await settleBill(ctx, row);
  return toBillPayment(payment);
}

/**
 * After money or credit moved on an approved bill: its status follows what is still due
 * (approved → partially_paid → paid, paidAt set when nothing is left).
 */
export async function settleBill(ctx: WorkCtx, row: BillRow): Promise<void> {
  // A void or rejected bill keeps its status (nothing is due on it, which is not "paid").
  if (row.status === 'void' || row.status === 'rejected') return;
  const s = (await billSettlements(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const due = money(amountDueOf(row, s));
  const moved = money(s.paid).plus(money(s.offset));
  await ctx.db
    .updateTable('bills')
    .set(
      due.lessThanOrEqualTo(0)
        ? { status: 'paid', paid_at: ctx.deps.now() }
        : { status: moved.isZero() ? 'approved' : 'partially_paid', paid_at: null },
    )
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
}

export async function listBillPayments(ctx: TenantCtx, id: string): Promise<Payment[]> {
  const row = await ctx.db
    .selectFrom('bills')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Bill');
  const rows = await ctx.db
    .selectFrom('bill_payments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('bill_id', '=', id)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
  return rows.map(toBillPayment);
}

/**
 * DELETE /api/bills/{id}/payments/{paymentId}: the payment's entry is reversed (dated as it was),
 * the amount is owed again and the bill's status follows. The row stays, marked reversed.
 */
export async function reverseBillPayment(ctx: WorkCtx, id: string, paymentId: string): Promise<Payment> {
  const row = await lockBill(ctx, id);
  const payment = await ctx.db
    .selectFrom('bill_payments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('bill_id', '=', id)
    .where('id', '=', paymentId)
    .executeTakeFirst();
  if (!payment) throw notFound('Payment');
  if (payment.reversed_at)
    throw conflict('This payment has already been reversed', { code: 'ALREADY_REVERSED' });
  // A payment run's entry pays several bills: reversing it whole would undo the others, so
  // one payment of a run is undone by its own entry, the mirror of its part of the run's.
  const reversal = payment.payment_run_id
    ? await post(ledgerCtxOf(ctx), {
        companyId: row.company_id,
        date: payment.date,
        description: `Payment of bill ${row.bill_number} reversed (payment run)`,
        reference: row.bill_number,
        source: { type: 'bill_payment', id: paymentId },
        lines: [
          {
            accountId: payment.bank_account_id,
            debit: money(payment.amount),
            description: 'Payment reversed',
          },
          {
            ...(await creditorsLine(ctx, row)),
            credit: money(payment.amount),
            description: `Bill ${row.bill_number}`,
          },
        ],
      })
    : await reverse(ledgerCtxOf(ctx), payment.entry_id, {
        description: `Payment of bill ${row.bill_number} reversed`,
        source: { type: 'bill_payment', id: paymentId },
      });
  const reversed = await ctx.db
    .updateTable('bill_payments')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', paymentId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await settleBill(ctx, row);
  return toBillPayment(reversed);
}
