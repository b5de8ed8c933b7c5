// Releasing a document (draft → open) and voiding one. Only invoice, credit_note,
// debit_note, cash_sale and deposit post to the ledger, each as one balanced entry:
//   invoice, debit note  Dr debtors control (total)   Cr income per line (net)  Cr VAT output (VAT)
//   credit note          Dr income (net)  Dr VAT output (VAT)   Cr debtors control (total)
//   cash sale            Dr bank (total)  Cr income (net)  Cr VAT output (VAT)
//   deposit              Dr bank (total)  Cr customer deposits (total)
// The debtors line names the contact and the document as its open item (aged debtors). A
// void posts the reversal of that entry, dated the document's issue date unless told.
import type { Decimal } from 'decimal.js';
import { latestDay } from '../../platform/dates.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/http/problem.ts';
import { money, sum } from '../../platform/money/money.ts';
import { ledgerCtxOf, type PostingLine, post, reverse, systemAccount } from '../ledger/index.ts';
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
import { companyOf, deleteDraft, getInvoice, type SalesCtx } from './invoices.service.ts';
import { assertReleasable, lockAdjustedFirst } from './notes.ts';

function label(row: InvoiceRow) {
  return `${row.document_type.replace('_', ' ')} ${row.number}`;
}

/** The lines of the entry a document posts; `side` is the side its income and VAT take. */
async function entryLines(ctx: SalesCtx, row: InvoiceRow, lines: LineRow[]): Promise<PostingLine[]> {
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
  // Income and VAT are credits on a sale and debits on a credit note.
  const credit = row.document_type !== 'credit_note';
  const side = (amount: Decimal) => (credit ? { credit: amount } : { debit: amount });
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
  for (const l of lines) {
    const rate = money(l.vat_rate);
    const taxCode = !row.vat_registered ? null : rate.isZero() ? 'zero' : 'standard';
    out.push({
      accountId: l.account_id,
      ...side(money(l.net_amount)),
      description: l.description,
      ...(taxCode ? { taxCode, taxRate: rate } : {}),
    });
  }
  // One VAT line per rate, carrying its code and rate for the VAT return.
  const vatByRate = new Map<string, Decimal[]>();
  for (const l of lines) {
    if (money(l.vat_amount).isZero()) continue;
    const k = money(l.vat_rate).toFixed(3);
    vatByRate.set(k, [...(vatByRate.get(k) ?? []), money(l.vat_amount)]);
  }
  if (vatByRate.size) {
    const vatOutput = await systemAccount(lctx, companyId, 'vat_output');
    for (const [rate, amounts] of vatByRate) {
      out.push({
        accountId: vatOutput,
        ...side(sum(amounts)),
        description: `VAT ${Number(rate)}% on ${label(row)}`,
        taxCode: 'standard',
        taxRate: rate,
      });
    }
  }
  return out;
}

export async function releaseInvoice(ctx: SalesCtx, id: string): Promise<Invoice> {
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
    const base = await ctx.db
      .selectFrom('companies')
      .select('base_currency')
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    if (row.currency !== base.base_currency.trim()) {
      throw unprocessable(
        `A ${row.currency} document cannot be posted yet: the ledger keeps ${base.base_currency.trim()} only. ` +
          'Keep it as a draft or issue it in the base currency.',
        ['FOREIGN_CURRENCY_POSTING_UNSUPPORTED'],
      );
    }
    if (money(row.total).isZero())
      throw badRequest('lines', 'a document of zero posts nothing; add an amount');
    const lines = (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!;
    entryId = await post(ledgerCtxOf(ctx), {
      companyId,
      date: row.issue_date,
      description: `${label(row)}`,
      reference: row.reference ?? row.number,
      source: { type: row.document_type, id: row.id },
      lines: await entryLines(ctx, row, lines),
    });
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
      });
    }
  }
  // Announced as it stands after its release, a credit note's application included.
  const released = await getInvoice(ctx, id);
  await announce(ctx, 'invoice.released', released);
  return released;
}

/**
 * DELETE: a draft is marked deleted; a released document is voided with a reversing entry.
 * Voiding is refused while payments or allocations stand on it (reverse them first).
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
  if (!money(s.paid).isZero() || !money(s.credited).isZero() || !money(s.applied).isZero()) {
    throw conflict(`This ${label(row)} has payments or allocations; reverse them before voiding it`, {
      code: 'HAS_PAYMENTS',
    });
  }
  if (date && date < row.issue_date) throw badRequest('date', 'must not be before the issue date');
  const now = ctx.deps.now();
  let voidEntryId: string | null = null;
  if (row.entry_id) {
    voidEntryId = await reverse(ledgerCtxOf(ctx), row.entry_id, {
      ...(date ? { date } : {}),
      description: `Void of ${label(row)}`,
      source: { type: row.document_type, id: row.id },
    });
  }
  await ctx.db
    .updateTable('invoices')
    .set({ status: 'void', void_entry_id: voidEntryId, voided_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  const voided = await getInvoice(ctx, id);
  await announce(ctx, 'invoice.voided', voided);
  return voided;
}
