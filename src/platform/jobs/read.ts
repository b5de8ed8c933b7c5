// The visible state of jobs: one job, and a queue's counts by state. Read fresh from the
// job table (pg-boss's own queue statistics are a cached snapshot).
import type { Db } from 'pg-boss';
import { JOB_SCHEMA } from './grants.ts';

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobStateName = (typeof JOB_STATES)[number];
export type JobCounts = Record<JobStateName, number>;

export interface JobView {
  id: string;
  name: string;
  state: JobStateName;
  /** Runs so far that started (1 after the first run). */
  attempts: number;
  startAfter: Date;
  completedOn: Date | null;
  /** What the last failure said, or what the handler answered. */
  output: unknown;
}

export async function jobState(db: Db, name: string, id: string): Promise<JobView | null> {
  const { rows } = await db.executeSql(
    `select id, name, state, retry_count, started_on, start_after, completed_on, output
       from ${JOB_SCHEMA}.job where name = $1 and id = $2`,
    [name, id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    name: r.name,
    state: r.state,
    attempts: r.started_on ? Number(r.retry_count) + 1 : Number(r.retry_count),
    startAfter: new Date(r.start_after),
    completedOn: r.completed_on ? new Date(r.completed_on) : null,
    output: r.output,
  };
}

export async function jobCounts(db: Db, name: string): Promise<JobCounts> {
  const { rows } = await db.executeSql(
    `select state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job where name = $1 group by state`,
    [name],
  );
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as JobCounts;
  for (const r of rows) counts[r.state as JobStateName] = Number(r.n);
  return counts;
}
