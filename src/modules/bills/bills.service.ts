// Supplier bills: create (idempotent on clientId; the supplier's number once per supplier),
// read, list, submit for approval, reject, delete. Approval, void and payments post to the
// ledger and have files of their own (bills.posting.ts, bills.payments.ts).

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { emit } from '../../platform/events/outbox.ts';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { hasAtMostDecimals, toSql } from '../../platform/money/money.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import { assertCostCentre, documentTotals, systemAccount, vatRegisteredOn } from '../ledger/index.ts';
import { billLineRows, replaceBillLines } from './bills.lines.ts';
import { closeOrder, receiptMismatch, reopenOrder } from './bills.orders.ts';
import { type BillRecord, type BillRow, billRecords, findBillRow } from './bills.queries.ts';
import { planNextBill } from './bills.recurring.ts';
import {
  BILL_DEFAULT_SORT,
  type BILL_SORT_KEYS,
  type BillCreate,
  type BillLineInput,
  type BillListQuery,
  type BillRejected,
  type BillUpdate,
} from './bills.schemas.ts';
import { billLineAmounts, taxInvoiceCheck } from './bills.vat.ts';

/**
 * What the bills service needs of its caller: a request's TenantCtx is one; the job worker
 * (recurring bills) makes one for the tenant.
 */
export type BillsCtx = Pick<TenantCtx, 'db' | 'tenantId' | 'companyId' | 'deps'>;

export async function getBill(ctx: TenantCtx, id: string): Promise<BillRecord> {
  const row = await findBillRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Bill');
  return (await billRecords(ctx.db, ctx.tenantId, [row]))[0]!;
}

export async function recordOf(ctx: BillsCtx, row: BillRow): Promise<BillRecord> {
  return (await billRecords(ctx.db, ctx.tenantId, [row]))[0]!;
}

