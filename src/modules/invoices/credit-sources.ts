// What a customer's credit can be drawn from, seen one way whatever it is, so that applying it
// to an invoice (allocations.ts) and refunding it (refunds.ts) each have one posting function:
//   customer credit  a row of customer_credits (an overpayment, a deposit's excess, an advance
//                    payment), its own open item on the account it sits on;
//   credit note      a released credit note's remaining amount, its open item on debtors control;
//   deposit          a released deposit's remaining amount, its open item on customer deposits.
// Drawing an amount out of a source debits that account on the source's open item; an advance
// payment's output VAT (accounted on receipt, VAT Act s9(1)) is drawn out with it in proportion
// and debited to VAT output, both tagged standard at the rate of receipt, so that the VAT report
// sees the reduction (an application, cancelling the invoice's own VAT; a refund, s21).

import type { Decimal } from 'decimal.js';
import { type Selectable, sql } from 'kysely';
import { money } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { type LedgerCtx, type PostingLine, systemAccount } from '../ledger/index.ts';
import { creditLeft, findInvoiceRow, lockInvoiceRow, settlements } from './invoices.queries.ts';
import type { CreditKind, CustomerCreditsTable, RefundSourceType } from './invoices.tables.ts';

export interface CreditSource {
  type: RefundSourceType;
  id: string;
  kind: CreditKind | 'credit_note' | 'deposit';
  companyId: string;
  contactId: string;
  /** The document number, or a label for a customer credit. */
  label: string;
  date: string;
  /** Released (a document) and not reversed (a credit): money can be drawn from it. */
  live: boolean;
  status: string;
  accountId: string;
  dueDate: string | null;
  total: Decimal;
  remaining: Decimal;
  /** Output VAT accounted on it (an advance payment) and what is left of it to draw out. */
  vatTotal: Decimal;
  vatRemaining: Decimal;
  vatRate: Decimal | null;
}

const KIND_LABEL: Record<CreditKind, string> = {
  overpayment: 'Overpayment',
  deposit_excess: 'Deposit excess',
  advance_payment: 'Advance payment',
};

export type CreditRow = Selectable<CustomerCreditsTable>;

export function creditLabel(kind: CreditKind, date: string): string {
  return `${KIND_LABEL[kind]} of ${date}`;
}

/** A customer credit's row, locked until commit when `lock` (applications and refunds take turns). */
export async function findCreditRow(ctx: WorkCtx, id: string, lock = false): Promise<CreditRow | undefined> {
  let q = ctx.db
    .selectFrom('customer_credits')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * What has been drawn from customer credits: live applications and refunds, amount and VAT, and
 * a deposit's excess forfeited (deposits.ts; it draws no VAT out: the forfeit's VAT is output tax
 * of its own).
 */
export async function drawnFromCredits(
  ctx: WorkCtx,
  ids: string[],
): Promise<Map<string, { amount: Decimal; vat: Decimal }>> {
  const out = new Map(ids.map((id) => [id, { amount: money(0), vat: money(0) }]));
  if (!ids.length) return out;
  const rows = await sql<{ source_id: string; amount: string; vat: string }>`
    select source_id, sum(amount)::text as amount, sum(vat_amount)::text as vat from (
      select source_id, amount, vat_amount from invoice_allocations
       where tenant_id = ${ctx.tenantId} and source_credit_id = any(${ids}::uuid[]) and reversed_at is null
      union all
      select source_id, amount, vat_amount from customer_refunds
       where tenant_id = ${ctx.tenantId} and source_credit_id = any(${ids}::uuid[]) and reversed_at is null
      union all
      select credit_id, amount, 0 from deposit_forfeits
       where tenant_id = ${ctx.tenantId} and credit_id = any(${ids}::uuid[])
    ) d group by source_id`.execute(ctx.db);
  for (const r of rows.rows) out.set(r.source_id, { amount: money(r.amount), vat: money(r.vat) });
  return out;
}

