// The monthly roll, run by the job worker (MONTHLY_ROLL_CRON, hourly): on or after the first of
// a month, every pending billing aggregate of a month that has ended (month before the current
// one, by deps.now(), UTC) and every pending contact transaction that occurred before the
// current month are put on a draft invoice, one per tenant and contact:
//   * a line per aggregate (its description and month; quantity 1, unit price its amount,
//     standard-rated VAT on top: the amount posted is exclusive, as every price of the API is),
//     oldest month first, then a line per transaction (its description, quantity, unit price,
//     zero-rated when its vatRate is 0, standard otherwise), oldest first;
//   * made by the invoices module's own createDocument (numbered, announced as invoice.created),
//     in the tenant's first live company that is not the sandbox (by creation): the one the
//     tenant was registered with;
//   * dated the day of the roll, due the contact's payment terms later, in the contact's
//     currency;
//   * the rows marked invoiced with the invoice's id in the same transaction, under the same
//     row locks a post to /admin/billing/run-monthly takes: a second run (or a second worker)
//     finds nothing left to bill, so nothing doubles.
// A draft the rules refuse for one contact (the contact deleted since, a currency the company
// cannot invoice in) is undone alone and logged; its rows stay pending, and the others go on.
//
// Finding the tenants with work crosses tenants: as the login role, through the policies
// billing_aggregates_due and contact_transactions_due (migrations/0048_crm.sql), which show only
// pending rows before the month start this transaction sets (app.billing_roll_before).

import { sql } from 'kysely';
import { addDays, dayOf } from '../../platform/dates/days.ts';
import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import { refusable } from '../../platform/schedules/runs.ts';
import { SYSTEM, type WorkCtx } from '../../platform/work/context.ts';
import { createDocument } from '../invoices/index.ts';
import { monthStart } from './run-monthly.service.ts';

export const MONTHLY_ROLL_QUEUE = 'billing-monthly-roll';
/** Every hour at 5 past: the first run of a month bills the month before. */
export const MONTHLY_ROLL_CRON = '5 * * * *';

export interface RollResult {
  /** Draft invoices made, by tenant. */
  invoices: { tenantId: string; contactId: string; invoiceId: string }[];
  /** Contacts whose draft the rules refused (their rows stay pending, billed by a later run). */
  refused: { tenantId: string; contactId: string; reason: string }[];
  /** Tenants whose roll threw (the database away): nothing of theirs changed. */
  errors: { tenantId: string; message: string }[];
}

/** The tenants with something to bill before `before` (YYYY-MM-01). */
async function tenantsWithWork(deps: AppDeps, before: string): Promise<string[]> {
  return deps.database.db.transaction().execute(async (tx) => {
    // An instant, 00:00 UTC: the same whatever the session's time zone.
    const instant = `${before}T00:00:00Z`;
    await sql`select set_config('app.billing_roll_before', ${instant}, true)`.execute(tx);
    const rows = await sql<{ tenant_id: string }>`
      select tenant_id from billing_aggregates where status = 'pending' and month < ${before}::date
      union
      select tenant_id from contact_transactions
       where status = 'pending' and occurred_at < ${instant}::timestamptz`.execute(tx);
    return rows.rows.map((r) => r.tenant_id);
  });
}

export function rollMonthly(deps: AppDeps) {
  return async (): Promise<RollResult> => {
    const before = monthStart(deps.now());
    const result: RollResult = { invoices: [], refused: [], errors: [] };
    // Each tenant in its own transaction: one tenant's failure never holds or undoes another's.
    for (const tenantId of await tenantsWithWork(deps, before)) {
      const mine: RollResult = { invoices: [], refused: [], errors: [] };
      try {
        await withTenant(deps.database.db, tenantId, (tx) => rollTenant(deps, tx, tenantId, before, mine));
        result.invoices.push(...mine.invoices);
        result.refused.push(...mine.refused);
      } catch (err) {
        result.errors.push({ tenantId, message: (err as Error).message });
      }
    }
    return result;
  };
}

const MONTH_NAMES = new Intl.DateTimeFormat('en-ZA', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "Platform usage (March 2026)": the month a line bills, on the line. */
function lineText(description: string, month: string): string {
  const named = MONTH_NAMES.format(new Date(`${month.slice(0, 10)}T00:00:00Z`));
  return `${description} (${named})`.slice(0, 1000);
}

async function rollTenant(deps: AppDeps, tx: Tx, tenantId: string, before: string, result: RollResult) {
  const company = await tx
    .selectFrom('companies')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_sandbox', '=', false)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (!company) return;
  // Locked as run-monthly locks them: a post for an ended month waits for the roll, then sees it.
  const aggregates = await tx
    .selectFrom('billing_aggregates')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'pending')
    .where('month', '<', before)
    .orderBy('contact_id')
    .orderBy('month')
    .forUpdate()
    .execute();
  const usage = await tx
    .selectFrom('contact_transactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'pending')
    .where('occurred_at', '<', new Date(`${before}T00:00:00Z`))
    .orderBy('contact_id')
    .orderBy('occurred_at')
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  const contacts = [...new Set([...aggregates.map((a) => a.contact_id), ...usage.map((u) => u.contact_id)])];
  const ctx: WorkCtx = { db: tx, tenantId, companyId: company.id, deps, principal: SYSTEM };
  const today = dayOf(deps.now());
  for (const contactId of contacts) {
    const mine = aggregates.filter((a) => a.contact_id === contactId);
    const used = usage.filter((u) => u.contact_id === contactId);
    const contact = await tx
      .selectFrom('contacts')
      .select(['currency', 'payment_terms'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', contactId)
      .executeTakeFirstOrThrow();
    let invoiceId = '';
    const made = await refusable(ctx, 'monthly_roll', async () => {
      const { invoice } = await createDocument(ctx, {
        contactId,
        documentType: 'invoice',
        issueDate: today,
        dueDate: addDays(today, contact.payment_terms),
        currency: contact.currency,
        paymentTermsDays: contact.payment_terms,
        reference: 'Monthly billing',
        lines: [
          ...mine.map((a) => ({
            description: lineText(a.description, a.month),
            quantity: 1,
            unitPrice: Number(a.amount),
            taxCode: 'standard' as const,
          })),
          ...used.map((u) => ({
            description: u.description,
            quantity: Number(u.quantity),
            unitPrice: Number(u.unit_price),
            taxCode: Number(u.vat_rate) === 0 ? ('zero' as const) : ('standard' as const),
          })),
        ],
      });
      invoiceId = invoice.id;
    });
    if (made !== true) {
      result.refused.push({ tenantId, contactId, reason: made });
      continue;
    }
    const marks = { status: 'invoiced' as const, invoice_id: invoiceId, invoice_company_id: company.id };
    if (mine.length)
      await tx
        .updateTable('billing_aggregates')
        .set({ ...marks, invoiced_at: deps.now() })
        .where('tenant_id', '=', tenantId)
        .where(
          'id',
          'in',
          mine.map((a) => a.id),
        )
        .execute();
    if (used.length)
      await tx
        .updateTable('contact_transactions')
        .set({ ...marks, invoiced_at: deps.now() })
        .where('tenant_id', '=', tenantId)
        .where(
          'id',
          'in',
          used.map((u) => u.id),
        )
        .execute();
    result.invoices.push({ tenantId, contactId, invoiceId });
  }
}
