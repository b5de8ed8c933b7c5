// Every request's queries run in one transaction as the bp_app role, with app.tenant_id
// set for row-level security. The WHERE tenant_id = ... in each query is the first wall;
// the policies are the second.
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/** A tenant transaction: one connection, BEGIN issued, role and tenant set. */
export type Tx = Kysely<DB>;

export const APP_ROLE = 'bp_app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** What runs once a tenant transaction has committed (see afterCommit), per transaction. */
const committedHooks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `fn` once `tx` has committed (never if it rolls back). Outside a tenant transaction (autocommit), soon. `fn` must not throw: it is a
 * signal (the events dispatcher's kick), not part of the write.
 */
export function afterCommit(tx: Tx, fn: () => void): void {
  const hooks = committedHooks.get(tx);
  if (!hooks) setImmediate(fn);
  else hooks.push(fn);
}

/** Hands a statement to send with COMMIT, after everything `fn` sent (see inTransaction). */
export type AtCommit = (statement: CompiledQuery) => void;

/**
 * Runs `fn` in one transaction as bp_app with app.tenant_id = tenant ('' for none).
 * BEGIN, the two settings and an optional first query travel as one simple-protocol
 * script: one round trip where there would be three. Everything inlined in the script
 * must be a checked UUID or SQL written here, never caller text.
 *
 * Statements `fn` hands to `atCommit` (the request's audit entry) go with COMMIT, in its round
 * trip (COMMIT_WITH): one round trip less for every audited write, and less time holding the
 * locks the transaction took. If one fails, nothing is committed.
 */
async function inTransaction<T, R>(
  db: Kysely<DB>,
  tenant: string,
  firstQuery: string | undefined,
  fn: (tx: Tx, firstRows: R[], atCommit: AtCommit) => Promise<T>,
  readOnly = false,
): Promise<T> {
  if (tenant !== '' && !UUID.test(tenant)) throw new Error('withTenant needs a tenant UUID');
  return db.connection().execute(async (conn) => {
    const opened = await sql
      .raw<R>(`begin; ${settings(tenant, readOnly)}${firstQuery ? `; ${firstQuery}` : ''}`)
      .execute(conn);
    const closing: CompiledQuery[] = [];
    // A failed rollback (a broken connection) must not hide the error that caused it.
    const rollback = () =>
      sql
        .raw('rollback')
        .execute(conn)
        .catch(() => {});
    const hooks: Array<() => void> = [];
    committedHooks.set(conn, hooks);
    let result: T;
    try {
      result = await fn(conn, firstQuery ? opened.rows : [], (statement) => closing.push(statement));
    } catch (err) {
      committedHooks.delete(conn);
      await rollback();
      throw err;
    }
    committedHooks.delete(conn);
    let committed: { rows: Array<{ command?: string }> };
    try {
      committed = closing.length
        ? await conn.executeQuery<{ command?: string }>(CompiledQuery.raw(COMMIT_WITH, [closing]))
        : await sql.raw<{ command?: string }>('commit').execute(conn);
    } catch (err) {
      // A statement sent with COMMIT failed: COMMIT was not run, the transaction is open.
      await rollback();
      throw err;
    }
    // COMMIT of a transaction in which a statement failed (and the error was swallowed)
    // rolls back; answering success then would lose the write (a read-only one has none).
    if (!readOnly && committed.rows[0]?.command === 'ROLLBACK')
      throw new Error('Unable to commit: the transaction had failed');
    for (const hook of hooks) hook();
    return result;
  });
}

/** One transaction as bp_app with the tenant set; everything in `fn` is that tenant's view. */
export function withTenant<T>(db: Kysely<DB>, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, tenantId, undefined, fn);
}

/**
 * withTenant whose first query rides in the opening round trip (the request's principal).
 * `firstQuery` must be built from checked UUIDs only.
 */
export function withTenantOpening<R, T>(
  db: Kysely<DB>,
  tenantId: string,
  firstQuery: string,
  fn: (tx: Tx, firstRows: R[], atCommit: AtCommit) => Promise<T>,
): Promise<T> {
  return inTransaction(db, tenantId, firstQuery, fn);
}

