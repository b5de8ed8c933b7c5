// SQL of the recurring schedules: reading and locking a schedule, its template lines, and the
// schedules in API shape (lines, contact names and document counts in one query each).
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { Series } from '../../platform/schedules/recurring-dates.ts';
import { contactNames } from './invoices.queries.ts';
import type { LineInput } from './invoices.schemas.ts';
import type { RecurringStatus } from './recurring.schemas.ts';
import type { RecurringInvoiceLinesTable, RecurringInvoicesTable } from './recurring.tables.ts';

export type RecurringRow = Selectable<RecurringInvoicesTable>;
export type RecurringLineRow = Selectable<RecurringInvoiceLinesTable>;

/** A live (not deleted) schedule; `companyId` undefined in a job, which knows the tenant only. */
export function findSchedule(
  tx: Tx,
  tenantId: string,
  id: string,
  opts: { companyId?: string; lock?: boolean } = {},
) {
  let q = tx
    .selectFrom('recurring_invoices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (opts.companyId) q = q.where('company_id', '=', opts.companyId);
  return opts.lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export function seriesOf(row: RecurringRow): Series {
  return { anchor: row.anchor_date, frequency: row.frequency, interval: row.interval_count };
}

/** Past its end date: no more runs (next_date stays, so extending the end date goes on from it). */
export function hasEnded(row: RecurringRow): boolean {
  return row.end_date !== null && row.next_date > row.end_date;
}

export function statusOf(row: RecurringRow): RecurringStatus {
  if (hasEnded(row)) return 'ended';
  return row.active ? 'active' : 'paused';
}

export async function templateLines(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, RecurringLineRow[]>> {
  const out = new Map<string, RecurringLineRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await tx
    .selectFrom('recurring_invoice_lines')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('recurring_id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('recurring_id')
    .orderBy('line_no')
    .execute();
  for (const r of rows) out.get(r.recurring_id)!.push(r);
  return out;
}

/** A template line as the create body of a document takes it. */
export function lineInputOf(l: RecurringLineRow): Static<typeof LineInput> {
  return {
    description: l.description,
    quantity: Number(l.quantity),
    unitPrice: Number(l.unit_price),
    ...(l.discount_rate === null ? {} : { discountRate: Number(l.discount_rate) }),
    ...(l.tax_code === null ? {} : { taxCode: l.tax_code }),
    ...(l.vat_rate === null ? {} : { vatRate: Number(l.vat_rate) }),
    ...(l.account_id === null ? {} : { accountId: l.account_id }),
    ...(l.product_id === null ? {} : { productId: l.product_id }),
    ...(l.variant_id === null ? {} : { variantId: l.variant_id }),
    ...(l.unit === null ? {} : { unit: l.unit }),
    ...(l.batch_code === null ? {} : { batchCode: l.batch_code }),
  };
}

/** Documents each schedule has made (deleted drafts not counted). */
async function documentCounts(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await tx
    .selectFrom('invoices')
    .select(['recurring_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('recurring_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .groupBy('recurring_id')
    .execute();
  return new Map(rows.map((r) => [r.recurring_id!, Number(r.n)]));
}

function toRecurring(row: RecurringRow, lines: RecurringLineRow[], contactName: string, count: number) {
  return {
    id: row.id,
    companyId: row.company_id,
    contactId: row.contact_id,
    contactName,
    documentType: row.document_type,
    frequency: row.frequency,
    interval: row.interval_count,
    startDate: row.start_date,
    nextDate: hasEnded(row) ? null : row.next_date,
    endDate: row.end_date,
    paymentTermsDays: row.payment_terms_days,
    currency: row.currency,
    reference: row.reference,
    terms: row.terms,
    notes: row.notes,
    templateId: row.template_id,
    autoRelease: row.auto_release,
    autoSend: row.auto_send,
    active: row.active,
    status: statusOf(row),
    lastRunDate: row.last_run_date,
    lastError: row.last_error,
    documentCount: count,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      discountRate: l.discount_rate === null ? null : Number(l.discount_rate),
      taxCode: l.tax_code,
      vatRate: l.vat_rate === null ? null : Number(l.vat_rate),
      accountId: l.account_id,
      productId: l.product_id,
      variantId: l.variant_id,
      unit: l.unit,
      batchCode: l.batch_code,
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}

export type Recurring = ReturnType<typeof toRecurring>;

/** Schedules in API shape, in the order of `rows`. */
export async function toRecurrings(tx: Tx, tenantId: string, rows: RecurringRow[]): Promise<Recurring[]> {
  const ids = rows.map((r) => r.id);
  // One after another: a transaction is one connection.
  const lines = await templateLines(tx, tenantId, ids);
  const names = await contactNames(
    tx,
    tenantId,
    rows.map((r) => r.contact_id),
  );
  const counts = await documentCounts(tx, tenantId, ids);
  return rows.map((r) =>
    toRecurring(r, lines.get(r.id)!, names.get(r.contact_id) ?? '', counts.get(r.id) ?? 0),
  );
}
