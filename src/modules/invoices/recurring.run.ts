// Recurring schedules run by the job worker. Each schedule has at most one job waiting: the one
// for its next run date (pg-boss `startAfter` = that day, 00:00 UTC), enqueued in the transaction
// that created the schedule, changed its dates, or made the previous period's document. A run, in
// one tenant transaction with the schedule row locked:
//   * does nothing when the schedule is gone, paused, ended, or its next date is no longer the
//     job's period (changed since, or that period already made: a retry, a second job, a second
//     worker);
//   * otherwise makes the period's document (released when autoRelease, then e-mailed to the
//     customer with its PDF when autoSend: the message is stored and its send job queued in
//     this same transaction, so each document is sent once, when and only when it is made) with
//     recurring_id and recurring_period set (a unique index: one document per period, whatever
//     races), moves next_date on by the frequency, and enqueues the job for the new next date.
// A worker that was down catches up: the next job's date has passed, so it runs at once, and
// every missed period is made, once each, in order.
import { addDays, dayOf } from '../../platform/dates/days.ts';

import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import { HttpError } from '../../platform/http/problem.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import { runAfter } from '../../platform/schedules/recurring-dates.ts';
import { refusable, runMoment } from '../../platform/schedules/runs.ts';
import { SYSTEM, type WorkCtx } from '../../platform/work/context.ts';
import { sendDocument } from './document-send.ts';
import { createDocument } from './invoices.service.ts';
import {
  findSchedule,
  hasEnded,
  lineInputOf,
  type RecurringRow,
  seriesOf,
  templateLines,
} from './recurring.queries.ts';
import { releaseInvoice } from './release.ts';
import { findTemplate } from './settings.queries.ts';

export const RECURRING_QUEUE = 'recurring-invoice';

export interface RecurringJob {
  tenantId: string;
  recurringId: string;
  /** The run date (the document's issue date) this job is for. */
  period: string;
}

/** Enqueues the job for the schedule's next run in the caller's transaction, if it will run. */
export async function planNextRun(deps: AppDeps, tx: Tx, row: RecurringRow): Promise<void> {
  if (!row.active || row.deleted_at || hasEnded(row)) return;
  const job: RecurringJob = { tenantId: row.tenant_id, recurringId: row.id, period: row.next_date };
  await deps.jobs.sendInTx(tx, RECURRING_QUEUE, job, {
    startAfter: runMoment(row.next_date),
    singletonKey: `${row.tenant_id}:${row.id}:${row.next_date}`,
  });
}

/** A run that came before its day by this process's clock (clocks apart): retried later. */
class NotDueYet extends Error {}

/** The job handler of RECURRING_QUEUE. */
export function runRecurring(deps: AppDeps) {
  return async (job: JobContext<RecurringJob>): Promise<void> => {
    const { tenantId, recurringId, period } = job.data;
    try {
      await withTenant(deps.database.db, tenantId, (tx) => runPeriod(deps, tx, job.data));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A rule refused the document (the customer deleted, an account deactivated): running
      // again would meet it again. Nothing was made; the schedule is paused with the reason and
      // waits for a person (resume with nextDate to make the period after all).
      await withTenant(deps.database.db, tenantId, async (tx) => {
        const row = await findSchedule(tx, tenantId, recurringId, { lock: true });
        if (row?.next_date !== period) return;
        await tx
          .updateTable('recurring_invoices')
          .set({
            active: false,
            last_error: `The document for ${period} was not made: ${err.message}`,
          })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', recurringId)
          .execute();
      });
    }
  };
}

async function runPeriod(deps: AppDeps, tx: Tx, job: RecurringJob): Promise<void> {
  const row = await findSchedule(tx, job.tenantId, job.recurringId, { lock: true });
  // Gone, paused, ended, changed since, or this period made already: nothing to do.
  if (!row?.active || hasEnded(row) || row.next_date !== job.period) return;
  const today = dayOf(deps.now());
  if (job.period > today) throw new NotDueYet(`the run for ${job.period} came on ${today}`);
  const ctx: WorkCtx = {
    db: tx,
    tenantId: job.tenantId,
    companyId: row.company_id,
    deps,
    principal: SYSTEM,
  };
  const made = await tx
    .selectFrom('invoices')
    .select('id')
    .where('tenant_id', '=', job.tenantId)
    .where('recurring_id', '=', row.id)
    .where('recurring_period', '=', job.period)
    .executeTakeFirst();
  const problem = made ? null : await generate(ctx, row, job.period);
  const next = await tx
    .updateTable('recurring_invoices')
    .set({
      next_date: runAfter(seriesOf(row), job.period),
      last_run_date: job.period,
      last_error: problem,
    })
    .where('tenant_id', '=', job.tenantId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await planNextRun(deps, tx, next);
}

/**
 * Makes the period's document; with autoRelease, releases it too, and with autoSend e-mails it. A
 * release the rules refuse (the period locked) leaves the document a draft, and a send they refuse
 * (the customer has no e-mail address now) leaves it unsent: both answer why (lastError), and the
 * schedule goes on; anything else is thrown.
 */
async function generate(ctx: WorkCtx, row: RecurringRow, period: string): Promise<string | null> {
  const lines = (await templateLines(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  // A template deleted since is not named: the document takes the default look.
  const template =
    row.template_id && (await findTemplate(ctx.db, ctx.tenantId, row.company_id, row.template_id))
      ? row.template_id
      : null;
  const { invoice } = await createDocument(
    ctx,
    {
      contactId: row.contact_id,
      documentType: row.document_type,
      issueDate: period,
      dueDate: addDays(period, row.payment_terms_days),
      currency: row.currency,
      paymentTermsDays: row.payment_terms_days,
      ...(row.terms === null ? {} : { terms: row.terms }),
      ...(row.reference === null ? {} : { reference: row.reference }),
      ...(row.notes === null ? {} : { notes: row.notes }),
      ...(template === null ? {} : { templateId: template }),
      lines: lines.map(lineInputOf),
    },
    { recurringId: row.id, period },
  );
  if (!row.auto_release)
    return row.auto_send
      ? `${invoice.number} was not e-mailed: a draft is not sent (autoRelease is off)`
      : null;
  const released = await refusable(ctx, 'recurring_release', () => releaseInvoice(ctx, invoice.id));
  if (released !== true)
    return `${invoice.number} was left a draft${row.auto_send ? ' and not e-mailed' : ''}: ${released}`;
  if (!row.auto_send) return null;
  // To the customer's address, as POST /api/invoices/{id}/send without `to` would.
  const sent = await refusable(ctx, 'recurring_send', () => sendDocument(ctx, invoice.id, {}));
  return sent === true ? null : `${invoice.number} was not e-mailed: ${sent}`;
}
