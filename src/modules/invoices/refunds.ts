// Refunds: money paid back out of what remains of a customer credit, a credit note or a deposit
// (issue 14, items 7 and 8). One table and one posting for every source (credit-sources.ts):
//   Dr the source's account, on its own open item (debtors control: an overpayment or a credit
//      note; customer deposits: a deposit or its excess; income received in advance: an advance
//      payment, net of its VAT)
//   Dr VAT output: an advance payment's VAT in proportion, tagged standard (a reduction of output
//      tax in the refund's period, as a credit note's, VAT Act s21)
//   Cr bank
// The source is locked while what remains is checked, so two refunds (or a refund and an
// application) cannot together draw more than remains. A refund reversed gives the amount back.
// A refund is announced (refund.recorded, besides invoice.updated on a credit note or deposit).

import type { Selectable } from 'kysely';
import { emit } from '../../platform/events/outbox.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { bankAccount, ledgerCtxOf, post, reverse } from '../ledger/index.ts';
import { type CreditSource, drawLines, lockCreditSource, vatDrawn } from './credit-sources.ts';
import { settleSource } from './customer-credits.ts';
import type { CustomerRefundsTable } from './invoices.tables.ts';

export interface RefundInput {
  amount?: number | undefined;
  date: string;
  bankAccountId?: string | undefined;
  reference?: string | undefined;
}

function toRefund(r: Selectable<CustomerRefundsTable>) {
  return {
    id: r.id,
    sourceType: r.source_type,
    sourceId: r.source_id,
    contactId: r.contact_id,
    date: r.date,
    amount: toNumber(r.amount),
    vatAmount: toNumber(r.vat_amount),
    bankAccountId: r.bank_account_id,
    reference: r.reference,
    entryId: r.entry_id,
    status: r.reversed_at ? ('reversed' as const) : ('paid' as const),
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalEntryId: r.reversal_entry_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The source, locked unless a read; another company's or tenant's, or no credit at all, is 404. */
async function sourceOf(ctx: TenantCtx, id: string, lock = true): Promise<CreditSource> {
  const source = await lockCreditSource(ctx, id, lock);
  if (!source) throw notFound('Customer credit');
  return source;
}

/** Refuses a source nothing can be drawn from (a draft, a void document, a reversed credit). */
export function assertDrawable(source: CreditSource): void {
  if (!source.live)
    throw conflict(
      source.type === 'customer_credit'
        ? 'The payment this credit came from was reversed'
        : `The ${source.label} is ${source.status}; release it first`,
      { code: 'NOT_OPEN' },
    );
  if (source.status === 'forfeited')
    throw conflict(`The ${source.label} was forfeited`, { code: 'NOT_OPEN' });
  if (source.remaining.lessThanOrEqualTo(0))
    throw conflict(`Nothing is left of the ${source.label} to apply or refund`, { code: 'NO_CREDIT_LEFT' });
}

/** POST …/refunds: the refund, answered 201. */
export async function recordRefund(ctx: TenantCtx, sourceId: string, input: RefundInput) {
  const refund = await refundFrom(ctx, sourceId, input);
  ctx.reply.code(201);
  return refund;
}

/** Pays back `amount` (default all that remains) of the source: the posting, the row, the event. */
export async function refundFrom(ctx: TenantCtx, sourceId: string, input: RefundInput) {
  const source = await sourceOf(ctx, sourceId);
  assertDrawable(source);
  const amount = input.amount === undefined ? source.remaining : money(input.amount);
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('amount', 'must have at most two decimals');
  if (amount.greaterThan(source.remaining))
    throw badRequest(
      'amount',
      `${amount.toFixed(2)} is more than the ${source.remaining.toFixed(2)} that remains of the ${source.label}`,
    );
  if (input.date < source.date)
    throw badRequest('date', `must not be before the ${source.label} (${source.date})`);
  const companyId = companyOf(ctx);
  const bank = await bankAccount(ctx, companyId, input.bankAccountId);
  const vat = vatDrawn(source, amount);
  const id = crypto.randomUUID();
  const lctx = ledgerCtxOf(ctx);
  const description = `Refund of ${source.label}`;
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description,
    reference: input.reference ?? null,
    source: { type: 'refund', id },
    lines: [
      ...(await drawLines(lctx, source, amount, vat, description)),
      { accountId: bank, credit: amount, description },
    ],
  });
  await ctx.db
    .insertInto('customer_refunds')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: source.contactId,
      source_type: source.type,
      source_id: source.id,
      date: input.date,
      amount: toSql(amount),
      vat_amount: toSql(vat),
      bank_account_id: bank,
      reference: input.reference ?? null,
      entry_id: entryId,
    })
    .execute();
  await settleSource(ctx, source);
  const refund = toRefund((await findRefund(ctx, source.id, id))!);
  await emit(ctx, 'refund.recorded', refund, companyId);
  return refund;
}

function findRefund(ctx: TenantCtx, sourceId: string, id: string) {
  return ctx.db
    .selectFrom('customer_refunds')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('source_id', '=', sourceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listRefunds(ctx: TenantCtx, sourceId: string) {
  await sourceOf(ctx, sourceId, false);
  const rows = await ctx.db
    .selectFrom('customer_refunds')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('source_id', '=', sourceId)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
  return rows.map(toRefund);
}

/** Reverses a refund: its entry is reversed (on the refund's date) and the amount remains again. */
export async function reverseRefund(ctx: TenantCtx, sourceId: string, refundId: string) {
  const source = await sourceOf(ctx, sourceId);
  const refund = await findRefund(ctx, sourceId, refundId);
  if (!refund) throw notFound('Refund');
  if (refund.reversed_at)
    throw conflict('This refund has already been reversed', { code: 'ALREADY_REVERSED' });
  const reversal = await reverse(ledgerCtxOf(ctx), refund.entry_id, {
    description: `Refund of ${source.label} reversed`,
  });
  await ctx.db
    .updateTable('customer_refunds')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', refundId)
    .execute();
  await settleSource(ctx, source);
  return toRefund((await findRefund(ctx, sourceId, refundId))!);
}
