// Releasing a document (draft → open) and voiding one. Only invoice, credit_note,
// debit_note, cash_sale and deposit post to the ledger, each as one balanced entry:
//   invoice, debit note  Dr debtors control (total)   Cr income per line (net)  Cr VAT output (VAT)
//                        (a negative line, a discount or a return, posts the other side: Dr income, Dr VAT)
//   credit note          Dr income (net)  Dr VAT output (VAT)   Cr debtors control (total)
//   cash sale            Dr bank (total)  Cr income (net)  Cr VAT output (VAT)
//   deposit              Dr bank (total)  Cr customer deposits (total)
// The debtors line names the contact and the document as its open item (aged debtors).
// Voiding a released tax invoice (invoice, debit note: the customer may hold it) issues a credit
// note for what remains of it (VAT Act s21(1), (3)); any other released document's void posts
// the reversal of its entry, dated its issue date unless told (see deleteInvoice).

import type { Decimal } from 'decimal.js';
import { latestDay } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import { deliverStock, moveSalesStock, undoStock } from '../inventory/index.ts';
import {
  assertBaseCurrency,
  assertNotBelowZero,
  ledgerCtxOf,
  type PostingLine,
  post,
  reverse,
  type SalesTaxCode,
  systemAccount,
  type TaxCode,
  vatLinesByCode,
} from '../ledger/index.ts';
import { allocateCredit } from './allocations.ts';
import { announce } from './announce.ts';
import {
  findInvoiceRow,
  type Invoice,
  type InvoiceRow,
  type LineRow,
  linesOf,
  lockInvoiceRow,
  POSTING_TYPES,
  settlements,
} from './invoices.queries.ts';
import { createDocument, deleteDraft, getInvoice } from './invoices.service.ts';
import { assertReleasable, lockAdjustedFirst, remainingToCredit } from './notes.ts';
import { refundFrom } from './refunds.ts';

function label(row: InvoiceRow) {
  return `${row.document_type.replace('_', ' ')} ${row.number}`;
}

/** The lines of the entry a document posts; `side` is the side its income and VAT take. */
async function entryLines(ctx: WorkCtx, row: InvoiceRow, lines: LineRow[]): Promise<PostingLine[]> {
  const companyId = row.company_id;
  const lctx = ledgerCtxOf(ctx);
  const total = money(row.total);
  const customer = { contactId: row.contact_id, openItemId: row.id, dueDate: row.due_date };
  if (row.document_type === 'deposit') {
    return [
      { accountId: await systemAccount(lctx, companyId, 'bank'), debit: total, description: label(row) },
      {
        accountId: await systemAccount(lctx, companyId, 'customer_deposits'),
        credit: total,
        description: label(row),
        ...customer,
      },
    ];
  }
  // Income and VAT are credits on a sale and debits on a credit note; a negative line (a
  // discount, an item returned) takes the other side. The document's total is never negative
  // (priced() refuses it), so the debtors or bank line keeps its side.
  const credit = row.document_type !== 'credit_note';
  const side = (amount: Decimal) =>
    credit !== amount.isNegative() ? { credit: amount.abs() } : { debit: amount.abs() };
  const counter = (amount: Decimal) => (credit ? { debit: amount } : { credit: amount });
  const out: PostingLine[] = [];
  if (row.document_type === 'cash_sale') {
    out.push({
      accountId: await systemAccount(lctx, companyId, 'bank'),
      debit: total,
      description: label(row),
    });
  } else {
    out.push({
      accountId: await systemAccount(lctx, companyId, 'debtors_control'),
      ...counter(total),
      description: label(row),
      ...customer,
    });
  }
  // Each income line carries its tax code and rate for the VAT return (out of scope: none; not
  // VAT-registered on the issue date: none, as no VAT was charged).
  const tagged = (l: LineRow) => row.vat_registered && l.tax_code !== 'out_of_scope';
  for (const l of lines) {
    out.push({
      accountId: l.account_id,
      ...side(money(l.net_amount)),
      description: l.description,
      ...(tagged(l) ? { taxCode: l.tax_code as TaxCode, taxRate: money(l.vat_rate) } : {}),
    });
  }
  // One VAT line per code and rate (standard only carries VAT), for the VAT return.
  out.push(
    ...(await vatLinesByCode(
      lines
        .filter(tagged)
        .map((l) => ({ code: l.tax_code as TaxCode, rate: money(l.vat_rate), vat: money(l.vat_amount) })),
      () => systemAccount(lctx, companyId, 'vat_output'),
      side,
      label(row),
    )),
  );
  return out;
}

