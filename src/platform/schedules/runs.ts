// What every recurring schedule's job shares (recurring invoices, recurring bills): when a
// period's job may run, how it is queued and retried, and a document step that a business rule
// may refuse without failing the run (the run notes the refusal and goes on).
import { sql } from 'kysely';
import type { Tx } from '../db/tenant.ts';
import { HttpError } from '../http/problem.ts';
import type { RegisterOptions } from '../jobs/jobs.ts';

export const RECURRING_JOB_OPTIONS: RegisterOptions = {
  // One job per schedule and period queued or running: a second send of it answers null.
  policy: 'exclusive',
  // Failures other than a refused document (the database away): 30 s, 1 min, 2 min, ... ~2 h.
  retry: { limit: 8, delaySeconds: 30, backoff: true, maxDelaySeconds: 7200 },
  expireInSeconds: 300,
  // A job waits for a worker that was down for up to a year past its run date (pg-boss's
  // default, 14 days, would drop it and with it the rest of the schedule).
  retentionSeconds: 366 * 86_400,
};

/** The moment a period's job may run: the run date, 00:00 UTC (02:00 in South Africa). */
export function runMoment(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** Runs `fn` in a savepoint: true, or what a rule refused (undone); anything else is thrown. */
export async function refusable(
  ctx: { db: Tx },
  name: string,
  fn: () => Promise<unknown>,
): Promise<true | string> {
  await sql`savepoint ${sql.raw(name)}`.execute(ctx.db);
  try {
    await fn();
    await sql`release savepoint ${sql.raw(name)}`.execute(ctx.db);
    return true;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    await sql`rollback to savepoint ${sql.raw(name)}`.execute(ctx.db);
    return err.message;
  }
}
