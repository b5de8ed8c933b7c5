// What bp_app may do in pg-boss's schema: exactly what sending a job in a request's
// transaction needs, and nothing that reads or changes another tenant's jobs.
// INSERT into the job table, SELECT of the id it answers (RETURNING id), SELECT on the
// queue list the insert joins (names and settings, no tenant data), USAGE of the schema.
// No SELECT on job data, no UPDATE, no DELETE: the job table has no row-level security,
// so bp_app must not be able to read it.
import type { Db } from 'pg-boss';

export const JOB_SCHEMA = 'pgboss';
const GRANT_LOCK = 727_002; // concurrent GRANTs on one object fail ("tuple concurrently updated")

/** `testClock`: a pg-boss TestClock replaced job_now() with a read of its table; let bp_app read it. */
export async function grantSending(db: Db, testClock = false): Promise<void> {
  await db.executeSql(`
    begin;
    select pg_advisory_xact_lock(${GRANT_LOCK});
    grant usage on schema ${JOB_SCHEMA} to bp_app;
    grant select on ${JOB_SCHEMA}.queue to bp_app;
    grant insert on ${JOB_SCHEMA}.job, ${JOB_SCHEMA}.job_common to bp_app;
    grant select (id, start_after) on ${JOB_SCHEMA}.job, ${JOB_SCHEMA}.job_common to bp_app;
    ${testClock ? `grant select on ${JOB_SCHEMA}.__pgboss_test_clock to bp_app;` : ''}
    commit;
  `);
}
