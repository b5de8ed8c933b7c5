// Sales documents: create (idempotent on clientId, numbered per type), read, list, change
// while draft, delete (a draft is marked deleted; a released document is voided), convert,
// and a quote's acceptance. Release, payments and allocations have files of their own.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { hasAtMostDecimals, toSql } from '../../platform/money/money.ts';
import { formattedNumber, takeNumber } from '../../platform/numbering/counters.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import { contactName } from '../contacts/index.ts';
import {
  assertLineStock,
  assertLiveProducts,
  type LineStock,
  salesUnitPrice,
  stockColumn,
  stockInput,
  toBaseUnits,
  withProductTaxCodes,
} from '../inventory/index.ts';
import {
  assertNotBelowZero,
  documentTotals,
  lineAmounts,
  lineTaxCode,
  systemAccount,
  vatRegisteredOn,
} from '../ledger/index.ts';
import { announce, announceById } from './announce.ts';
import {
  type DetailedRow,
  detailedInvoices,
  findInvoice,
  findInvoiceRow,
  type Invoice,
  type InvoiceRow,
  linesOf,
  NOTHING_SETTLED,
  RECEIVABLE_TYPES,
  toInvoice,
  withDetails,
} from './invoices.queries.ts';
import {
  type ConvertBody,
  INVOICE_DEFAULT_SORT,
  type INVOICE_SORT_KEYS,
  type InvoiceCreate,
  type InvoiceListQuery,
  type InvoiceUpdate,
  type LineInput,
  type SalesLineInput,
} from './invoices.schemas.ts';
import type { DocumentType } from './invoices.tables.ts';
import { adjustedDocument, adjustedIdOf, assertNoteDate, assertWithinRemaining } from './notes.ts';
import { assertTemplate, findTemplate, loadSettings } from './settings.queries.ts';

export async function getInvoice(ctx: WorkCtx, id: string): Promise<Invoice> {
  const found = await findInvoice(ctx.db, ctx.tenantId, companyOf(ctx), id, today(ctx));
  if (!found) throw notFound('Document');
  return found;
}

type Line = Static<typeof LineInput>;
type SentLine = Static<typeof SalesLineInput>;

/**
 * The document's header and lines as they will be stored: VAT and totals worked out. `taxDate`:
 * the date whose standard rate and VAT registration apply when not the issue date's (a credit or
 * debit note takes those of the document it adjusts, VAT Act s21).
 */
