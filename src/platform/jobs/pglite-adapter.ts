// pg-boss on embedded PGlite, through the same lease as every request.
// pg-boss's own fromPglite talks to the PGlite instance directly. Requests hold that one
// connection from BEGIN to COMMIT (src/platform/db/pglite-dialect.ts), so a poll issued
// meanwhile would run inside a request's transaction, as bp_app, and a `BEGIN; ... COMMIT;`
// maintenance script would commit the request half-way. Here every pg-boss statement
// waits for the lease like any query, holds it for that one statement only, and queues
// behind requests in arrival order (the lease is FIFO): the worker can neither interleave
// with a request nor starve one.
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type { Db } from 'pg-boss';
import type { DB } from '../db/schema.ts';

export function pgliteThroughLease(pglite: PGlite, db: Kysely<DB>): Db {
  let sessionStatements: string[] = [];
  const leased = <T>(fn: () => Promise<T>): Promise<T> => db.connection().execute(fn);

  const run = async (text: string, values?: unknown[]) => {
    try {
      if (values?.length) return { rows: (await pglite.query(text, values)).rows };
      // No parameters: possibly a `BEGIN; ...; COMMIT;` script. Its rows are flattened so a
      // RETURNING in the middle is not lost behind the COMMIT (as pg-boss does for pg).
      const results = await pglite.exec(text);
      return { rows: results.flatMap((r) => r.rows ?? []) };
    } catch (err) {
      // One connection: a script that failed mid-transaction would leave it aborted for
      // the next request. A pool would have discarded the connection; we roll back.
      await pglite.query('rollback').catch(() => {});
      throw err;
    }
  };

  return {
    executeSql: (text, values) => leased(() => run(text, values)),
    // One session for the instance's life: pg-boss's per-session settings (the test
    // clock's opt-in) are applied once. They outlive the worker; harmless, see below.
    async setSessionStatements(statements) {
      sessionStatements = statements;
      for (const s of sessionStatements) await leased(() => run(s));
    },
    // LISTEN through the lease (never inside a request's transaction); notifications reach
    // the one session, the sender's own included, and PGlite hands them to onNotification.
    async listen(channel, onNotification, onReconnect) {
      const quoted = `"${channel.replaceAll('"', '""')}"`;
      const off = pglite.onNotification((ch, payload) => {
        if (ch === channel) onNotification(payload);
      });
      await leased(() => run(`LISTEN ${quoted}`));
      onReconnect();
      return {
        async close() {
          off();
          await leased(() => run(`UNLISTEN ${quoted}`)).catch(() => {});
        },
      };
    },
  };
}
