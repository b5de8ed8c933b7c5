// The rules of a credit or debit note that names the document it adjusts (issue 14; VAT Act
// s21, SARS VAT 404 on credit and debit notes):
//   * only a credit or debit note names one (creditedDocumentId; creditedInvoiceId its alias),
//     and what it names is a released invoice or debit note of the company;
//   * the note is dated on or after that document (400 naming issueDate);
//   * it takes that document's VAT: the standard rate and the registration of the supply's
//     date, the adjusted document's issue date, not the note's (s21: the note adjusts the
//     output tax charged on that supply); see `priced` in invoices.service.ts;
//   * a credit note credits no more than what remains of that document: its total less the
//     credit notes already released against it (void ones do not count). Checked when the
//     draft is made or changed, and again at release with the document locked (another note
//     may have been released in between). The 400 names `lines`: the amount is the lines'.
//   * a credit note whose whole amount has been applied is `applied`; reversing an allocation
//     makes it `open` again.

import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { money, sum } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import {
  creditLeft,
  findInvoiceRow,
  type InvoiceRow,
  lockInvoiceRow,
  RECEIVABLE_TYPES,
  settlements,
} from './invoices.queries.ts';
import type { DocumentType } from './invoices.tables.ts';

/** The API field naming the adjusted document (creditedInvoiceId is kept as its alias). */
export const ADJUSTED_FIELD = 'creditedDocumentId';

export const NOTE_TYPES: ReadonlySet<DocumentType> = new Set(['credit_note', 'debit_note']);

/**
 * The tax invoices a note may adjust: an invoice, a debit note, and a cash sale (goods returned
 * after a sale paid on the spot are credited too, s21; the credit note is then customer credit,
 * refunded or applied to a later invoice, as the sale left nothing owing).
 */
export const ADJUSTABLE_TYPES: ReadonlySet<string> = new Set([...RECEIVABLE_TYPES, 'cash_sale']);

function what(row: Pick<InvoiceRow, 'document_type'>): string {
  return row.document_type.replace('_', ' ');
}

/**
 * The document a credit or debit note names, checked (400 naming `field`); undefined when it
 * names none. `lock` locks its row until commit (a release checking what remains of it).
 */
export async function adjustedDocument(
  ctx: WorkCtx,
  type: DocumentType,
  id: string | null | undefined,
  field: string = ADJUSTED_FIELD,
  lock = false,
): Promise<InvoiceRow | undefined> {
  if (!id) return undefined;
  if (!NOTE_TYPES.has(type))
    throw badRequest(field, 'only a credit note or a debit note names the document it adjusts');
  const find = lock ? lockInvoiceRow : findInvoiceRow;
  const row = await find(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row || !ADJUSTABLE_TYPES.has(row.document_type))
    throw badRequest(field, 'no such invoice, debit note or cash sale in this company');
  if (row.status === 'draft')
    throw badRequest(field, `${what(row)} ${row.number} is a draft: release it before adjusting it`);
  return row;
}

/** A note is dated on or after the document it adjusts (400 naming issueDate). */
export function assertNoteDate(issueDate: string, adjusted: InvoiceRow | undefined): void {
  if (adjusted && issueDate < adjusted.issue_date)
    throw badRequest(
      'issueDate',
      `must not be before the issue date of ${what(adjusted)} ${adjusted.number} (${adjusted.issue_date})`,
    );
}

/** What remains to credit on a document: its total less the live credit notes released against it. */
export async function remainingToCredit(
  ctx: WorkCtx,
  adjusted: InvoiceRow,
  exceptNoteId?: string,
): Promise<Decimal> {
  let q = ctx.db
    .selectFrom('invoices')
    .select('total')
    .where('tenant_id', '=', ctx.tenantId)
    .where('credited_invoice_id', '=', adjusted.id)
    .where('document_type', '=', 'credit_note')
    .where('status', 'not in', ['draft', 'void'])
    .where('deleted_at', 'is', null);
  if (exceptNoteId) q = q.where('id', '!=', exceptNoteId);
  const earlier = await q.execute();
  return money(adjusted.total).minus(sum(earlier.map((r) => r.total)));
}

/** A credit note's total must not exceed what remains of the document it credits (400 naming lines). */
export async function assertWithinRemaining(
  ctx: WorkCtx,
  type: DocumentType,
  adjusted: InvoiceRow | undefined,
  total: Decimal,
  noteId?: string,
): Promise<void> {
  if (type !== 'credit_note' || !adjusted) return;
  const remaining = await remainingToCredit(ctx, adjusted, noteId);
  if (money(total).greaterThan(remaining))
    throw badRequest(
      'lines',
      `the credit note's total (${money(total).toFixed(2)}) exceeds what remains to credit on ` +
        `${what(adjusted)} ${adjusted.number} (${remaining.toFixed(2)}: its total ` +
        `${money(adjusted.total).toFixed(2)} less the credit notes released against it)`,
    );
}

/**
 * A released credit note's stored status follows what is left of it to apply: `applied` when
 * nothing is (`refunded` when some of it was refunded), `open` otherwise. Answers whether it changed (the caller announces).
 */
export async function settleNote(ctx: WorkCtx, noteId: string): Promise<boolean> {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), noteId);
  if (row?.document_type !== 'credit_note' || !['open', 'applied', 'refunded'].includes(row.status))
    return false;
  const s = (await settlements(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  // Nothing left: refunded when some of it went back to the customer (refunds.ts), else applied.
  const nothingLeft = money(creditLeft(row, s)).lessThanOrEqualTo(0);
  const status = !nothingLeft ? 'open' : money(s.refunded ?? 0).isZero() ? 'applied' : 'refunded';
  if (status === row.status) return false;
  await ctx.db
    .updateTable('invoices')
    .set({ status })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  return true;
}

/**
 * The adjusted document's id as the body gives it: creditedDocumentId, or its alias
 * creditedInvoiceId (both given, they must agree). `field` is the one to name in a 400.
 */
export function adjustedIdOf(input: {
  creditedDocumentId?: string | null | undefined;
  creditedInvoiceId?: string | null | undefined;
}): { id: string | null | undefined; field: string } {
  const { creditedDocumentId: named, creditedInvoiceId: alias } = input;
  if (named !== undefined && alias !== undefined && named !== alias)
    throw badRequest(
      'creditedInvoiceId',
      'the alias of creditedDocumentId: give one of them, or the same id',
    );
  if (named !== undefined) return { id: named, field: ADJUSTED_FIELD };
  if (alias !== undefined) return { id: alias, field: 'creditedInvoiceId' };
  return { id: undefined, field: ADJUSTED_FIELD };
}

/**
 * At release, a credit note naming a document is checked again against what remains of it,
 * with that document locked until commit (two notes released at once take turns on it).
 */
export async function assertReleasable(ctx: WorkCtx, row: InvoiceRow): Promise<void> {
  if (row.document_type !== 'credit_note' || !row.credited_invoice_id) return;
  const adjusted = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), row.credited_invoice_id);
  if (adjusted) await assertWithinRemaining(ctx, row.document_type, adjusted, money(row.total), row.id);
}

/**
 * Before a release locks its note: the document a credit note credits is locked first, in the
 * order an allocation takes them (invoice, then credit note), so the two never deadlock.
 */
export async function lockAdjustedFirst(ctx: WorkCtx, noteId: string): Promise<void> {
  const note = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), noteId);
  if (note?.document_type === 'credit_note' && note.credited_invoice_id && note.status === 'draft')
    await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), note.credited_invoice_id);
}