export async function priced(
  ctx: WorkCtx,
  input: {
    issueDate: string;
    lines: SentLine[];
    taxDate?: string | undefined;
    documentType?: DocumentType;
    /** Whose price list prices a product line sent without a unitPrice. */
    contactId?: string | undefined;
  },
): Promise<{
  vatRegistered: boolean;
  lines: Array<ReturnType<typeof lineValues>>;
  totals: ReturnType<typeof documentTotals>;
}> {
  const companyId = companyOf(ctx);
  const taxDate = input.taxDate ?? input.issueDate;
  const vatRegistered = await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, taxDate);
  let sales: string | undefined;
  const accounts = new Set(input.lines.map((l) => l.accountId).filter((a): a is string => Boolean(a)));
  const found = accounts.size
    ? await ctx.db
        .selectFrom('accounts')
        .select(['id', 'type', 'is_active', 'name'])
        .where('tenant_id', '=', ctx.tenantId)
        .where('company_id', '=', companyId)
        .where('id', 'in', [...accounts])
        .execute()
    : [];
  await assertLiveProducts(ctx, input.lines, 'lines');
  await assertLineStock(ctx, input.lines, 'lines');
  // A line naming a product and no code or rate of its own takes the product's sales code.
  const sentLines = await withProductTaxCodes(ctx, input.lines, 'sales');
  const lines = [];
  for (const [i, sent] of sentLines.entries()) {
    const l = await withUnitPrice(ctx, companyId, input.contactId, sent, i);
    if (!hasAtMostDecimals(l.quantity, 4)) throw badRequest(`lines[${i}].quantity`, 'at most four decimals');
    if (!hasAtMostDecimals(l.unitPrice, 4))
      throw badRequest(`lines[${i}].unitPrice`, 'at most four decimals');
    if (l.discountRate !== undefined && !hasAtMostDecimals(l.discountRate, 4))
      throw badRequest(`lines[${i}].discountRate`, 'at most four decimals');
    if (l.vatRate !== undefined && !hasAtMostDecimals(l.vatRate, 3))
      throw badRequest(`lines[${i}].vatRate`, 'at most three decimals');
    if (Math.abs(l.quantity) >= 1e12 || Math.abs(l.unitPrice) >= 1e12)
      throw badRequest(`lines[${i}].quantity`, 'the line amount is too large');
    let accountId = l.accountId;
    if (accountId) {
      const a = found.find((f) => f.id === accountId);
      if (!a) throw badRequest(`lines[${i}].accountId`, 'no such account in this company');
      if (a.type !== 'income')
        throw badRequest(`lines[${i}].accountId`, `${a.name} is not an income account`);
      if (!a.is_active) throw badRequest(`lines[${i}].accountId`, `${a.name} is deactivated`);
    } else {
      sales ??= await systemAccount(ctx, companyId, 'sales');
      accountId = sales;
    }
    // The code first, so that a refused rate is named as the line sent it. A note takes the
    // rates of the document it adjusts (taxDate: its issue date, s21).
    // A deposit is no supply until it is applied or forfeited (VAT Act s1, "consideration"): its
    // lines are out of VAT whatever they say, and the document charges none.
    const taxCode =
      input.documentType === 'deposit' ? 'out_of_scope' : lineTaxCode(l, taxDate, `lines[${i}].vatRate`);
    const { vatRate: _asked, ...rest } = l;
    const amounts = lineAmounts(input.documentType === 'deposit' ? { ...rest, taxCode } : { ...l, taxCode }, {
      vatRegistered,
      issueDate: taxDate,
    });
    lines.push(lineValues(l, accountId, amounts));
  }
  const totals = documentTotals(lines.map((l) => l.amounts));
  // A credit note keeps its own rule (a negative one would be a debit note: 400 naming lines);
  // every other document, the tax invoices and what becomes one, neither total nor VAT below zero.
  if (input.documentType === 'credit_note') {
    if (totals.total.isNegative()) throw badRequest('lines', 'the document total must not be negative');
  } else assertNotBelowZero(totals, (input.documentType ?? 'invoice').replace('_', ' '));
  return { vatRegistered, lines, totals };
}

/** The line with its unitPrice: as sent, else the product's price for the contact (issue 20). */
async function withUnitPrice(
  ctx: WorkCtx,
  companyId: string,
  contactId: string | undefined,
  l: SentLine,
  i: number,
): Promise<Line> {
  if (l.unitPrice !== undefined) return { ...l, unitPrice: l.unitPrice };
  if (!l.productId) throw badRequest(`lines[${i}].unitPrice`, 'required without a productId');
  const price = await salesUnitPrice(ctx, {
    contactId,
    companyId,
    productId: l.productId,
    variantId: l.variantId,
  });
  // A list or product price is per base unit: a line in another unit is priced per that unit.
  const per = await toBaseUnits(ctx, l.productId, l.unit, 1, `lines[${i}].unit`);
  return { ...l, unitPrice: price.times(per).toNumber() };
}

function lineValues(l: Line, accountId: string, amounts: ReturnType<typeof lineAmounts>) {
  return { input: l, accountId, amounts };
}

/** The rows of a document's lines, numbered from 1 in the order given. */
function lineRowsOf(ctx: WorkCtx, invoiceId: string, lines: Array<ReturnType<typeof lineValues>>) {
  return lines.map((l, i) => ({
    tenant_id: ctx.tenantId,
    id: crypto.randomUUID(),
    invoice_id: invoiceId,
    line_no: i + 1,
    description: l.input.description,
    quantity: String(l.input.quantity),
    unit_price: String(l.input.unitPrice),
    discount_rate: String(l.input.discountRate ?? 0),
    tax_code: l.amounts.taxCode,
    vat_rate: l.amounts.vatRate.toFixed(3),
    requested_vat_rate: l.input.vatRate === undefined ? null : String(l.input.vatRate),
    account_id: l.accountId,
    product_id: l.input.productId ?? null,
    variant_id: l.input.variantId ?? null,
    stock: stockColumn(l.input),
    net_amount: toSql(l.amounts.net),
    discount_amount: toSql(l.amounts.discount),
    vat_amount: toSql(l.amounts.vat),
    total_amount: toSql(l.amounts.total),
  }));
}

