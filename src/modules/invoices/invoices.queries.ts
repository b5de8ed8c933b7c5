// SQL of the sales documents: loading documents with their lines and what has been paid,
// credited and applied, in two statements whatever the number of documents.

import { type ExpressionBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import { stockAnswer } from '../inventory/index.ts';
import type { InvoiceLinesTable, InvoicesTable, Status } from './invoices.tables.ts';

export type InvoiceRow = Selectable<InvoicesTable>;
export type LineRow = Selectable<InvoiceLinesTable>;

/** Types whose release posts to the ledger. */
export const POSTING_TYPES = new Set(['invoice', 'credit_note', 'debit_note', 'cash_sale', 'deposit']);
/** Types a customer owes money on, which can be paid and fall overdue. */
export const RECEIVABLE_TYPES = new Set(['invoice', 'debit_note']);

export function findInvoiceRow(tx: Tx, tenantId: string, companyId: string, id: string) {
  return tx
    .selectFrom('invoices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The document row locked until commit: payments and allocations take turns on it. */
export function lockInvoiceRow(tx: Tx, tenantId: string, companyId: string, id: string) {
  return tx
    .selectFrom('invoices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export interface Settlement {
  /** Payments received against it (less any excess, a customer credit), deposits and customer credits applied to it. */
  paid: string;
  /** Credit notes applied to it. */
  credited: string;
  /** For a credit note or deposit: how much of it has been applied elsewhere. */
  applied: string;
  /** Written off as a bad debt (write-off.ts); absent means nothing. */
  writtenOff?: string;
  /** For a credit note or deposit: refunded to the customer (refunds.ts); absent means nothing. */
  refunded?: string;
  /** For a deposit: forfeited by the customer (deposits.ts); absent means nothing. */
  forfeited?: string;
}

/** A document nothing has settled yet (a new one). */
export const NOTHING_SETTLED: Readonly<Settlement> = Object.freeze({
  paid: '0',
  credited: '0',
  applied: '0',
});

/**
 * What has settled each document: live payments and allocations, summed per document. Read
 * through the same expressions as withDetails (settledColumns), so a document's own answer, its
 * lists, its payments and whatever else asks what is due (reconciliation, payment links, the
 * gateways) all count it one way (issue 35, item 4: it was written twice and had drifted: a
 * deposit's forfeits were taken one, not summed). One statement for any number of documents.
 */
export async function settlements(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, Settlement>> {
  const out = new Map<string, Settlement>(ids.map((id) => [id, { ...NOTHING_SETTLED }]));
  if (!ids.length) return out;
  const rows = await tx
    .selectFrom('invoices')
    .select('id')
    .select((eb) => settledColumns(eb))
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  for (const r of rows) out.set(r.id, settlementOf(r));
  return out;
}

export async function linesOf(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, LineRow[]>> {
  const out = new Map<string, LineRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await tx
    .selectFrom('invoice_lines')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('invoice_id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('invoice_id')
    .orderBy('line_no')
    .execute();
  for (const r of rows) out.get(r.invoice_id)!.push(r);
  return out;
}

/**
 * What a released credit note or deposit still holds: not applied, refunded or forfeited (its
 * own open item; a deposit's excess over the invoice it was applied to is a customer credit of its
 * own, customer-credits.ts). A draft's total; nothing for a void one or another type.
 */
export function creditLeft(row: InvoiceRow, s: Settlement): string {
  if (row.status === 'void') return '0.00';
  if (row.document_type !== 'credit_note' && row.document_type !== 'deposit') return '0.00';
  const total = money(row.total);
  if (row.status === 'draft') return total.toFixed(2);
  return total
    .minus(s.applied)
    .minus(s.refunded ?? 0)
    .minus(s.forfeited ?? 0)
    .toFixed(2);
}

/**
 * What is still owed on it (receivables), or still to apply (a credit note, as before: its
 * creditLeft). A deposit, like a cash sale, is money in hand once released (it is `paid` on
 * release): nothing is due on it, whatever of it is still to apply (issue 34, item 20); a draft
 * deposit is a request for its total.
 */
export function amountDue(row: InvoiceRow, s: Settlement): string {
  if (row.status === 'void') return '0.00';
  const total = money(row.total);
  if (row.document_type === 'credit_note') return creditLeft(row, s);
  if (row.document_type === 'cash_sale' || row.document_type === 'deposit')
    return row.status === 'draft' ? total.toFixed(2) : '0.00';
  return total
    .minus(s.paid)
    .minus(s.credited)
    .minus(s.writtenOff ?? 0)
    .toFixed(2);
}

/** The status shown: overdue when a receivable is open past its due date. */
export function shownStatus(row: InvoiceRow, today: string): Status {
  if (
    RECEIVABLE_TYPES.has(row.document_type) &&
    (row.status === 'open' || row.status === 'partially_paid') &&
    row.due_date < today
  ) {
    return 'overdue';
  }
  return row.status;
}

/** Money received on it: payments and deposits applied, or a released cash sale or deposit whole. */
export function paidOf(row: InvoiceRow, s: Settlement): string {
  if (row.document_type === 'deposit' || row.document_type === 'cash_sale')
    return row.status === 'draft' || row.status === 'void' ? '0' : row.total;
  return s.paid;
}

/** Credit notes applied to it; for a credit note, how much of it was applied. */
export function creditedOf(row: InvoiceRow, s: Settlement): string {
  return row.document_type === 'credit_note' ? s.applied : s.credited;
}

export function toInvoice(
  row: InvoiceRow,
  lines: AnswerLine[],
  s: Settlement,
  contactName: string,
  today: string,
) {
  const paid = paidOf(row, s);
  const credited = creditedOf(row, s);
  return {
    id: row.id,
    companyId: row.company_id,
    documentType: row.document_type,
    number: row.number,
    status: shownStatus(row, today),
    contactId: row.contact_id,
    contactName,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    paymentTermsDays: row.payment_terms_days,
    terms: row.terms,
    reference: row.reference,
    notes: row.notes,
    vatRegistered: row.vat_registered,
    subtotal: toNumber(row.subtotal),
    discountTotal: toNumber(row.discount_total),
    vatTotal: toNumber(row.vat_total),
    total: toNumber(row.total),
    amountPaid: toNumber(paid),
    amountCredited: toNumber(credited),
    amountWrittenOff: toNumber(s.writtenOff ?? 0),
    amountRefunded: toNumber(s.refunded ?? 0),
    amountForfeited: toNumber(s.forfeited ?? 0),
    amountDue: toNumber(amountDue(row, s)),
    amountRemaining: toNumber(row.status === 'draft' ? 0 : creditLeft(row, s)),
    creditedDocumentId: row.credited_invoice_id,
    creditedInvoiceId: row.credited_invoice_id,
    convertedFromId: row.converted_from_id,
    recurringId: row.recurring_id,
    templateId: row.template_id,
    entryId: row.entry_id,
    voidEntryId: row.void_entry_id,
    voidedByCreditNoteId: row.voided_by_credit_note_id ?? null,
    releasedAt: row.released_at?.toISOString() ?? null,
    voidedAt: row.voided_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
    lines: lines.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      discountRate: Number(l.discount_rate),
      taxCode: l.tax_code,
      vatRate: Number(l.vat_rate),
      accountId: l.account_id,
      productId: l.product_id,
      variantId: l.variant_id,
      ...stockAnswer(l.stock),
      discountAmount: toNumber(l.discount_amount),
      netAmount: toNumber(l.net_amount),
      vatAmount: toNumber(l.vat_amount),
      totalAmount: toNumber(l.total_amount),
    })),
  };
}

export type Invoice = ReturnType<typeof toInvoice>;

/** A line as a document's answer shows it. */
export type AnswerLine = Pick<
  LineRow,
  | 'id'
  | 'line_no'
  | 'description'
  | 'quantity'
  | 'unit_price'
  | 'discount_rate'
  | 'tax_code'
  | 'vat_rate'
  | 'account_id'
  | 'product_id'
  | 'variant_id'
  | 'stock'
  | 'net_amount'
  | 'discount_amount'
  | 'vat_amount'
  | 'total_amount'
>;

type Documents = ExpressionBuilder<DB, 'invoices'>;

/** The document's live payments, summed (0 when none). */
function paymentsSum(eb: Documents) {
  return eb
    .selectFrom('invoice_payments as p')
    .select((e) => e.fn.coalesce(e.fn.sum<string>('p.amount'), sql<string>`0`).as('amount'))
    .whereRef('p.tenant_id', '=', 'invoices.tenant_id')
    .whereRef('p.invoice_id', '=', 'invoices.id')
    .where('p.reversed_at', 'is', null);
}

/** Live allocations to the document (by source type), or of it (`source_id`), summed (0 when none). */
function allocationsSum(
  eb: Documents,
  by: 'invoice_id' | 'source_id',
  sourceType?: 'deposit' | 'credit_note' | 'customer_credit',
) {
  let q = eb
    .selectFrom('invoice_allocations as a')
    .select((e) => e.fn.coalesce(e.fn.sum<string>('a.amount'), sql<string>`0`).as('amount'))
    .whereRef('a.tenant_id', '=', 'invoices.tenant_id')
    .whereRef(`a.${by}`, '=', 'invoices.id')
    .where('a.reversed_at', 'is', null);
  if (sourceType) q = q.where('a.source_type', '=', sourceType);
  return q;
}

/** Live customer credits of a kind that a document gave rise to (`document_id`), summed (0 when none). */
function creditsSum(eb: Documents, kind: 'overpayment' | 'deposit_excess') {
  return eb
    .selectFrom('customer_credits as k')
    .select((e) => e.fn.coalesce(e.fn.sum<string>('k.amount'), sql<string>`0`).as('amount'))
    .whereRef('k.tenant_id', '=', 'invoices.tenant_id')
    .whereRef('k.document_id', '=', 'invoices.id')
    .where('k.kind', '=', kind)
    .where('k.reversed_at', 'is', null);
}

/** Live refunds of a credit note or deposit, summed (0 when none). */
function refundsSum(eb: Documents) {
  return eb
    .selectFrom('customer_refunds as r')
    .select((e) => e.fn.coalesce(e.fn.sum<string>('r.amount'), sql<string>`0`).as('amount'))
    .whereRef('r.tenant_id', '=', 'invoices.tenant_id')
    .whereRef('r.source_document_id', '=', 'invoices.id')
    .where('r.reversed_at', 'is', null);
}

/** A deposit's forfeit (its excess's when `ofExcess`), summed (0 when none). */
function forfeitsSum(eb: Documents, ofExcess = false) {
  let q = eb
    .selectFrom('deposit_forfeits as f')
    .select((e) => e.fn.coalesce(e.fn.sum<string>('f.amount'), sql<string>`0`).as('amount'))
    .whereRef('f.tenant_id', '=', 'invoices.tenant_id')
    .whereRef('f.deposit_id', '=', 'invoices.id');
  if (ofExcess) q = q.where('f.credit_id', 'is not', null);
  return q;
}

/**
 * What has settled the document, as correlated subqueries of the statement that reads it:
 * payments and deposits applied, credit notes applied, for a credit note or deposit how much of
 * it was applied elsewhere, refunded or forfeited, and what was written off. The one statement
 * of it (withDetails and settlements read it; settlementOf turns a row into a Settlement).
 */
function settledColumns(eb: Documents) {
  return [
    // Paid: payments less their excess (a customer credit), deposits and customer credits applied.
    sql<string>`${paymentsSum(eb)} - ${creditsSum(eb, 'overpayment')} + ${allocationsSum(eb, 'invoice_id', 'deposit')} + ${allocationsSum(eb, 'invoice_id', 'customer_credit')}`.as(
      'settled_paid',
    ),
    allocationsSum(eb, 'invoice_id', 'credit_note').as('settled_credited'),
    // A deposit's excess over its invoice became a customer credit: applied too, but for what
    // was left of it and forfeited.
    sql<string>`${allocationsSum(eb, 'source_id')} + ${creditsSum(eb, 'deposit_excess')} - ${forfeitsSum(eb, true)}`.as(
      'settled_applied',
    ),
    refundsSum(eb).as('settled_refunded'),
    forfeitsSum(eb).as('settled_forfeited'),
    eb
      .selectFrom('invoice_write_offs as w')
      .select((e) => e.fn.coalesce(e.fn.sum<string>('w.amount'), sql<string>`0`).as('amount'))
      .whereRef('w.tenant_id', '=', 'invoices.tenant_id')
      .whereRef('w.invoice_id', '=', 'invoices.id')
      .where('w.reversed_at', 'is', null)
      .as('settled_written_off'),
  ] as const;
}

type SettledColumns = Omit<DetailedRow, keyof InvoiceRow | 'contact_name'>;

/**
 * The settled_* columns of a row read with settledColumns, as a Settlement (each sum is
 * coalesced to 0 in SQL; the types of a scalar subquery allow a null all the same).
 */
function settlementOf(r: { [K in keyof SettledColumns]: string | null }): Settlement {
  return {
    paid: r.settled_paid ?? '0',
    credited: r.settled_credited ?? '0',
    applied: r.settled_applied ?? '0',
    writtenOff: r.settled_written_off ?? '0',
    refunded: r.settled_refunded ?? '0',
    forfeited: r.settled_forfeited ?? '0',
  };
}

/**
 * Adds to a query of documents what their API shape needs beyond the row and the lines, as
 * correlated subqueries of the same statement: the customer's name, and what has settled
 * each (payments and deposits applied, credit notes applied, and for a credit note or deposit
 * how much of it was applied elsewhere). One round trip instead of one per kind.
 */
export function withDetails<O>(q: SelectQueryBuilder<DB, 'invoices', O>) {
  return q.select((eb) => [
    eb
      .selectFrom('contacts as c')
      .select('c.name')
      .whereRef('c.tenant_id', '=', 'invoices.tenant_id')
      .whereRef('c.id', '=', 'invoices.contact_id')
      .as('contact_name'),
    ...settledColumns(eb),
  ]);
}

/** A document row read through withDetails. */
export type DetailedRow = InvoiceRow & {
  contact_name: string | null;
  settled_paid: string;
  settled_credited: string;
  settled_applied: string;
  settled_written_off: string;
  settled_refunded: string;
  settled_forfeited: string;
};

/** The live lines of the documents, as their answers show them, in line order: one query. */
export async function answerLines(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, AnswerLine[]>> {
  const out = new Map<string, AnswerLine[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await tx
    .selectFrom('invoice_lines')
    .select([
      'invoice_id',
      'id',
      'line_no',
      'description',
      'quantity',
      'unit_price',
      'discount_rate',
      'tax_code',
      'vat_rate',
      'account_id',
      'product_id',
      'variant_id',
      'stock',
      'net_amount',
      'discount_amount',
      'vat_amount',
      'total_amount',
    ])
    .where('tenant_id', '=', tenantId)
    .where('invoice_id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('invoice_id')
    .orderBy('line_no')
    .execute();
  for (const r of rows) out.get(r.invoice_id)!.push(r);
  return out;
}

/** The names of contacts by id (for lists that show the customer). */
export async function contactNames(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await tx
    .selectFrom('contacts')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Documents in API shape from their rows read through withDetails, in the order of `rows`. */
export async function detailedInvoices(
  tx: Tx,
  tenantId: string,
  rows: DetailedRow[],
  today: string,
): Promise<Invoice[]> {
  const lines = await answerLines(
    tx,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toInvoice(r, lines.get(r.id)!, settlementOf(r), r.contact_name ?? '', today));
}

/**
 * One live document of the company, in API shape (two queries); undefined if none. A deleted
 * draft only with includeDeleted (its last state, announced to a sync).
 */
export async function findInvoice(
  tx: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  today: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<Invoice | undefined> {
  let q = tx
    .selectFrom('invoices')
    .selectAll('invoices')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  if (!opts.includeDeleted) q = q.where('deleted_at', 'is', null);
  const row = await withDetails(q).executeTakeFirst();
  return row && (await detailedInvoices(tx, tenantId, [row as DetailedRow], today))[0];
}
