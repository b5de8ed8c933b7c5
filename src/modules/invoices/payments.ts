// Payments against an invoice or debit note: Dr bank, Cr debtors control (the invoice's open
// item). The invoice row is locked while the balance is checked, so two payments at once
// cannot together pay more than is due. A payment of more than is due (issue 14, item 8) settles
// what is due and leaves the excess as the customer's credit (customer-credits.ts): one more
// line, Cr debtors control on the credit's own open item, so debtors and aged debtors show the
// contact's credit. A reversed payment stays listed; reversing one whose credit was applied or
// refunded is 409 CREDIT_IN_USE.
// A payment recorded is announced (payment.recorded), and the invoice it moved (invoice.updated).

import { emit } from '../../platform/events/outbox.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { bankAccount, ledgerCtxOf, post, reverse, systemAccount } from '../ledger/index.ts';
import { drawnFromCredits } from './credit-sources.ts';
import { insertCredit, settleCredit } from './customer-credits.ts';
import {
  amountDue,
  findInvoiceRow,
  lockInvoiceRow,
  RECEIVABLE_TYPES,
  settlements,
} from './invoices.queries.ts';
import { settle } from './settle.ts';

export interface PaymentInput {
  amount: number;
  date: string;
  method?: string | undefined;
  reference?: string | undefined;
  bankAccountId?: string | undefined;
  clientId?: string | undefined;
}

