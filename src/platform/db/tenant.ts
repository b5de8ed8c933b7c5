// Every request's queries run in one transaction as the bp_app role, with app.tenant_id
// set for row-level security. The WHERE tenant_id = ... in each query is the first wall;
// the policies are the second.
import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/** A tenant transaction: one connection, BEGIN issued, role and tenant set. */
export type Tx = Kysely<DB>;

export const APP_ROLE = 'bp_app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Runs `fn` in one transaction as bp_app with app.tenant_id = tenant ('' for none).
 * BEGIN, the two settings and an optional first query travel as one simple-protocol
 * script: one round trip where there would be three. Everything inlined in the script
 * must be a checked UUID or SQL written here, never caller text.
 */
async function inTransaction<T, R>(
  db: Kysely<DB>,
  tenant: string,
  firstQuery: string | undefined,
  fn: (tx: Tx, firstRows: R[]) => Promise<T>,
): Promise<T> {
  if (tenant !== '' && !UUID.test(tenant)) throw new Error('withTenant needs a tenant UUID');
  return db.connection().execute(async (conn) => {
    const opened = await sql
      .raw<R>(
        `begin; select set_config('app.tenant_id', '${tenant}', true), set_config('role', '${APP_ROLE}', true)` +
          (firstQuery ? `; ${firstQuery}` : ''),
      )
      .execute(conn);
    let result: T;
    try {
      result = await fn(conn, firstQuery ? opened.rows : []);
    } catch (err) {
      // A failed rollback (a broken connection) must not hide the error that caused it.
      await sql
        .raw('rollback')
        .execute(conn)
        .catch(() => {});
      throw err;
    }
    const committed = await sql.raw<{ command?: string }>('commit').execute(conn);
    // COMMIT of a transaction in which a statement failed (and the error was swallowed)
    // rolls back; answering success then would lose the write.
    if (committed.rows[0]?.command === 'ROLLBACK')
      throw new Error('Unable to commit: the transaction had failed');
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
  fn: (tx: Tx, firstRows: R[]) => Promise<T>,
): Promise<T> {
  return inTransaction(db, tenantId, firstQuery, fn);
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