export function creditRemaining(row: CreditRow, drawn: { amount: Decimal; vat: Decimal }) {
  if (row.reversed_at) return { remaining: money(0), vatRemaining: money(0) };
  return {
    remaining: money(row.amount).minus(drawn.amount),
    vatRemaining: money(row.vat_amount).minus(drawn.vat),
  };
}

/**
 * The source named `id`, its row locked until commit (unless `lock` is false: a read): a customer credit of the company, or a
 * credit note or deposit. Undefined when there is none (the caller says 404 or 400).
 */
export async function lockCreditSource(
  ctx: WorkCtx,
  id: string,
  lock = true,
): Promise<CreditSource | undefined> {
  const credit = await findCreditRow(ctx, id, lock);
  if (credit) {
    const drawn = (await drawnFromCredits(ctx, [id])).get(id)!;
    const { remaining, vatRemaining } = creditRemaining(credit, drawn);
    return {
      type: 'customer_credit',
      id,
      kind: credit.kind,
      companyId: credit.company_id,
      contactId: credit.contact_id,
      label: creditLabel(credit.kind, credit.date),
      date: credit.date,
      live: !credit.reversed_at,
      status: credit.status,
      accountId: credit.account_id,
      dueDate: null,
      total: money(credit.amount),
      remaining,
      vatTotal: money(credit.vat_amount),
      vatRemaining,
      vatRate: credit.vat_rate === null ? null : money(credit.vat_rate),
    };
  }
  const doc = await (lock ? lockInvoiceRow : findInvoiceRow)(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (doc?.document_type !== 'credit_note' && doc?.document_type !== 'deposit') return undefined;
  const s = (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!;
  const key = doc.document_type === 'deposit' ? 'customer_deposits' : 'debtors_control';
  return {
    type: doc.document_type,
    id,
    kind: doc.document_type,
    companyId: doc.company_id,
    contactId: doc.contact_id,
    label: `${doc.document_type.replace('_', ' ')} ${doc.number}`,
    date: doc.issue_date,
    live: doc.status !== 'draft' && doc.status !== 'void',
    status: doc.status,
    accountId: await systemAccount(ctx, doc.company_id, key),
    dueDate: doc.document_type === 'credit_note' ? doc.due_date : null,
    total: money(doc.total),
    remaining: doc.status === 'draft' ? money(0) : money(creditLeft(doc, s)),
    vatTotal: money(0),
    vatRemaining: money(0),
    vatRate: null,
  };
}

/**
 * The output VAT drawn out with `amount`: all that is left of it when the rest of the source
 * is drawn, else its share (amount × VAT / total, half-up to cents), so that parts add up.
 */
export function vatDrawn(source: CreditSource, amount: Decimal): Decimal {
  if (source.vatTotal.isZero()) return money(0);
  if (amount.equals(source.remaining)) return source.vatRemaining;
  return amount.times(source.vatTotal).dividedBy(source.total).toDecimalPlaces(2);
}

/**
 * The debit lines that take `amount` (VAT `vat` included) out of a source: its account on its
 * own open item, less the VAT, which is debited to VAT output. Both carry the code standard at
 * the rate of receipt when there is VAT.
 */
export async function drawLines(
  ctx: LedgerCtx,
  source: CreditSource,
  amount: Decimal,
  vat: Decimal,
  description: string,
): Promise<PostingLine[]> {
  const tag =
    source.vatRate && !source.vatTotal.isZero()
      ? { taxCode: 'standard' as const, taxRate: source.vatRate }
      : {};
  const lines: PostingLine[] = [
    {
      accountId: source.accountId,
      debit: amount.minus(vat),
      description,
      contactId: source.contactId,
      openItemId: source.id,
      dueDate: source.dueDate,
      ...tag,
    },
  ];
  if (!vat.isZero())
    lines.push({
      accountId: await systemAccount(ctx, source.companyId, 'vat_output'),
      debit: vat,
      description: `VAT on ${description}`,
      ...tag,
    });
  return lines;
}