/** The supplier: a live SUPPLIER contact of the tenant (another tenant's, or none, is 404). */
async function supplierOf(ctx: BillsCtx, contactId: string) {
  const c = await ctx.db
    .selectFrom('contacts')
    .select(['name', 'contact_type', 'vat_number'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!c) throw notFound('Contact');
  if (c.contact_type !== 'SUPPLIER')
    throw badRequest('contactId', `${c.name} is a ${c.contact_type.toLowerCase()}, not a supplier`);
  return c;
}

type TaxedLineInput = Pick<
  Static<typeof BillLineInput>,
  'description' | 'quantity' | 'unitPrice' | 'taxCode' | 'vatRate' | 'accountId'
>;

/**
 * A bill's or credit note's lines priced at the rates of `taxDate` (the bill's issue date), each
 * with the account it posts to; 400 naming the line for what cannot be.
 */
export async function pricedLines(
  ctx: BillsCtx,
  companyId: string,
  lines: TaxedLineInput[],
  taxDate: string,
) {
  for (const [i, l] of lines.entries()) {
    if (!hasAtMostDecimals(l.quantity, 4)) throw badRequest(`lines[${i}].quantity`, 'at most four decimals');
    if (!hasAtMostDecimals(l.unitPrice, 4))
      throw badRequest(`lines[${i}].unitPrice`, 'at most four decimals');
    if (Math.abs(l.quantity) >= 1e12 || Math.abs(l.unitPrice) >= 1e12)
      throw badRequest(`lines[${i}].quantity`, 'the line amount is too large');
  }
  const accounts = await lineAccounts(ctx, companyId, lines);
  const amounts = lines.map((l, i) => billLineAmounts(l, taxDate, `lines[${i}]`));
  const totals = documentTotals(amounts);
  if (totals.total.isNegative()) throw badRequest('lines', 'the total must not be negative');
  // The columns a bill line and a credit note line store alike, numbered from 1 as given.
  const rows = lines.map((l, i) => ({
    tenant_id: ctx.tenantId,
    id: crypto.randomUUID(),
    line_no: i + 1,
    description: l.description,
    quantity: String(l.quantity),
    unit_price: String(l.unitPrice),
    tax_code: amounts[i]!.billTaxCode,
    vat_rate: amounts[i]!.vatRate.toFixed(3),
    account_id: accounts[i]!,
    net_amount: toSql(amounts[i]!.net),
    vat_amount: toSql(amounts[i]!.vat),
    total_amount: toSql(amounts[i]!.total),
  }));
  return { amounts, totals, rows };
}

/** The account a line posts to: an active expense or asset account, not a control account. */
async function lineAccounts(ctx: BillsCtx, companyId: string, lines: TaxedLineInput[]) {
  const asked = [...new Set(lines.map((l) => l.accountId).filter((a): a is string => Boolean(a)))];
  const found = asked.length
    ? await ctx.db
        .selectFrom('accounts')
        .select(['id', 'type', 'is_active', 'is_control', 'name'])
        .where('tenant_id', '=', ctx.tenantId)
        .where('company_id', '=', companyId)
        .where('id', 'in', asked)
        .execute()
    : [];
  let fallback: string | undefined;
  const out: string[] = [];
  for (const [i, l] of lines.entries()) {
    if (!l.accountId) {
      // General expenses (6750): the chart's catch-all expense account; a bill line that names no
      // account is an expense until the bookkeeper says otherwise.
      fallback ??= await systemAccount(ctx, companyId, 'general_expenses');
      out.push(fallback);
      continue;
    }
    const a = found.find((f) => f.id === l.accountId);
    const field = `lines[${i}].accountId`;
    if (!a) throw badRequest(field, 'no such account in this company');
    if (a.type !== 'expense' && a.type !== 'asset')
      throw badRequest(field, `${a.name} is not an expense or asset account`);
    if (a.is_control) throw badRequest(field, `${a.name} is a control account`);
    if (!a.is_active) throw badRequest(field, `${a.name} is deactivated`);
    out.push(a.id);
  }
  return out;
}

/**
 * The supplier's live document of `table` (a bill, or a credit note) numbered `number` (trimmed, any
 * case, void and deleted ones not counted), if any. Two creates of the same number take turns
 * (an advisory lock held to commit); a unique index stands behind it whatever happens.
 */
export async function supplierNumberTaken(
  ctx: BillsCtx,
  table: 'bills' | 'bill_credit_notes',
  where: { companyId: string; contactId: string; number: string },
): Promise<{ id: string; number: string } | undefined> {
  const key = where.number.trim().toLowerCase();
  const column = table === 'bills' ? 'bill_number' : 'credit_note_number';
  await sql`select pg_advisory_xact_lock(hashtext(${`${table}:${where.companyId}:${where.contactId}:${key}`}))`.execute(
    ctx.db,
  );
  const r = await sql<{ id: string; number: string }>`
    select id, ${sql.ref(column)} as number from ${sql.table(table)}
     where tenant_id = ${ctx.tenantId} and company_id = ${where.companyId} and contact_id = ${where.contactId}
       and status <> 'void' and ${sql.raw(table === 'bills' ? 'deleted_at is null' : 'true')}
       and lower(btrim(${sql.ref(column)})) = ${key}
     limit 1`.execute(ctx.db);
  return r.rows[0];
}

/** 409 DUPLICATE_BILL_NUMBER naming the supplier's live bill with this number, if any. */
async function assertNewNumber(ctx: BillsCtx, companyId: string, contactId: string, billNumber: string) {
  const existing = await supplierNumberTaken(ctx, 'bills', { companyId, contactId, number: billNumber });
  if (existing)
    throw conflict(
      `This supplier's bill ${existing.number} is already captured (bill ${existing.id}); a supplier ` +
        'invoice captured twice is paid twice',
      { code: 'DUPLICATE_BILL_NUMBER', existingBillId: existing.id, existingBillNumber: existing.number },
    );
}

/** POST /api/bills: 201 with the new draft, 200 with the one a repeated clientId made. */
export async function createBill(ctx: TenantCtx, input: Static<typeof BillCreate>): Promise<BillRecord> {
  const { bill, created } = await insertBill(ctx, input);
  ctx.reply.code(created ? 201 : 200);
  return bill;
}

/** A recurring bill's run: the template and the run date it was made for (one bill per run). */
export interface BillRun {
  fromId: string;
  period: string;
}

/**
 * Creates a bill (a draft, or awaiting approval when a recurring run makes it), or answers the
 * one a repeated clientId made (`created` false). A recurring bill's first run is planned in the
 * same transaction.
 */
export async function insertBill(
  ctx: BillsCtx,
  input: Static<typeof BillCreate>,
  run?: BillRun,
): Promise<{ bill: BillRecord; created: boolean }> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'bills',
    owner: ['company_id', companyId],
  });
  if (replay) {
    const existing = await findBillRow(ctx.db, ctx.tenantId, companyId, id, { includeDeleted: true });
    return { bill: await recordOf(ctx, existing!), created: false };
  }
  if (input.dueDate < input.issueDate) throw badRequest('dueDate', 'must not be before issueDate');
  if (input.endDate && input.nextDate && input.endDate < input.nextDate)
    throw badRequest('endDate', 'must not be before nextDate');
  if (input.recurring && !input.frequency)
    throw badRequest('frequency', 'a recurring bill needs a frequency');
  if (input.recurring && !input.nextDate)
    throw badRequest('nextDate', 'a recurring bill needs the date of its next bill');
  if (input.recurring && input.nextDate && input.nextDate <= input.issueDate)
    throw badRequest('nextDate', 'must be after issueDate (this bill is the first)');
  const supplier = await supplierOf(ctx, input.contactId);
  const {
    totals,
    rows: lineRows,
    orderId,
    order,
  } = await billLineRows(ctx, companyId, { id, ...input }, input.lines);
  const vatRegistered = await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.issueDate);
  // The tax invoice rule matters only where input tax is claimed.
  const claim = vatRegistered
    ? taxInvoiceCheck({
        total: totals.total,
        vatTotal: totals.vatTotal,
        vatNumber: input.supplierVatNumber ?? supplier.vat_number,
      })
    : { vatNumber: input.supplierVatNumber?.trim() || supplier.vat_number, warning: null };
  await assertNewNumber(ctx, companyId, input.contactId, input.billNumber);
  if (input.costCentreId)
    await assertCostCentre(ctx.db, ctx.tenantId, companyId, input.costCentreId, 'costCentreId');
  const row = await ctx.db
    .insertInto('bills')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: input.contactId,
      bill_number: input.billNumber.trim(),
      status: run ? 'awaiting_approval' : 'draft',
      issue_date: input.issueDate,
      due_date: input.dueDate,
      currency: input.currency ?? 'ZAR',
      reference: input.reference ?? null,
      notes: input.notes ?? null,
      category: input.category ?? null,
      supplier_vat_number: claim.vatNumber,
      vat_warning: claim.warning,
      vat_registered: vatRegistered,
      subtotal: toSql(totals.subtotal),
      vat_total: toSql(totals.vatTotal),
      total: toSql(totals.total),
      cost_centre_id: input.costCentreId ?? null,
      purchase_order_id: orderId,
      // The order's own number when one is named (what the bill is matched against).
      purchase_order_number: order ? order.number : (input.purchaseOrderNumber ?? null),
      recurring: input.recurring ?? false,
      frequency: input.frequency ?? null,
      next_date: input.nextDate ?? null,
      end_date: input.endDate ?? null,
      recurrence_active: input.recurring ? (input.recurrenceActive ?? true) : false,
      recurrence_anchor: input.recurring ? (input.nextDate ?? null) : null,
      recurring_from_id: run?.fromId ?? null,
      recurring_period: run?.period ?? null,
      submitted_at: run ? ctx.deps.now() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('bill_lines').values(lineRows).execute();
  await closeOrder(ctx, orderId);
  await planNextBill(ctx.deps, ctx.db, row);
  const held = orderId ? await receiptMismatch(ctx, orderId, id) : null;
  const stored = held
    ? await ctx.db
        .updateTable('bills')
        .set({ receipt_mismatch: held })
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : row;
  return { bill: await recordOf(ctx, stored), created: true };
}

