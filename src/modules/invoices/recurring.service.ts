import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { runOnOrAfter } from '../../platform/schedules/recurring-dates.ts';
import { companyOf, today } from '../../platform/work/context.ts';
import { getContact } from '../contacts/index.ts';
import { type DetailedRow, detailedInvoices, type Invoice, withDetails } from './invoices.queries.ts';
import type { LineInput } from './invoices.schemas.ts';
import { priced } from './invoices.service.ts';
import {
  findSchedule,
  hasEnded,
  lineInputOf,
  type Recurring,
  type RecurringRow,
  templateLines,
  toRecurrings,
} from './recurring.queries.ts';
import { planNextRun } from './recurring.run.ts';
import {
  RECURRING_DEFAULT_SORT,
  type RECURRING_SORT_KEYS,
  type RecurringCreate,
  type RecurringListQuery,
  type RecurringUpdate,
} from './recurring.schemas.ts';
import { assertTemplate } from './settings.queries.ts';

type Line = Static<typeof LineInput>;

/**
 * The template is priced as a document dated `date` would be, so that a schedule whose documents
 * would be refused (an account of another company, too many decimals, a total or VAT below zero:
 * 422 CREDIT_NOTE_REQUIRED) is refused now, naming the line or total, and not at 02:00 on its run date.
 */
async function checkTemplate(
  ctx: TenantCtx,
  t: { lines: Line[]; currency: string; autoRelease: boolean; date: string },
): Promise<void> {
  // A serial is sold once: a template that repeats a line cannot name one.
  const serial = t.lines.findIndex((l) => l.serials !== undefined);
  if (serial >= 0)
    throw badRequest(`lines[${serial}].serials`, 'a recurring line cannot name serials: each is sold once');
  await priced(ctx, { issueDate: t.date, lines: t.lines });
  if (!t.autoRelease) return;
  const company = await ctx.db
    .selectFrom('companies')
    .select('base_currency')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyOf(ctx))
    .executeTakeFirstOrThrow();
  const base = company.base_currency.trim();
  if (t.currency !== base) {
    throw badRequest(
      'autoRelease',
      `a ${t.currency} document cannot be posted yet (the ledger keeps ${base} only); leave autoRelease off`,
    );
  }
}

/**
 * autoSend e-mails each document as it is released: it needs autoRelease (a draft is not sent)
 * and a customer with an e-mail address. Refused now, naming autoSend, rather than at 02:00.
 */
function checkAutoSend(s: { autoSend: boolean; autoRelease: boolean; contactEmail: string | null }): void {
  if (!s.autoSend) return;
  if (!s.autoRelease)
    throw badRequest('autoSend', 'needs autoRelease: a draft is not sent, only a released document');
  if (!s.contactEmail?.trim())
    throw badRequest('autoSend', 'the customer has no e-mail address to send the documents to');
}

async function insertLines(ctx: TenantCtx, recurringId: string, lines: Line[]): Promise<void> {
  await ctx.db
    .insertInto('recurring_invoice_lines')
    .values(
      lines.map((l, i) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        recurring_id: recurringId,
        line_no: i + 1,
        description: l.description,
        quantity: String(l.quantity),
        unit_price: String(l.unitPrice),
        discount_rate: l.discountRate === undefined ? null : String(l.discountRate),
        tax_code: l.taxCode ?? null,
        vat_rate: l.vatRate === undefined ? null : String(l.vatRate),
        account_id: l.accountId ?? null,
        product_id: l.productId ?? null,
        variant_id: l.variantId ?? null,
        unit: l.unit ?? null,
        batch_code: l.batchCode?.trim() || null,
      })),
    )
    .execute();
}

/** The schedule's customer (its e-mail and payment terms matter here), or a 400 naming the field. */
async function assertCustomer(ctx: TenantCtx, contactId: string, field = 'contactId') {
  try {
    return await getContact(ctx, contactId);
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw badRequest(field, 'no such contact');
    throw err;
  }
}

export async function getRecurring(ctx: TenantCtx, id: string): Promise<Recurring> {
  const row = await findSchedule(ctx.db, ctx.tenantId, id, { companyId: companyOf(ctx) });
  if (!row) throw notFound('Recurring schedule');
  return (await toRecurrings(ctx.db, ctx.tenantId, [row]))[0]!;
}

