// Bad debts (VAT Act s22(1), SARS VAT 404): the open balance of a released invoice or debit
// note, or part of it, written off. Posting, in one entry:
//   Cr debtors control (the document's open item)  the amount written off, VAT included
//   Dr bad debts (6800)                             its VAT-exclusive part
//   Dr VAT input                                    its VAT part, claimed back as input tax
// The VAT part is the document's own VAT in proportion: amount × vatTotal / total (for a
// single-rate document rate/(100+rate), up to the per-line rounding of the document), half-up
// to cents, taken on what has been written off so far so that parts add up to the whole
// (575 + 575 of a 1,150 document claim 75 + 75 = 150). The VAT and bad-debts lines carry the
// tax code input_bad_debt at the document's rate, which the VAT report puts in field 17. A
// document that charged no VAT (not registered then, zero-rated, exempt) claims none, and neither
// does a company not VAT-registered on the write-off date: only a vendor deducts input tax (s22(1)
// "a vendor ... may make a deduction"; s16(3)), so the whole amount is then a bad debt expense.
// A write-off or a recovery can be undone: its entry is reversed (on its own date, as a payment's
// is) and the row stays, marked reversed.

import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import {
  bankAccount,
  ledgerCtxOf,
  type PostingLine,
  post,
  systemAccount,
  vatRegisteredOn,
} from '../ledger/index.ts';
import { amountDue, linesOf, lockInvoiceRow, RECEIVABLE_TYPES, settlements } from './invoices.queries.ts';
import type { InvoiceBadDebtRecoveriesTable, InvoiceWriteOffsTable } from './invoices.tables.ts';
import { settle } from './settle.ts';

export interface WriteOffInput {
  date: string;
  amount?: number | undefined;
  reason: string;
}

export type WriteOffRow = {
  [K in keyof InvoiceWriteOffsTable]: K extends 'created_at' | 'updated_at'
    ? Date
    : K extends 'reversed_at'
      ? Date | null
      : K extends 'reversal_entry_id'
        ? string | null
        : string;
};

