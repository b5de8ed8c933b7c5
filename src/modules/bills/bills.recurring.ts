// Recurring bills (rent, a service contract): a bill with `recurring` set is its own template.
// As recurring invoices are (invoices/recurring.run.ts), it has at most one job waiting, for its
// next run date, enqueued in the transaction that created it or made the previous run's bill. A
// run, in one tenant transaction with the template locked:
//   * does nothing when the template is gone, void, rejected, paused, ended, or its next date is no
//     longer the job's (changed since, or that run made already: a retry, a second worker);
//   * otherwise makes the run's bill: the template's supplier, lines, codes and accounts, dated the
//     run date, due as many days later as the template was, numbered `<template's number>-<date>`
//     (the supplier's own number is not known yet: change it when its invoice comes), waiting for
//     approval (nothing posts until a person approves it); one bill per run (a unique index);
//   * moves next_date on by the frequency (from the first run date, the anchor) and plans the next.
// A run the rules refuse (the supplier deleted, an account deactivated) makes nothing: the template
// is paused with the reason (recurrenceError) until someone resumes it.
import { addDays, dayOf } from '../../platform/dates/days.ts';

import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import { money } from '../../platform/money/money.ts';
import { type Frequency, runAfter } from '../../platform/schedules/recurring-dates.ts';
import { RECURRING_JOB_OPTIONS, refusable, runMoment } from '../../platform/schedules/runs.ts';
import { type BillRow, billLines, findBillRow } from './bills.queries.ts';
import { type BillsCtx, insertBill } from './bills.service.ts';
import type { BillTaxCode } from './bills.vat.ts';

export const RECURRING_BILL_QUEUE = 'recurring-bill';
/** The recurring invoices' job options: one job per template and run, retried, kept a year. */
export const RECURRING_BILL_JOB_OPTIONS = RECURRING_JOB_OPTIONS;

export interface RecurringBillJob {
  tenantId: string;
  companyId: string;
  billId: string;
  /** The run date (the new bill's issue date). */
  period: string;
}

const ended = (row: BillRow) =>
  row.end_date !== null && row.next_date !== null && row.next_date > row.end_date;

/** Enqueues the template's next run in the caller's transaction, if it will run. */
export async function planNextBill(deps: AppDeps, tx: Tx, row: BillRow): Promise<void> {
  if (!row.recurring || !row.recurrence_active || row.deleted_at || !row.next_date || ended(row)) return;
  if (row.status === 'void' || row.status === 'rejected') return;
  const job: RecurringBillJob = {
    tenantId: row.tenant_id,
    companyId: row.company_id,
    billId: row.id,
    period: row.next_date,
  };
  await deps.jobs.sendInTx(tx, RECURRING_BILL_QUEUE, job, {
    startAfter: runMoment(row.next_date),
    singletonKey: `${row.tenant_id}:${row.id}:${row.next_date}`,
  });
}

/** The job handler of RECURRING_BILL_QUEUE. */
export function runRecurringBills(deps: AppDeps) {
  return async (job: JobContext<RecurringBillJob>): Promise<void> => {
    await withTenant(deps.database.db, job.data.tenantId, (tx) => runBill(deps, tx, job.data));
  };
}

async function runBill(deps: AppDeps, tx: Tx, job: RecurringBillJob): Promise<void> {
  const ctx: BillsCtx = { db: tx, tenantId: job.tenantId, companyId: job.companyId, deps };
  const row = await findBillRow(tx, job.tenantId, job.companyId, job.billId, { lock: true });
  if (!row?.recurring || !row.recurrence_active || row.next_date !== job.period || ended(row)) return;
  if (row.status === 'void' || row.status === 'rejected') return;
  const today = dayOf(deps.now());
  // Before its day by this process's clock (clocks apart): thrown, so retried later.
  if (job.period > today) throw new Error(`the run for ${job.period} came on ${today}`);
  const made = await tx
    .selectFrom('bills')
    .select('id')
    .where('tenant_id', '=', job.tenantId)
    .where('recurring_from_id', '=', row.id)
    .where('recurring_period', '=', job.period)
    .executeTakeFirst();
  const outcome = made ? true : await refusable(ctx, 'recurring_bill', () => makeRun(ctx, row, job.period));
  const next = await tx
    .updateTable('bills')
    .set(
      outcome === true
        ? {
            next_date: runAfter(
              { anchor: row.recurrence_anchor!, frequency: row.frequency as Frequency, interval: 1 },
              job.period,
            ),
            recurrence_error: null,
          }
        : {
            recurrence_active: false,
            recurrence_error: `The bill for ${job.period} was not made: ${outcome}`,
          },
    )
    .where('tenant_id', '=', job.tenantId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await planNextBill(deps, tx, next);
}

/** The run's bill, from the template's header and lines. */
async function makeRun(ctx: BillsCtx, row: BillRow, period: string): Promise<void> {
  const lines = (await billLines(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const termDays = Math.round((Date.parse(row.due_date) - Date.parse(row.issue_date)) / 86_400_000);
  await insertBill(
    ctx,
    {
      contactId: row.contact_id,
      billNumber: `${row.bill_number}-${period}`,
      issueDate: period,
      dueDate: addDays(period, termDays),
      currency: row.currency,
      ...(row.reference ? { reference: row.reference } : {}),
      ...(row.notes ? { notes: row.notes } : {}),
      ...(row.category ? { category: row.category } : {}),
      ...(row.supplier_vat_number ? { supplierVatNumber: row.supplier_vat_number } : {}),
      costCentreId: row.cost_centre_id,
      lines: lines.map((l) => ({
        description: l.description,
        quantity: money(l.quantity).toNumber(),
        unitPrice: money(l.unit_price).toNumber(),
        taxCode: l.tax_code as BillTaxCode,
        accountId: l.account_id,
        costCentreId: l.cost_centre_id,
        productId: l.product_id,
        variantId: l.variant_id,
      })),
    },
    { fromId: row.id, period },
  );
}