export async function createRecurring(
  ctx: TenantCtx,
  input: Static<typeof RecurringCreate>,
): Promise<Recurring> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'recurring_invoices',
    owner: ['company_id', companyId],
    softDeleted: true,
  });
  if (replay) {
    ctx.reply.code(200);
    return getRecurring(ctx, id);
  }
  // frequency and documentType: their enums were checked by validation (400 naming them).
  const frequency = input.frequency;
  const documentType = input.documentType ?? 'invoice';
  if (input.endDate && input.endDate < input.startDate)
    throw badRequest('endDate', 'must not be before startDate');
  const contact = await assertCustomer(ctx, input.contactId);
  const currency = input.currency ?? 'ZAR';
  const autoRelease = input.autoRelease ?? false;
  await checkTemplate(ctx, { lines: input.lines, currency, autoRelease, date: input.startDate });
  checkAutoSend({ autoSend: input.autoSend ?? false, autoRelease, contactEmail: contact.email });
  await assertTemplate(ctx.db, ctx.tenantId, companyId, input.templateId, 'templateId');
  const row = await ctx.db
    .insertInto('recurring_invoices')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: input.contactId,
      document_type: documentType,
      frequency,
      interval_count: input.interval ?? 1,
      start_date: input.startDate,
      next_date: input.startDate,
      anchor_date: input.startDate,
      end_date: input.endDate ?? null,
      payment_terms_days: input.paymentTermsDays ?? contact.paymentTerms,
      currency,
      reference: input.reference ?? null,
      terms: input.terms ?? null,
      notes: input.notes ?? null,
      template_id: input.templateId ?? null,
      auto_release: autoRelease,
      auto_send: input.autoSend ?? false,
      active: input.active ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await insertLines(ctx, id, input.lines);
  await planNextRun(ctx.deps, ctx.db, row);
  ctx.reply.code(201);
  return getRecurring(ctx, id);
}

export async function updateRecurring(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof RecurringUpdate>,
): Promise<Recurring> {
  // Locked: a run of this schedule waits for the change, or the change for the run.
  const row = await findSchedule(ctx.db, ctx.tenantId, id, { companyId: companyOf(ctx), lock: true });
  if (!row) throw notFound('Recurring schedule');
  const frequency = input.frequency ?? row.frequency;
  const interval = input.interval ?? row.interval_count;
  let startDate = row.start_date;
  let nextDate = row.next_date;
  let anchor = row.anchor_date;
  if (input.startDate !== undefined && input.startDate !== row.start_date) {
    if (row.last_run_date)
      throw badRequest(
        'startDate',
        `the schedule has made documents (up to ${row.last_run_date}); move nextDate instead`,
      );
    startDate = input.startDate;
    nextDate = startDate;
    anchor = startDate;
  }
  // A new step: the next run stays where it is, and the runs after it follow the new step.
  if (frequency !== row.frequency || interval !== row.interval_count) anchor = nextDate;
  if (input.nextDate !== undefined) {
    if (input.nextDate < startDate) throw badRequest('nextDate', 'must not be before startDate');
    if (row.last_run_date && input.nextDate <= row.last_run_date)
      throw badRequest(
        'nextDate',
        `must be after ${row.last_run_date}, the last period made (a period is made once)`,
      );
    nextDate = input.nextDate;
    anchor = nextDate;
  }
  const endDate = input.endDate === undefined ? row.end_date : input.endDate;
  if (endDate && endDate < startDate) throw badRequest('endDate', 'must not be before startDate');
  const active = input.active ?? row.active;
  // Resumed (or an ended schedule given a later end): periods that passed while it was not
  // running are not made, unless nextDate says otherwise.
  const wasRunning = row.active && !hasEnded(row);
  const runs = active && !(endDate && nextDate > endDate);
  if (!wasRunning && runs && input.nextDate === undefined && nextDate < today(ctx))
    nextDate = runOnOrAfter({ anchor, frequency, interval }, today(ctx));
  const contact = input.contactId ? await assertCustomer(ctx, input.contactId) : undefined;
  const currency = input.currency ?? row.currency;
  const autoRelease = input.autoRelease ?? row.auto_release;
  const autoSend = input.autoSend ?? row.auto_send;
  if (input.autoSend || (autoSend && (input.autoRelease !== undefined || contact))) {
    const email = contact ? contact.email : (await getContact(ctx, row.contact_id).catch(() => null))?.email;
    checkAutoSend({ autoSend, autoRelease, contactEmail: email ?? null });
  }
  await assertTemplate(ctx.db, ctx.tenantId, companyOf(ctx), input.templateId, 'templateId');
  if (input.lines || input.currency || input.autoRelease !== undefined) {
    const lines = input.lines ?? (await templateLines(ctx.db, ctx.tenantId, [id])).get(id)!.map(lineInputOf);
    await checkTemplate(ctx, { lines, currency, autoRelease, date: nextDate });
  }
  const set: Record<string, unknown> = {
    frequency,
    interval_count: interval,
    start_date: startDate,
    next_date: nextDate,
    anchor_date: anchor,
    end_date: endDate,
    currency,
    auto_release: autoRelease,
    active,
  };
  for (const [key, column] of [
    ['contactId', 'contact_id'],
    ['paymentTermsDays', 'payment_terms_days'],
    ['reference', 'reference'],
    ['terms', 'terms'],
    ['notes', 'notes'],
    ['templateId', 'template_id'],
    ['autoSend', 'auto_send'],
  ] as const) {
    if (input[key] !== undefined) set[column] = input[key];
  }
  const updated = await ctx.db
    .updateTable('recurring_invoices')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (input.lines) {
    // Replaced whole: the old lines are retired, never deleted.
    await ctx.db
      .updateTable('recurring_invoice_lines')
      .set({ retired_at: ctx.deps.now() })
      .where('tenant_id', '=', ctx.tenantId)
      .where('recurring_id', '=', id)
      .where('retired_at', 'is', null)
      .execute();
    await insertLines(ctx, id, input.lines);
  }
  // A job already waiting for this date is kept (one per period); one for an old date finds the
  // schedule changed and does nothing.
  await planNextRun(ctx.deps, ctx.db, updated);
  return getRecurring(ctx, id);
}