/** Inserts the lines (replacing a draft's). */
async function insertLines(
  ctx: WorkCtx,
  invoiceId: string,
  lines: Array<ReturnType<typeof lineValues>>,
): Promise<void> {
  await ctx.db
    .insertInto('invoice_lines')
    .values(lineRowsOf(ctx, invoiceId, lines))
    .execute();
}

/** The contact must be a live contact of the tenant (400 naming the field); answers its name. */
export async function assertContact(
  ctx: WorkCtx,
  contactId: string,
  field = 'contactId',
): Promise<{ name: string }> {
  const name = await contactName(ctx, contactId);
  if (name === undefined) throw badRequest(field, 'no such contact');
  return { name };
}

/**
 * Where a document came from, when not typed in: a recurring schedule's run for a period, or
 * the conversion of another document.
 */
export type DocumentOrigin =
  | {
      recurringId: string;
      /** The run date it was generated for: one document per schedule and period (a unique index). */
      period: string;
    }
  | { convertedFromId: string };

/**
 * Creates a draft, or answers the document a repeated clientId already made (`created` false).
 * The numbering counter row stays locked until the caller's transaction ends. A new document
 * is announced (invoice.created) in the same transaction.
 */
export async function createDocument(
  ctx: WorkCtx,
  input: Static<typeof InvoiceCreate>,
  origin?: DocumentOrigin,
): Promise<{ invoice: Invoice; created: boolean }> {
  const companyId = companyOf(ctx);
  if (input.dueDate < input.issueDate) throw badRequest('dueDate', 'must not be before issueDate');
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'invoices',
    owner: ['company_id', companyId],
  });
  if (replay) return { invoice: await getInvoice(ctx, id), created: false };
  const contact = await assertContact(ctx, input.contactId);
  // A credit or debit note: the document it adjusts gives its VAT date (s21) and caps a credit.
  const adjusting = adjustedIdOf(input);
  const adjusted = await adjustedDocument(ctx, input.documentType, adjusting.id, adjusting.field);
  assertNoteDate(input.issueDate, adjusted);
  await assertTemplate(ctx.db, ctx.tenantId, companyId, input.templateId, 'templateId');
  const { vatRegistered, lines, totals } = await priced(ctx, {
    ...input,
    taxDate: adjusted?.issue_date,
    documentType: input.documentType,
  });
  await assertWithinRemaining(ctx, input.documentType, adjusted, totals.total);
  // The settings number it, and give what the body leaves out: the payment term, terms, notes.
  const settings = await loadSettings(ctx.db, ctx.tenantId, companyId);
  const lineRows = lineRowsOf(ctx, id, lines);
  // One statement takes the number, and inserts the document and its lines: the counter row
  // stays locked from here to COMMIT, which the audit entry rides with (one more round trip).
  const row = await ctx.db
    .with('taken', (db) => takeNumber(db, ctx.tenantId, companyId, input.documentType))
    .with('new_lines', (db) => db.insertInto('invoice_lines').values(lineRows).returning('id'))
    .insertInto('invoices')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      document_type: input.documentType,
      number: formattedNumber(settings.prefixes[input.documentType], settings.numberDigits),
      status: 'draft',
      contact_id: input.contactId,
      issue_date: input.issueDate,
      due_date: input.dueDate,
      currency: input.currency ?? 'ZAR',
      payment_terms_days: input.paymentTermsDays ?? settings.defaultPaymentTermsDays,
      terms: input.terms ?? settings.defaultTerms,
      reference: input.reference ?? null,
      notes: input.notes ?? settings.defaultNotes,
      vat_registered: vatRegistered,
      subtotal: toSql(totals.subtotal),
      discount_total: toSql(totals.discountTotal),
      vat_total: toSql(totals.vatTotal),
      total: toSql(totals.total),
      credited_invoice_id: adjusted?.id ?? null,
      template_id: input.templateId ?? null,
      recurring_id: origin && 'recurringId' in origin ? origin.recurringId : null,
      recurring_period: origin && 'period' in origin ? origin.period : null,
      converted_from_id: origin && 'convertedFromId' in origin ? origin.convertedFromId : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Answered from what was just written: the lines as inserted, and a new draft has nothing
  // paid, credited or applied.
  const answered = lineRows.map((l) => ({
    ...l,
    stock: l.stock ? (JSON.parse(l.stock) as LineStock) : null,
  }));
  const invoice = toInvoice(row, answered, NOTHING_SETTLED, contact.name, today(ctx));
  await announce(ctx, 'invoice.created', invoice);
  return { invoice, created: true };
}