export function toWriteOff(r: WriteOffRow) {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    date: r.date,
    amount: toNumber(r.amount),
    vatAmount: toNumber(r.vat_amount),
    netAmount: toNumber(money(r.amount).minus(r.vat_amount)),
    reason: r.reason,
    entryId: r.entry_id,
    status: r.reversed_at ? ('reversed' as const) : ('posted' as const),
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalEntryId: r.reversal_entry_id,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * The rate the document charged: one standard rate per document (that of its date, or of the
 * document a debit note adjusts); null when it charged no VAT.
 */
async function rateOf(ctx: TenantCtx, invoiceId: string) {
  const rates = (await linesOf(ctx.db, ctx.tenantId, [invoiceId]))
    .get(invoiceId)!
    .filter((l) => !money(l.vat_amount).isZero())
    .map((l) => money(l.vat_rate));
  return rates.length ? rates.reduce((a, b) => (b.greaterThan(a) ? b : a)) : null;
}

export type BadDebtTable = 'invoice_write_offs' | 'invoice_bad_debt_recoveries';

/** What stands (not undone) of a document's write-offs or recoveries: the amounts and their VAT. */
export async function liveTotals(ctx: TenantCtx, table: BadDebtTable, invoiceId: string) {
  return ctx.db
    .selectFrom(table as 'invoice_write_offs')
    .select([
      sql<string>`coalesce(sum(amount), 0)`.as('amount'),
      sql<string>`coalesce(sum(vat_amount), 0)`.as('vat'),
    ])
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .where('reversed_at', 'is', null)
    .executeTakeFirstOrThrow();
}

export async function writeOffInvoice(ctx: TenantCtx, invoiceId: string, input: WriteOffInput) {
  const companyId = companyOf(ctx);
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, invoiceId);
  if (!invoice) throw notFound('Document');
  if (!RECEIVABLE_TYPES.has(invoice.document_type))
    throw conflict('Only an invoice or a debit note can be written off', { code: 'NOT_RECEIVABLE' });
  if (invoice.status === 'draft')
    throw conflict('A draft owes nothing: release it or delete it', { code: 'NOT_OPEN' });
  if (invoice.status === 'void') throw conflict('The document is void', { code: 'NOT_OPEN' });
  const s = (await settlements(ctx.db, ctx.tenantId, [invoiceId])).get(invoiceId)!;
  const due = money(amountDue(invoice, s));
  if (due.lessThanOrEqualTo(0)) throw conflict('Nothing is due on it to write off', { code: 'ALREADY_PAID' });
  const amount = input.amount === undefined ? due : money(input.amount);
  if (amount.lessThanOrEqualTo(0)) throw badRequest('amount', 'must be more than zero');
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('amount', 'must have at most two decimals');
  if (amount.greaterThan(due))
    throw badRequest('amount', `${amount.toFixed(2)} is more than the ${due.toFixed(2)} still due`);
  if (input.date < invoice.issue_date)
    throw badRequest('date', `must not be before the document's issue date ${invoice.issue_date}`);

  // The VAT part: the document's VAT in proportion to its total, on what is written off so far.
  const earlier = await liveTotals(ctx, 'invoice_write_offs', invoiceId);
  const total = money(invoice.total);
  const vatTotal = money(invoice.vat_total);
  const claims =
    invoice.vat_registered &&
    vatTotal.greaterThan(0) &&
    total.greaterThan(0) &&
    (await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.date));
  const vat = claims
    ? cents(money(earlier.amount).plus(amount).times(vatTotal).dividedBy(total)).minus(earlier.vat)
    : money(0);
  const net = amount.minus(vat);
  const rate = await rateOf(ctx, invoiceId);
  const tag = claims && rate ? { taxCode: 'input_bad_debt' as const, taxRate: rate } : {};

  const lctx = ledgerCtxOf(ctx);
  const id = crypto.randomUUID();
  const text = `Bad debt written off: ${invoice.number}`;
  const lines: PostingLine[] = [];
  if (net.greaterThan(0))
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'bad_debts'),
      debit: net,
      description: `${text} (${input.reason})`,
      contactId: invoice.contact_id,
      ...tag,
    });
  if (vat.greaterThan(0))
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'vat_input'),
      debit: vat,
      description: `${text}: VAT claimed back (s22(1))`,
      ...tag,
    });
  lines.push({
    accountId: await systemAccount(lctx, companyId, 'debtors_control'),
    credit: amount,
    description: text,
    contactId: invoice.contact_id,
    openItemId: invoice.id,
    dueDate: invoice.due_date,
  });
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description: text,
    reference: invoice.number,
    source: { type: 'write_off', id },
    lines,
  });
  await ctx.db
    .insertInto('invoice_write_offs')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      invoice_id: invoiceId,
      date: input.date,
      amount: toSql(amount),
      vat_amount: toSql(vat),
      reason: input.reason,
      entry_id: entryId,
    })
    .execute();
  await settle(ctx, invoice, 'write_off');
  ctx.reply.code(201);
  return toWriteOff(await findWriteOff(ctx, id));
}