/** Soft: the schedule is marked deleted and stops; the documents it made stay as they are. */
export async function deleteRecurring(ctx: TenantCtx, id: string): Promise<void> {
  const row = await findSchedule(ctx.db, ctx.tenantId, id, { companyId: companyOf(ctx), lock: true });
  if (!row) throw notFound('Recurring schedule');
  await ctx.db
    .updateTable('recurring_invoices')
    .set({ deleted_at: ctx.deps.now(), active: false })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

type RecurringSortKey = (typeof RECURRING_SORT_KEYS)[number];

/** The column each sort key orders by (date: the next run), then creation, then the id that breaks ties. */
const SORT_COLUMNS = {
  date: ['next_date', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<RecurringSortKey, readonly string[]>;

export async function listRecurring(
  ctx: TenantCtx,
  query: Static<typeof RecurringListQuery>,
): Promise<Page<Recurring>> {
  const status = query.status;
  const p = paging(query);
  const order = sortOrder<RecurringSortKey>(query.sort, RECURRING_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('recurring_invoices')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync (updatedSince) learns of deleted schedules too, their deletedAt set.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (status === 'ended') {
    q = q.where('end_date', 'is not', null).whereRef('next_date', '>', 'end_date');
  } else if (status) {
    q = q
      .where('active', '=', status === 'active')
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('next_date', '<=', eb.ref('end_date'))]));
  }
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await toRecurrings(ctx.db, ctx.tenantId, rows as RecurringRow[]), total, p);
}

/** The documents a schedule made, by period, oldest first (deleted drafts are not listed). */
export async function listRecurringDocuments(
  ctx: TenantCtx,
  id: string,
  query: { page?: number; limit?: number },
): Promise<Page<Invoice>> {
  const row = await findSchedule(ctx.db, ctx.tenantId, id, { companyId: companyOf(ctx) });
  if (!row) throw notFound('Recurring schedule');
  const p = paging(query);
  const q = ctx.db
    .selectFrom('invoices')
    .where('tenant_id', '=', ctx.tenantId)
    .where('recurring_id', '=', id)
    .where('deleted_at', 'is', null);
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = (await withDetails(q.selectAll('invoices'))
    .orderBy('recurring_period')
    .orderBy('id')
    .limit(p.limit)
    .offset(p.offset)
    .execute()) as DetailedRow[];
  return pageOf(await detailedInvoices(ctx.db, ctx.tenantId, rows, today(ctx)), Number(n), p);
}
