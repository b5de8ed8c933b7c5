// SQL of the sales documents: loading documents with their lines and what has been paid,
// credited and applied, in a fixed number of queries whatever the number of documents.
import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { money, toNumber } from '../../platform/money/money.ts';
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
  /** Payments received against it, and deposits applied to it. */
  paid: string;
  /** Credit notes applied to it. */
  credited: string;
  /** For a credit note or deposit: how much of it has been applied elsewhere. */
  applied: string;
}

/** A document nothing has settled yet (a new one). */
export const NOTHING_SETTLED: Readonly<Settlement> = Object.freeze({
  paid: '0',
  credited: '0',
  applied: '0',
});

/** What has settled each document: live payments and allocations, summed per document. */
export async function settlements(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, Settlement>> {
  const out = new Map<string, Settlement>(ids.map((id) => [id, { paid: '0', credited: '0', applied: '0' }]));
  if (!ids.length) return out;
  const payments = await tx
    .selectFrom('invoice_payments')
    .select(['invoice_id', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('tenant_id', '=', tenantId)
    .where('invoice_id', 'in', ids)
    .where('reversed_at', 'is', null)
    .groupBy('invoice_id')
    .execute();
  for (const p of payments) out.get(p.invoice_id)!.paid = p.amount;
  const received = await tx
    .selectFrom('invoice_allocations')
    .select(['invoice_id', 'source_type', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('tenant_id', '=', tenantId)
    .where('invoice_id', 'in', ids)
    .where('reversed_at', 'is', null)
    .groupBy(['invoice_id', 'source_type'])
    .execute();
  for (const a of received) {
    const s = out.get(a.invoice_id)!;
    if (a.source_type === 'deposit') s.paid = money(s.paid).plus(a.amount).toFixed(2);
    else s.credited = money(s.credited).plus(a.amount).toFixed(2);
  }
  const given = await tx
    .selectFrom('invoice_allocations')
    .select(['source_id', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('tenant_id', '=', tenantId)
    .where('source_id', 'in', ids)
    .where('reversed_at', 'is', null)
    .groupBy('source_id')
    .execute();
  for (const a of given) out.get(a.source_id)!.applied = a.amount;
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

/** What is still owed on it (receivables), or still to apply (credit notes, deposits). */
export function amountDue(row: InvoiceRow, s: Settlement): string {
  if (row.status === 'void') return '0.00';
  const total = money(row.total);
  if (row.document_type === 'credit_note' || row.document_type === 'deposit') {
    return row.status === 'draft' ? total.toFixed(2) : total.minus(s.applied).toFixed(2);
  }
  if (row.document_type === 'cash_sale') return row.status === 'draft' ? total.toFixed(2) : '0.00';
  return total.minus(s.paid).minus(s.credited).toFixed(2);
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

export function toInvoice(
  row: InvoiceRow,
  lines: LineRow[],
  s: Settlement,
  contactName: string,
  today: string,
) {
  const paid =
    row.document_type === 'deposit' || row.document_type === 'cash_sale'
      ? row.status === 'draft' || row.status === 'void'
        ? '0'
        : row.total
      : s.paid;
  const credited = row.document_type === 'credit_note' ? s.applied : s.credited;
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
    amountDue: toNumber(amountDue(row, s)),
    creditedInvoiceId: row.credited_invoice_id,
    convertedFromId: row.converted_from_id,
    recurringId: row.recurring_id,
    templateId: row.template_id,
    entryId: row.entry_id,
    voidEntryId: row.void_entry_id,
    releasedAt: row.released_at?.toISOString() ?? null,
    voidedAt: row.voided_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lines: lines.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      discountRate: Number(l.discount_rate),
      vatRate: Number(l.vat_rate),
      accountId: l.account_id,
      discountAmount: toNumber(l.discount_amount),
      netAmount: toNumber(l.net_amount),
      vatAmount: toNumber(l.vat_amount),
      totalAmount: toNumber(l.total_amount),
    })),
  };
}

export type Invoice = ReturnType<typeof toInvoice>;

/** Documents in API shape, in the order of `rows`. */
export async function toInvoices(
  tx: Tx,
  tenantId: string,
  rows: InvoiceRow[],
  today: string,
): Promise<Invoice[]> {
  const ids = rows.map((r) => r.id);
  // One after another: a transaction is one connection.
  const lines = await linesOf(tx, tenantId, ids);
  const settled = await settlements(tx, tenantId, ids);
  const names = await contactNames(
    tx,
    tenantId,
    rows.map((r) => r.contact_id),
  );
  return rows.map((r) =>
    toInvoice(r, lines.get(r.id)!, settled.get(r.id)!, names.get(r.contact_id) ?? '', today),
  );
}