/**
 * A read-only route's queries as the tenant; on PostgreSQL (`pipelined`) with no BEGIN, no
 * COMMIT, and the opening riding with the route's first query: one round trip for a route
 * that reads once, where a transaction takes three.
 *
 * Under READ COMMITTED every statement reads its own snapshot anyway, so what a transaction
 * gives a read is only the scope of the tenant, role and read-only settings. So each query
 * carries the settings itself: it goes out as one extended-protocol batch, the settings, then
 * (the first time) `opening`, then the query, ended by one Sync: one implicit transaction, so
 * the settings last exactly as long as the query (TenantReadQuery in connect.ts).
 *
 * `check` gets the opening's rows (the principal) and throws to refuse the request. It runs
 * before the first query's rows reach `fn` (what it throws, that query throws), and always
 * before this returns: when `fn` made no query, or its first one failed, the opening goes
 * alone at the end. Its refusal wins over whatever `fn` did, so nothing is answered to a
 * caller the checks refuse, and refusals keep their order (401 before a handler's 400).
 *
 * Elsewhere (PGlite: one connection, in-process) it is one transaction: the opening with
 * BEGIN, `check`, then `fn`. Either way the settings include transaction_read_only: a read
 * route that tried to write (or lock a row) would fail, not commit half a change.
 */
export async function withTenantReading<R, T>(
  db: Kysely<DB>,
  pipelined: boolean,
  tenantId: string,
  opening: string,
  check: (rows: R[]) => Promise<void>,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (!pipelined) {
    return inTransaction<T, R>(
      db,
      tenantId,
      opening,
      async (tx, rows) => {
        await check(rows);
        return fn(tx);
      },
      true,
    );
  }
  if (!UUID.test(tenantId)) throw new Error('withTenantReading needs a tenant UUID');
  return db.connection().execute(async (conn) => {
    let verdict: Promise<void> | undefined;
    const mode: TenantReadMode = {
      settings: settings(tenantId, true),
      opening,
      onOpening: (rows) => {
        verdict = check(rows as R[]);
        return verdict;
      },
    };
    await conn.executeQuery(CompiledQuery.raw(TENANT_READ_MODE, [mode]));
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await fn(conn) };
    } catch (error) {
      outcome = { error };
    }
    if (!verdict) {
      mode.opening = undefined;
      const alone = await sql.raw<R>(opening).execute(conn);
      await check(alone.rows);
    } else await verdict;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  });
}

/**
 * COMMIT, with statements to send before it in the same round trip: a query the connection's
 * client (connect.ts; the PGlite dialect) recognises by this text, whose one parameter is
 * those statements (CompiledQuery[]). Answers COMMIT's result.
 */
export const COMMIT_WITH = '-- commit with';

/**
 * Tenant-read mode, handed to the connection's client (connect.ts) as the one parameter of a
 * query it recognises by this text and does not send. It lasts until the client goes back to
 * the pool.
 */
export const TENANT_READ_MODE = '-- tenant read mode';

export interface TenantReadMode {
  /** The settings statement every query carries. */
  settings: string;
  /** Rides with the next query, in its batch; the client clears it once sent. */
  opening: string | undefined;
  /** Sees the opening's rows before the query's own are handed over; its rejection is the query's. */
  onOpening: (rows: unknown[]) => Promise<void>;
}

/** The tenant and role for row-level security, transaction-local; `tenant` is a checked UUID or ''. */
function settings(tenant: string, readOnly: boolean): string {
  return (
    `select set_config('app.tenant_id', '${tenant}', true), set_config('role', '${APP_ROLE}', true)` +
    (readOnly ? `, set_config('transaction_read_only', 'on', true)` : '')
  );
}

/**
 * One transaction as bp_app with no tenant: row-level security hides every tenant row.
 * For the few steps that come before a tenant is known (the sign-in directory).
 */
export function withoutTenant<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, '', undefined, fn);
}

/**
 * Start-up check: refuse to serve requests if the role they run as is a superuser or
 * bypasses row-level security.
 */
export async function assertRequestRoleIsConfined(db: Kysely<DB>): Promise<void> {
  const row = await withoutTenant(db, async (tx) => {
    const r = await sql<{
      rolname: string;
      rolsuper: boolean;
      rolbypassrls: boolean;
    }>`select rolname, rolsuper, rolbypassrls from pg_roles where rolname = current_user`.execute(tx);
    return r.rows[0];
  });
  if (!row) throw new Error('The request role could not be found in pg_roles');
  if (row.rolsuper || row.rolbypassrls) {
    throw new Error(
      `Refusing to serve: requests would run as "${row.rolname}", which is a superuser or bypasses row-level security`,
    );
  }
}