type BillSortKey = (typeof BILL_SORT_KEYS)[number];
const SORT_COLUMNS = {
  date: ['issue_date', 'created_at'],
  number: ['bill_number'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<BillSortKey, readonly string[]>;

export async function listBills(
  ctx: TenantCtx,
  query: Static<typeof BillListQuery>,
): Promise<Page<BillRecord>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  const p = paging(query);
  const order = sortOrder<BillSortKey>(query.sort, BILL_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('bills')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync learns of deleted bills too (deletedAt set); any other list shows live ones.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (query.from) q = q.where('issue_date', '>=', query.from);
  if (query.to) q = q.where('issue_date', '<=', query.to);
  if (query.dueBefore) q = q.where('due_date', '<=', query.dueBefore);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await billRecords(ctx.db, ctx.tenantId, rows), total, p);
}

/** Locks the bill; 404 when it is not the company's live bill. */
export async function lockBill(ctx: WorkCtx, id: string): Promise<BillRow> {
  const row = await findBillRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Bill');
  return row;
}

/** POST /api/bills/{id}/submit: a draft goes for approval. */
export async function submitBill(ctx: TenantCtx, id: string): Promise<BillRecord> {
  const row = await lockBill(ctx, id);
  if (row.status !== 'draft')
    throw conflict(`Only a draft is submitted for approval; this bill is ${row.status}`, {
      code: 'NOT_A_DRAFT',
    });
  const updated = await ctx.db
    .updateTable('bills')
    .set({ status: 'awaiting_approval', submitted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

/** POST /api/bills/{id}/reject: a draft or a bill awaiting approval is refused, with the reason. */
export async function rejectBill(ctx: TenantCtx, id: string, reason: string): Promise<BillRecord> {
  const row = await lockBill(ctx, id);
  if (row.status !== 'awaiting_approval' && row.status !== 'draft')
    throw conflict(`Only a bill awaiting approval is rejected; this one is ${row.status}`, {
      code: 'NOT_AWAITING_APPROVAL',
    });
  const now = ctx.deps.now();
  const updated = await ctx.db
    .updateTable('bills')
    .set({ status: 'rejected', rejection_reason: reason.trim(), rejected_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await reopenOrder(ctx, row.purchase_order_id);
  const bill = await recordOf(ctx, updated);
  const data: Static<typeof BillRejected> = {
    billId: bill.id,
    billNumber: bill.billNumber,
    contactId: bill.contactId,
    vendor: bill.vendor,
    subtotal: bill.subtotal,
    vatAmount: bill.vatAmount,
    amount: bill.amount,
    reason: reason.trim(),
    rejectedAt: now.toISOString(),
  };
  await emit(ctx, 'bill.rejected', data, bill.companyId);
  return bill;
}

/**
 * DELETE /api/bills/{id}: a bill nothing was posted for (draft, awaiting approval, rejected) is
 * marked deleted. An approved bill is not deleted (as Xero: void it, which reverses its entry).
 */
export async function deleteBill(ctx: TenantCtx, id: string): Promise<{ ledgerNotice: string }> {
  const row = await lockBill(ctx, id);
  if (row.entry_id)
    throw conflict(
      `This bill is ${row.status} and posted to the ledger: void it (POST /api/bills/${id}/void), which reverses ` +
        'its entry, instead of deleting it',
      { code: 'BILL_POSTED' },
    );
  await ctx.db
    .updateTable('bills')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  await reopenOrder(ctx, row.purchase_order_id);
  return {
    ledgerNotice: `Bill ${row.bill_number} was ${row.status.replace('_', ' ')} and never posted: nothing in the ledger changed.`,
  };
}

export { today };

/**
 * PATCH /api/bills/{id}: the reference, notes, category, due date and lines of a bill not yet approved;
 * the recurrence of any bill but a void or rejected one (resuming a paused one clears its error and
 * plans its next run; a new nextDate is the series' new anchor).
 */
export async function updateBill(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BillUpdate>,
): Promise<BillRecord> {
  const row = await lockBill(ctx, id);
  const set: Record<string, unknown> = {};
  const header = (['reference', 'notes', 'category', 'dueDate', 'lines'] as const).filter(
    (k) => input[k] !== undefined,
  );
  if (header.length && row.status !== 'draft' && row.status !== 'awaiting_approval')
    throw conflict(`This bill is ${row.status}: its ${header.join(', ')} no longer change`, {
      code: 'NOT_A_DRAFT',
    });
  if (input.dueDate !== undefined) {
    if (input.dueDate < row.issue_date) throw badRequest('dueDate', 'must not be before the issue date');
    set.due_date = input.dueDate;
  }
  if (input.reference !== undefined) set.reference = input.reference;
  if (input.notes !== undefined) set.notes = input.notes;
  if (input.category !== undefined) set.category = input.category;
  // The supplier's invoice as it is: its quantities and prices (bills.lines.ts).
  if (input.lines) Object.assign(set, await replaceBillLines(ctx, row, input.lines));
  const recurs = (['recurring', 'frequency', 'nextDate', 'endDate', 'recurrenceActive'] as const).some(
    (k) => input[k] !== undefined,
  );
  if (recurs) {
    if (row.status === 'void' || row.status === 'rejected')
      throw conflict(`This bill is ${row.status}: it does not recur`, { code: 'CONFLICT' });
    const recurring = input.recurring ?? row.recurring;
    const frequency = input.frequency === undefined ? row.frequency : input.frequency;
    const nextDate = input.nextDate === undefined ? row.next_date : input.nextDate;
    const endDate = input.endDate === undefined ? row.end_date : input.endDate;
    if (recurring && !frequency) throw badRequest('frequency', 'a recurring bill needs a frequency');
    if (recurring && !nextDate)
      throw badRequest('nextDate', 'a recurring bill needs the date of its next bill');
    if (nextDate && nextDate <= row.issue_date) throw badRequest('nextDate', 'must be after issueDate');
    if (endDate && nextDate && endDate < nextDate) throw badRequest('endDate', 'must not be before nextDate');
    const active = recurring
      ? (input.recurrenceActive ?? (input.recurring ? true : row.recurrence_active))
      : false;
    Object.assign(set, {
      recurring,
      frequency,
      next_date: nextDate,
      end_date: endDate,
      recurrence_active: active,
      recurrence_anchor:
        input.nextDate !== undefined || !row.recurrence_anchor ? nextDate : row.recurrence_anchor,
      ...(active ? { recurrence_error: null } : {}),
    });
  }
  const updated = await ctx.db
    .updateTable('bills')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (recurs) await planNextBill(ctx.deps, ctx.db, updated);
  return recordOf(ctx, updated);
}