/** POST /api/invoices: 201 with the new draft, 200 with the one a repeated clientId made. */
export async function createInvoice(ctx: TenantCtx, input: Static<typeof InvoiceCreate>): Promise<Invoice> {
  const { invoice, created } = await createDocument(ctx, input);
  ctx.reply.code(created ? 201 : 200);
  return invoice;
}

export async function updateInvoice(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof InvoiceUpdate>,
): Promise<Invoice> {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Document');
  if (row.status !== 'draft') {
    throw conflict(
      `Only a draft can be changed; this ${row.document_type.replace('_', ' ')} is ${row.status}`,
      {
        code: 'NOT_A_DRAFT',
      },
    );
  }
  const issueDate = input.issueDate ?? row.issue_date;
  const dueDate = input.dueDate ?? row.due_date;
  if (dueDate < issueDate)
    throw badRequest(input.dueDate ? 'dueDate' : 'issueDate', 'dueDate must not be before issueDate');
  if (input.contactId) await assertContact(ctx, input.contactId);
  const adjusting = adjustedIdOf(input);
  const adjusted = await adjustedDocument(
    ctx,
    row.document_type,
    adjusting.id === undefined ? row.credited_invoice_id : adjusting.id,
    adjusting.field,
  );
  assertNoteDate(issueDate, adjusted);
  await assertTemplate(ctx.db, ctx.tenantId, companyOf(ctx), input.templateId, 'templateId');
  // updated_at: the database moves it (touch_updated_at).
  const set: Record<string, unknown> = {
    issue_date: issueDate,
    due_date: dueDate,
  };
  if (input.contactId) set.contact_id = input.contactId;
  if (input.currency) set.currency = input.currency;
  for (const [key, column] of [
    ['paymentTermsDays', 'payment_terms_days'],
    ['terms', 'terms'],
    ['reference', 'reference'],
    ['notes', 'notes'],
    ['templateId', 'template_id'],
  ] as const) {
    if (input[key] !== undefined) set[column] = input[key];
  }
  if (adjusting.id !== undefined) set.credited_invoice_id = adjusting.id;
  // New lines, a new issue date or a new adjusted document (the VAT rate and registration
  // follow its date): price again, and a credit note is held to what remains to credit.
  if (input.lines || input.issueDate || adjusting.id !== undefined) {
    const lines =
      input.lines ??
      (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!.map((l) => ({
        description: l.description,
        quantity: Number(l.quantity),
        unitPrice: Number(l.unit_price),
        discountRate: Number(l.discount_rate),
        taxCode: l.tax_code,
        accountId: l.account_id,
        ...(l.product_id ? { productId: l.product_id } : {}),
        ...(l.variant_id ? { variantId: l.variant_id } : {}),
        ...stockInput(l.stock),
      }));
    const p = await priced(ctx, {
      issueDate,
      lines,
      contactId: input.contactId ?? row.contact_id,
      taxDate: adjusted?.issue_date,
      documentType: row.document_type,
    });
    await assertWithinRemaining(ctx, row.document_type, adjusted, p.totals.total, id);
    Object.assign(set, {
      vat_registered: p.vatRegistered,
      subtotal: toSql(p.totals.subtotal),
      discount_total: toSql(p.totals.discountTotal),
      vat_total: toSql(p.totals.vatTotal),
      total: toSql(p.totals.total),
    });
    // Lines are replaced: the old ones are renumbered out of the way, never deleted.
    await retireLines(ctx, id);
    await insertLines(ctx, id, p.lines);
  }
  await ctx.db
    .updateTable('invoices')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  const updated = await getInvoice(ctx, id);
  await announce(ctx, 'invoice.updated', updated);
  return updated;
}

/** A draft's replaced lines are retired (bp_app deletes nothing); the audit log keeps the change. */
async function retireLines(ctx: TenantCtx, id: string) {
  await ctx.db
    .updateTable('invoice_lines')
    .set({ retired_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', id)
    .where('retired_at', 'is', null)
    .execute();
}

type InvoiceSortKey = (typeof INVOICE_SORT_KEYS)[number];

/** The columns each sort key orders by, before the id that breaks ties. */
const SORT_COLUMNS = {
  date: ['issue_date', 'created_at'],
  number: ['number'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<InvoiceSortKey, readonly string[]>;

/** `text` as a LIKE pattern matching it anywhere: its wildcards and escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listInvoices(
  ctx: TenantCtx,
  query: Static<typeof InvoiceListQuery>,
): Promise<Page<Invoice>> {
  const status = query.status;
  const type = query.documentType;
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  if (query.dueFrom && query.dueTo && query.dueTo < query.dueFrom)
    throw badRequest('dueTo', 'must not be before dueFrom');
  const p = paging(query);
  const day = today(ctx);
  const order = sortOrder<InvoiceSortKey>(query.sort, INVOICE_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('invoices')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync (updatedSince) learns of deleted drafts too, their deletedAt set; any other list
  // shows live documents only. Voided documents are listed either way (status void).
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (type) q = q.where('document_type', '=', type);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (query.from) q = q.where('issue_date', '>=', query.from);
  if (query.to) q = q.where('issue_date', '<=', query.to);
  if (query.dueFrom) q = q.where('due_date', '>=', query.dueFrom);
  if (query.dueTo) q = q.where('due_date', '<=', query.dueTo);
  if (query.q) {
    // In the same statement: the customer's name by its key, never a query per row.
    const pattern = containsPattern(query.q);
    q = q.where((eb) =>
      eb.or([
        eb('number', 'ilike', pattern),
        eb('reference', 'ilike', pattern),
        eb.exists(
          eb
            .selectFrom('contacts as c')
            .select(sql`1`.as('one'))
            .whereRef('c.tenant_id', '=', 'invoices.tenant_id')
            .whereRef('c.id', '=', 'invoices.contact_id')
            .where('c.name', 'ilike', pattern),
        ),
      ]),
    );
  }
  const receivable = [...RECEIVABLE_TYPES] as DocumentType[];
  if (status === 'overdue') {
    q = q
      .where('status', 'in', ['open', 'partially_paid'])
      .where('document_type', 'in', receivable)
      .where('due_date', '<', day);
  } else if (status === 'open' || status === 'partially_paid') {
    // Shown as overdue once past due: not listed under open then.
    q = q
      .where('status', '=', status)
      .where((eb) => eb.or([eb('document_type', 'not in', receivable), eb('due_date', '>=', day)]));
  } else if (status) {
    q = q.where('status', '=', status);
  }
  const count = q.select((eb) => eb.fn.countAll<string>().as('n'));
  // The page, each document with its details, and the total in the same statement. Ties are
  // broken by id in the order's direction, so pages never repeat or skip a document.
  let page = withDetails(q.selectAll('invoices')).select(count.as('matching'));
  for (const column of SORT_COLUMNS[order.key]) page = page.orderBy(column, order.direction);
  const rows = (await page.orderBy('id', order.direction).limit(p.limit).offset(p.offset).execute()) as Array<
    DetailedRow & { matching: string }
  >;
  // A page past the end has no row to carry the total.
  const total = rows[0]?.matching ?? (p.offset > 0 ? (await count.executeTakeFirstOrThrow()).n : 0);
  return pageOf(await detailedInvoices(ctx.db, ctx.tenantId, rows, day), Number(total), p);
}

/**
 * Marks a draft deleted; history stays. It answers 404 from then on and only a sync
 * (updatedSince) lists it, with deletedAt: so does invoice.updated announce it.
 */
export async function deleteDraft(ctx: TenantCtx, row: InvoiceRow): Promise<void> {
  await ctx.db
    .updateTable('invoices')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  await announceById(ctx, 'invoice.updated', row.id);
}

/**
 * Marks every document and recurring schedule of a company deleted (the sandbox's delete): they
 * leave every list and answer 404, and the schedules' jobs do nothing from then on. Their
 * journal entries stay, as posted entries always do, in the deleted company.
 */
export async function retireCompanyDocuments(ctx: TenantCtx, companyId: string): Promise<number> {
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('recurring_invoices')
    .set({ deleted_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .execute();
  const r = await ctx.db
    .updateTable('invoices')
    .set({ deleted_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** What each type converts into (a quote accepted becomes an invoice, and so on). */
export const CONVERSIONS: Partial<Record<DocumentType, DocumentType[]>> = {
  quote: ['invoice', 'pro_forma', 'sales_order'],
  sales_order: ['invoice', 'delivery_note'],
  pro_forma: ['invoice'],
};

export async function convertInvoice(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof ConvertBody>,
): Promise<Invoice> {
  const companyId = companyOf(ctx);
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  const targets = CONVERSIONS[row.document_type] ?? [];
  if (!targets.includes(input.documentType)) {
    throw badRequest(
      'documentType',
      targets.length
        ? `a ${row.document_type.replace('_', ' ')} converts to ${targets.join(', ')}`
        : `a ${row.document_type.replace('_', ' ')} does not convert to another document`,
    );
  }
  if (['void', 'declined', 'converted'].includes(row.status)) {
    throw conflict(`This ${row.document_type.replace('_', ' ')} is ${row.status}; it cannot be converted`, {
      code: 'NOT_CONVERTIBLE',
    });
  }
  // The new document is dated issueDate (default today, UTC), never before the document it comes
  // from, and falls due after the payment terms counted from that date.
  const issueDate = input.issueDate ?? today(ctx);
  if (issueDate < row.issue_date) {
    throw badRequest(
      'issueDate',
      `must not be before the ${row.document_type.replace('_', ' ')}'s issue date, ${row.issue_date}` +
        (input.issueDate ? '' : ' (today is before it: give issueDate)'),
    );
  }
  const terms = row.payment_terms_days ?? 30;
  const lines = (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!;
  // A template deleted since is not carried over: the new document takes the default look.
  const template =
    row.template_id && (await findTemplate(ctx.db, ctx.tenantId, companyId, row.template_id))
      ? row.template_id
      : null;
  const { invoice: created, created: isNew } = await createDocument(
    ctx,
    {
      ...(input.clientId ? { clientId: input.clientId } : {}),
      contactId: row.contact_id,
      documentType: input.documentType,
      issueDate,
      dueDate: addDays(issueDate, terms),
      currency: row.currency,
      ...(row.payment_terms_days !== null ? { paymentTermsDays: row.payment_terms_days } : {}),
      ...(row.terms ? { terms: row.terms } : {}),
      ...(row.reference ? { reference: row.reference } : {}),
      ...(row.notes ? { notes: row.notes } : {}),
      ...(template ? { templateId: template } : {}),
      lines: lines.map((l) => ({
        description: l.description,
        quantity: Number(l.quantity),
        unitPrice: Number(l.unit_price),
        discountRate: Number(l.discount_rate),
        taxCode: l.tax_code,
        accountId: l.account_id,
        ...(l.product_id ? { productId: l.product_id } : {}),
        ...(l.variant_id ? { variantId: l.variant_id } : {}),
        ...stockInput(l.stock),
      })),
    },
    { convertedFromId: id },
  );
  ctx.reply.code(isNew ? 201 : 200);
  // A quote or pro forma is done once converted; a sales order may go on to be delivered and invoiced.
  if (isNew && row.document_type !== 'sales_order') {
    await ctx.db
      .updateTable('invoices')
      .set({ status: 'converted' })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
    await announceById(ctx, 'invoice.updated', id);
  }
  return created;
}

/** A customer's answer to a quote or pro forma: accepted or declined. */
export async function answerQuote(
  ctx: TenantCtx,
  id: string,
  answer: 'accepted' | 'declined',
): Promise<Invoice> {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Document');
  if (row.document_type !== 'quote' && row.document_type !== 'pro_forma')
    throw conflict('Only a quote or a pro forma is accepted or declined', { code: 'NOT_A_QUOTE' });
  if (!['draft', 'open', 'accepted', 'declined'].includes(row.status))
    throw conflict(`This ${row.document_type.replace('_', ' ')} is ${row.status}`, {
      code: 'NOT_ANSWERABLE',
    });
  await ctx.db
    .updateTable('invoices')
    .set({ status: answer })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return announceById(ctx, 'invoice.updated', id);
}