export async function findWriteOff(ctx: TenantCtx, id: string) {
  return (await ctx.db
    .selectFrom('invoice_write_offs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as unknown as WriteOffRow;
}

export interface RecoveryInput {
  date: string;
  amount: number;
  bankAccountId?: string | undefined;
  reference?: string | undefined;
}

export type RecoveryRow = {
  [K in keyof InvoiceBadDebtRecoveriesTable]: K extends 'created_at' | 'updated_at'
    ? Date
    : K extends 'reversed_at'
      ? Date | null
      : K extends 'reference' | 'reversal_entry_id'
        ? string | null
        : string;
};

export function toRecovery(r: RecoveryRow) {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    date: r.date,
    amount: toNumber(r.amount),
    vatAmount: toNumber(r.vat_amount),
    netAmount: toNumber(money(r.amount).minus(r.vat_amount)),
    bankAccountId: r.bank_account_id,
    reference: r.reference,
    entryId: r.entry_id,
    status: r.reversed_at ? ('reversed' as const) : ('posted' as const),
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalEntryId: r.reversal_entry_id,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * A bad debt recovered (s22(2)): money received on a document after (part of) it was written off.
 * It is not a payment of the open item (the write-off closed that): one entry
 *   Dr bank                        the amount received
 *   Cr bad debts recovered (4950)  its VAT-exclusive part
 *   Cr VAT output                  its VAT part, output tax again
 * in the proportion the write-offs claimed: amount × VAT claimed / amount written off, half-up to
 * cents on what has been recovered so far (so recovering all of it gives back exactly what was
 * claimed). Both lines carry bad_debt_recovered at the document's rate (VAT201 field 12). At most
 * what was written off less what was recovered before (400 naming amount). The document does not
 * change (it stays written off, nothing is due on it), so no invoice.updated is emitted.
 */
export async function recoverBadDebt(ctx: TenantCtx, invoiceId: string, input: RecoveryInput) {
  const companyId = companyOf(ctx);
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, invoiceId);
  if (!invoice) throw notFound('Document');
  const written = await liveTotals(ctx, 'invoice_write_offs', invoiceId);
  const recovered = await liveTotals(ctx, 'invoice_bad_debt_recoveries', invoiceId);
  const left = money(written.amount).minus(recovered.amount);
  if (left.lessThanOrEqualTo(0))
    throw conflict('Nothing written off on this document is left to recover', { code: 'NOT_WRITTEN_OFF' });
  const amount = money(input.amount);
  if (amount.lessThanOrEqualTo(0)) throw badRequest('amount', 'must be more than zero');
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('amount', 'must have at most two decimals');
  if (amount.greaterThan(left))
    throw badRequest(
      'amount',
      `${amount.toFixed(2)} is more than the ${left.toFixed(2)} written off and not yet recovered`,
    );
  if (input.date < invoice.issue_date)
    throw badRequest('date', `must not be before the document's issue date ${invoice.issue_date}`);
  const writtenVat = money(written.vat);
  const vat = writtenVat.isZero()
    ? money(0)
    : cents(money(recovered.amount).plus(amount).times(writtenVat).dividedBy(written.amount)).minus(
        recovered.vat,
      );
  const net = amount.minus(vat);
  const rate = await rateOf(ctx, invoiceId);
  const tag = vat.greaterThan(0) && rate ? { taxCode: 'bad_debt_recovered' as const, taxRate: rate } : {};
  const bank = await bankAccount(ctx, companyId, input.bankAccountId);
  const lctx = ledgerCtxOf(ctx);
  const id = crypto.randomUUID();
  const text = `Bad debt recovered: ${invoice.number}`;
  const lines: PostingLine[] = [{ accountId: bank, debit: amount, description: text }];
  if (net.greaterThan(0))
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'bad_debts_recovered'),
      credit: net,
      description: text,
      contactId: invoice.contact_id,
      ...tag,
    });
  if (vat.greaterThan(0))
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'vat_output'),
      credit: vat,
      description: `${text}: VAT declared again (s22(2))`,
      ...tag,
    });
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description: text,
    reference: input.reference ?? invoice.number,
    source: { type: 'bad_debt_recovery', id },
    lines,
  });
  await ctx.db
    .insertInto('invoice_bad_debt_recoveries')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      invoice_id: invoiceId,
      date: input.date,
      amount: toSql(amount),
      vat_amount: toSql(vat),
      bank_account_id: bank,
      reference: input.reference ?? null,
      entry_id: entryId,
    })
    .execute();
  ctx.reply.code(201);
  return toRecovery(await findRecovery(ctx, id));
}

export async function findRecovery(ctx: TenantCtx, id: string) {
  return (await ctx.db
    .selectFrom('invoice_bad_debt_recoveries')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as unknown as RecoveryRow;
}