export async function releaseInvoice(
  ctx: WorkCtx,
  id: string,
  opts: { voiding?: boolean } = {},
): Promise<Invoice> {
  const companyId = companyOf(ctx);
  await lockAdjustedFirst(ctx, id);
  const row = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  if (row.status !== 'draft') {
    throw conflict(`This ${label(row)} has already been released (it is ${row.status})`, {
      code: 'ALREADY_RELEASED',
    });
  }
  // A credit note: no more than what remains of what it credits, now that notes take turns.
  await assertReleasable(ctx, row);
  const now = ctx.deps.now();
  let entryId: string | null = null;
  if (POSTING_TYPES.has(row.document_type)) {
    await assertBaseCurrency(ctx, companyId, row.currency, 'document');
    // A draft made before the rule (issue 34, item 18) meets it here.
    if (row.document_type !== 'credit_note')
      assertNotBelowZero(
        { total: money(row.total), vatTotal: money(row.vat_total) },
        row.document_type.replace('_', ' '),
      );
    if (money(row.total).isZero())
      throw badRequest('lines', 'a document of zero posts nothing; add an amount');
    const lines = (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!;
    // Goods sold or returned move stock, their cost posted in this same entry (flows.sales.ts).
    const stockEntryId = crypto.randomUUID();
    const stock = await moveSalesStock(ctx, row, lines, stockEntryId, { voiding: opts.voiding === true });
    entryId = await post(ledgerCtxOf(ctx), {
      companyId,
      date: row.issue_date,
      description: `${label(row)}`,
      reference: row.reference ?? row.number,
      source: { type: row.document_type, id: row.id },
      entryId: stockEntryId,
      lines: [...(await entryLines(ctx, row, lines)), ...stock],
    });
  } else if (row.document_type === 'delivery_note') {
    // A delivery note posts nothing but the goods it delivers, in an entry of their own.
    await deliverStock(ctx, row, (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!);
  }
  // Money already in hand: a cash sale or a deposit is paid when released.
  const status = row.document_type === 'cash_sale' || row.document_type === 'deposit' ? 'paid' : 'open';
  await ctx.db
    .updateTable('invoices')
    .set({ status, entry_id: entryId, released_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  // A credit note that names its invoice is applied to it at once, up to what is still due.
  if (row.document_type === 'credit_note' && row.credited_invoice_id) {
    const credited = await findInvoiceRow(ctx.db, ctx.tenantId, companyId, row.credited_invoice_id);
    if (credited && (credited.status === 'open' || credited.status === 'partially_paid')) {
      await allocateCredit(ctx, credited.id, {
        creditNoteId: id,
        date: latestDay(credited.issue_date, row.issue_date),
        upToDue: true,
        // Issued by a void: the void sets the credited document's status and announces it.
        ...(opts.voiding ? { voiding: true } : {}),
      });
    }
  }
  // Announced as it stands after its release, a credit note's application included.
  const released = await getInvoice(ctx, id);
  await announce(ctx, 'invoice.released', released);
  return released;
}

/** The tax invoices a customer may hold: voiding one, once released, issues a credit note (s21). */
export const TAX_INVOICE_TYPES: ReadonlySet<string> = new Set(['invoice', 'debit_note', 'cash_sale']);

/**
 * DELETE: a draft is marked deleted. A released tax invoice (invoice, debit note, cash sale) is
 * voided by a credit note for what remains of it, issued and released in this transaction, dated
 * `date` (default today, UTC, or the invoice's issue date when that is later), with the invoice's
 * lines, codes and rates; it is applied to the invoice at once, so both open items close (a cash
 * sale's is refunded to the bank at once instead: nothing was owing). Any other
 * released document is voided with a reversing entry. Voiding is refused while payments or
 * allocations stand on it (reverse them first).
 */
export async function deleteInvoice(
  ctx: TenantCtx,
  id: string,
  date: string | undefined,
): Promise<Invoice | null> {
  const companyId = companyOf(ctx);
  const row = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  if (row.status === 'draft') {
    await deleteDraft(ctx, row);
    return null;
  }
  if (row.status === 'void') throw conflict(`This ${label(row)} is already void`, { code: 'ALREADY_VOID' });
  const s = (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!;
  if (
    !money(s.paid).isZero() ||
    !money(s.credited).isZero() ||
    !money(s.applied).isZero() ||
    !money(s.writtenOff ?? 0).isZero() || // a bad debt written off: it stays, with its VAT claimed
    !money(s.refunded ?? 0).isZero() || // a credit note or deposit refunded: reverse the refunds first
    !money(s.forfeited ?? 0).isZero() // a deposit forfeited: the supply was made
  ) {
    throw conflict(`This ${label(row)} has payments or allocations; reverse them before voiding it`, {
      code: 'HAS_PAYMENTS',
    });
  }
  if (date && date < row.issue_date) throw badRequest('date', 'must not be before the issue date');
  const now = ctx.deps.now();
  let voidEntryId: string | null = null;
  let creditNoteId: string | null = null;
  if (row.entry_id && TAX_INVOICE_TYPES.has(row.document_type)) {
    const on = date ?? latestDay(today(ctx), row.issue_date);
    creditNoteId = await creditWhatRemains(ctx, row, on);
    // A cash sale left nothing owing, so its credit note is not applied to it: the money it took
    // goes back, from the bank it came into, on the same day (the net effect is the reversal of
    // the sale, with a numbered credit note the customer can be given).
    if (row.document_type === 'cash_sale')
      await refundFrom(ctx, creditNoteId, { date: on, reference: `Void of ${row.number}` });
  } else if (row.entry_id) {
    voidEntryId = await reverse(ledgerCtxOf(ctx), row.entry_id, {
      ...(date ? { date } : {}),
      description: `Void of ${label(row)}`,
      source: { type: row.document_type, id: row.id },
    });
  }
  // Goods a credit note brought back go out again; goods a delivery note took out come back.
  // (A tax invoice's void is its credit note above, which brings its goods back.)
  if (row.document_type === 'credit_note' || row.document_type === 'delivery_note')
    await undoStock(ledgerCtxOf(ctx), {
      companyId,
      sourceId: row.id,
      date: date ?? row.issue_date, // as the reversal of its entry is
      description: `Void of ${label(row)}: goods moved back`,
      source: { type: row.document_type, id: row.id },
      outType: 'sale',
    });
  await ctx.db
    .updateTable('invoices')
    .set({
      status: 'void',
      void_entry_id: voidEntryId,
      voided_by_credit_note_id: creditNoteId,
      voided_at: now,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  const voided = await getInvoice(ctx, id);
  await announce(ctx, 'invoice.voided', voided);
  return voided;
}

/**
 * The credit note a void issues: the invoice's lines (its codes and rates, as any note against
 * it takes, s21), released at once (numbered CN-…, posted as the mirror of the invoice's entry,
 * dated `date`) and applied to the invoice. Announced as any credit note is: invoice.created,
 * invoice.released. Only the whole of the invoice can be credited from its lines: when credit
 * notes released earlier have credited part of it (not applied to it), the rest is 409.
 */
async function creditWhatRemains(ctx: TenantCtx, row: InvoiceRow, date: string): Promise<string> {
  const remaining = await remainingToCredit(ctx, row);
  if (!remaining.equals(money(row.total)))
    throw conflict(
      `Credit notes already credit ${money(row.total).minus(remaining).toFixed(2)} of this ${label(row)}; ` +
        `credit the remaining ${remaining.toFixed(2)} with a credit note instead of voiding it`,
      { code: 'HAS_PAYMENTS' },
    );
  const lines = (await linesOf(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const { invoice: note } = await createDocument(ctx, {
    documentType: 'credit_note',
    contactId: row.contact_id,
    issueDate: date,
    dueDate: date,
    currency: row.currency,
    creditedDocumentId: row.id,
    ...(row.reference ? { reference: row.reference } : {}),
    ...(row.template_id ? { templateId: row.template_id } : {}),
    lines: lines.map((l) => ({
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      discountRate: Number(l.discount_rate),
      taxCode: l.tax_code as SalesTaxCode,
      accountId: l.account_id,
    })),
  });
  // Released as a void's note: it brings back exactly the goods the invoice moved (flows.sales.ts).
  await releaseInvoice(ctx, note.id, { voiding: true });
  return note.id;
}
