// Every job queue of the service and its handler, registered once per app, as the route
// catalogue is: a process that works (JOBS_WORKER) runs them, every process can send to them.

import { BANK_FEED_SYNC_CRON, BANK_FEED_SYNC_QUEUE, runDueBankFeeds } from './modules/banking/index.ts';
import {
  RECURRING_BILL_JOB_OPTIONS,
  RECURRING_BILL_QUEUE,
  type RecurringBillJob,
  runRecurringBills,
} from './modules/bills/index.ts';
import { RECURRING_QUEUE, type RecurringJob, runRecurring } from './modules/invoices/index.ts';
import {
  GATEWAY_A_ITN_JOB_OPTIONS,
  GATEWAY_A_ITN_QUEUE,
  type GatewayAItnJob,
  runGatewayAItn,
} from './modules/online-payments/gateway-a.itn.ts';
import { MONTHLY_ROLL_CRON, MONTHLY_ROLL_QUEUE, rollMonthly } from './modules/transactions/index.ts';
import { deliverAttempt, RETRY_SCHEDULE } from './platform/events/deliver.ts';
import { DELIVER_QUEUE, type DeliverJob } from './platform/events/deliveries.ts';
import type { AppDeps } from './platform/http/context.ts';
import {
  IDEMPOTENCY_PURGE_CRON,
  IDEMPOTENCY_PURGE_QUEUE,
  purgeIdempotencyKeys,
} from './platform/http/idempotency-key.ts';
import { EMAIL_QUEUE, type EmailJob } from './platform/mail/mailer.ts';
import { EMAIL_RETRY_SCHEDULE, sendEmail } from './platform/mail/send.ts';
import { RECURRING_JOB_OPTIONS } from './platform/schedules/runs.ts';

export async function registerWorkers(deps: AppDeps): Promise<void> {
  await deps.jobs.register<DeliverJob>(DELIVER_QUEUE, deliverAttempt(deps), {
    retry: { schedule: RETRY_SCHEDULE },
    // Deliveries wait on receivers (up to 10 s each), not on this process.
    concurrency: 8,
    expireInSeconds: 60,
    // Workers wake when a delivery is queued (LISTEN/NOTIFY), not at their next poll.
    notify: true,
  });
  await deps.jobs.register<EmailJob>(EMAIL_QUEUE, sendEmail(deps), {
    retry: { schedule: EMAIL_RETRY_SCHEDULE },
    // Sends wait on the mail server, so a slow one holds a few jobs, not the queue.
    concurrency: 4,
    // Well past the mailer's own timeouts (30 s to connect and greet, 60 s of silence).
    expireInSeconds: 300,
  });
  // Recurring invoices: one job per schedule for its next run date (see recurring.run.ts).
  await deps.jobs.register<RecurringJob>(RECURRING_QUEUE, runRecurring(deps), RECURRING_JOB_OPTIONS);
  // Recurring bills: the same, one job per recurring bill for its next run date (bills.recurring.ts).
  await deps.jobs.register<RecurringBillJob>(
    RECURRING_BILL_QUEUE,
    runRecurringBills(deps),
    RECURRING_BILL_JOB_OPTIONS,
  );
  // Gateway A's ITNs: each checked once filed (gateway-a.itn.ts), retried while the gateway's
  // validate endpoint is away.
  await deps.jobs.register<GatewayAItnJob>(
    GATEWAY_A_ITN_QUEUE,
    runGatewayAItn(deps),
    GATEWAY_A_ITN_JOB_OPTIONS,
  );
  // Idempotency keys older than 24 hours, every tenant's, once a day (they count as absent
  // from then on anyway: this only keeps the table small).
  const purge = purgeIdempotencyKeys(deps);
  await deps.jobs.register(
    IDEMPOTENCY_PURGE_QUEUE,
    async () => {
      await purge();
    },
    { cron: IDEMPOTENCY_PURGE_CRON },
  );
  // Bank feeds: every 15 minutes, each due feed synced in its own tenant transaction
  // (bank-feeds.jobs.ts); a sync that threw fails the run, so the worker logs it.
  const syncFeeds = runDueBankFeeds(deps);
  await deps.jobs.register(
    BANK_FEED_SYNC_QUEUE,
    async () => {
      const { errors } = await syncFeeds();
      if (errors.length)
        throw new Error(
          `bank feed syncs failed: ${errors.map((e) => `${e.feedId}: ${e.message}`).join('; ')}`,
        );
    },
    { cron: BANK_FEED_SYNC_CRON },
  );
  // Monthly billing: hourly, so the first run of a month puts the month before on draft
  // invoices (monthly-roll.ts); refusals and failures fail the run, so the worker logs them, and
  // their rows stay pending for the next run.
  const roll = rollMonthly(deps);
  await deps.jobs.register(
    MONTHLY_ROLL_QUEUE,
    async () => {
      const { refused, errors } = await roll();
      const problems = [
        ...refused.map((r) => `${r.tenantId}/${r.contactId}: ${r.reason}`),
        ...errors.map((e) => `${e.tenantId}: ${e.message}`),
      ];
      if (problems.length) throw new Error(`monthly billing left work pending: ${problems.join('; ')}`);
    },
    { cron: MONTHLY_ROLL_CRON },
  );
}