type PaymentRow = {
  id: string;
  invoice_id: string;
  amount: string;
  date: string;
  method: string | null;
  reference: string | null;
  bank_account_id: string;
  entry_id: string;
  reversed_at: Date | null;
  reversal_entry_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export function toPayment(r: PaymentRow) {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    amount: toNumber(r.amount),
    date: r.date,
    method: r.method,
    reference: r.reference,
    bankAccountId: r.bank_account_id,
    entryId: r.entry_id,
    status: r.reversed_at ? ('reversed' as const) : ('received' as const),
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalEntryId: r.reversal_entry_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The credit a payment's excess left, locked; 409 CREDIT_IN_USE when some of it was drawn on. */
async function creditOfPayment(ctx: WorkCtx, paymentId: string): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('customer_credits')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('payment_id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  const drawn = (await drawnFromCredits(ctx, [row.id])).get(row.id)!;
  if (!drawn.amount.isZero())
    throw conflict(
      `${drawn.amount.toFixed(2)} of the credit this payment left has been applied or refunded; ` +
        'reverse those allocations and refunds before reversing the payment',
      { code: 'CREDIT_IN_USE' },
    );
  return row.id;
}

function findPayment(ctx: WorkCtx, invoiceId: string, id: string) {
  return ctx.db
    .selectFrom('invoice_payments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function recordPayment(ctx: TenantCtx, invoiceId: string, input: PaymentInput) {
  const { payment, created } = await recordPaymentCore(ctx, invoiceId, input);
  ctx.reply.code(created ? 201 : 200);
  return payment;
}

/**
 * The payment itself, without an HTTP reply (a request's TenantCtx or a job's WorkCtx: bank
 * reconciliation records payments after an import). created: false on a clientId replay.
 */
export async function recordPaymentCore(ctx: WorkCtx, invoiceId: string, input: PaymentInput) {
  const companyId = companyOf(ctx);
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, invoiceId);
  if (!invoice) throw notFound('Document');
  const id = input.clientId?.toLowerCase() ?? crypto.randomUUID();
  if (input.clientId) {
    // Under the invoice's lock, so a racing retry finds the first one once it commits.
    const existing = await findPayment(ctx, invoiceId, id);
    if (existing) return { payment: toPayment(existing), created: false };
  }
  if (!RECEIVABLE_TYPES.has(invoice.document_type))
    throw conflict('Only an invoice or a debit note takes payments', { code: 'NOT_RECEIVABLE' });
  if (invoice.status === 'draft')
    throw conflict('Release the invoice before recording a payment', { code: 'NOT_OPEN' });
  if (invoice.status === 'void') throw conflict('The invoice is void', { code: 'NOT_OPEN' });
  const amount = money(input.amount);
  if (amount.lessThanOrEqualTo(0)) throw badRequest('amount', 'must be more than zero');
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('amount', 'must have at most two decimals');
  const due = money(
    amountDue(invoice, (await settlements(ctx.db, ctx.tenantId, [invoiceId])).get(invoiceId)!),
  );
  if (due.lessThanOrEqualTo(0))
    throw conflict('The invoice is already paid in full', { code: 'ALREADY_PAID' });
  // More than is due: the excess becomes the customer's credit, its own open item on debtors.
  const excess = amount.greaterThan(due) ? amount.minus(due) : money(0);
  const creditId = excess.isZero() ? null : crypto.randomUUID();
  if (input.date < invoice.issue_date) throw badRequest('date', 'must not be before the invoice is issued');
  const bank = await bankAccount(ctx, companyId, input.bankAccountId);
  const lctx = ledgerCtxOf(ctx);
  const debtors = await systemAccount(lctx, companyId, 'debtors_control');
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description: `Payment for ${invoice.number}`,
    reference: input.reference ?? invoice.number,
    source: { type: 'payment', id },
    lines: [
      { accountId: bank, debit: amount, description: `Payment for ${invoice.number}` },
      {
        accountId: debtors,
        credit: amount.minus(excess),
        contactId: invoice.contact_id,
        openItemId: invoice.id,
        dueDate: invoice.due_date,
      },
      ...(creditId
        ? [
            {
              accountId: debtors,
              credit: excess,
              description: `Overpayment of ${invoice.number}: customer credit`,
              contactId: invoice.contact_id,
              openItemId: creditId,
            },
          ]
        : []),
    ],
  });
  await ctx.db
    .insertInto('invoice_payments')
    .values({
      tenant_id: ctx.tenantId,
      id,
      invoice_id: invoiceId,
      company_id: companyId,
      amount: toSql(amount),
      date: input.date,
      method: input.method ?? null,
      reference: input.reference ?? null,
      bank_account_id: bank,
      entry_id: entryId,
    })
    .execute();
  if (creditId)
    await insertCredit(ctx, creditId, {
      kind: 'overpayment',
      companyId,
      contactId: invoice.contact_id,
      date: input.date,
      amount: toSql(excess),
      accountId: debtors,
      paymentId: id,
      documentId: invoice.id,
      bankAccountId: bank,
      reference: input.reference ?? null,
      entryId,
    });
  await settle(ctx, invoice, 'payment');
  const payment = toPayment((await findPayment(ctx, invoiceId, id))!);
  await emit(ctx, 'payment.recorded', payment, companyId);
  return { payment, created: true };
}

export async function listPayments(ctx: TenantCtx, invoiceId: string) {
  const invoice = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const rows = await ctx.db
    .selectFrom('invoice_payments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
  return rows.map(toPayment);
}

/** Reverses a payment: its entry is reversed (on the payment's date) and it no longer counts. */
export async function reversePayment(ctx: WorkCtx, invoiceId: string, paymentId: string) {
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const payment = await findPayment(ctx, invoiceId, paymentId);
  if (!payment) throw notFound('Payment');
  if (payment.reversed_at)
    throw conflict('This payment has already been reversed', { code: 'ALREADY_REVERSED' });
  // The credit its excess left goes with it, unless some of it was applied or refunded.
  const credit = await creditOfPayment(ctx, paymentId);
  const reversal = await reverse(ledgerCtxOf(ctx), payment.entry_id, {
    description: `Payment for ${invoice.number} reversed`,
  });
  await ctx.db
    .updateTable('invoice_payments')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', paymentId)
    .execute();
  if (credit) {
    await ctx.db
      .updateTable('customer_credits')
      .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', credit)
      .execute();
    await settleCredit(ctx, credit);
  }
  await settle(ctx, invoice, 'reversal');
  return toPayment((await findPayment(ctx, invoiceId, paymentId))!);
}
