// Every request's queries run in one transaction as the bp_app role, with app.tenant_id
// set for row-level security. The WHERE tenant_id = ... in each query is the first wall;
// the policies are the second.
import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/** A tenant transaction: one connection, BEGIN issued, role and tenant set. */
export type Tx = Kysely<DB>;

export const APP_ROLE = 'bp_app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs `fn` in one transaction as bp_app with app.tenant_id = tenant (or no tenant).
 * BEGIN and the two settings travel as one simple-protocol script: one round trip
 * instead of two on every request. The tenant id is inlined, so it must be a UUID.
 */
async function inTransaction<T>(db: Kysely<DB>, tenant: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (tenant !== '' && !UUID.test(tenant)) throw new Error('withTenant needs a tenant UUID');
  return db.connection().execute(async (conn) => {
    await sql
      .raw(
        `begin; select set_config('app.tenant_id', '${tenant}', true), set_config('role', '${APP_ROLE}', true)`,
      )
      .execute(conn);
    let result: T;
    try {
      result = await fn(conn);
    } catch (err) {
      // A failed rollback (a broken connection) must not hide the error that caused it.
      await sql
        .raw('rollback')
        .execute(conn)
        .catch(() => {});
      throw err;
    }
    await sql.raw('commit').execute(conn);
    return result;
  });
}

/** One transaction as bp_app with the tenant set; everything in `fn` is that tenant's view. */
export function withTenant<T>(db: Kysely<DB>, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, tenantId, fn);
}

/**
 * One transaction as bp_app with no tenant: row-level security hides every tenant row.
 * For the few steps that come before a tenant is known (the sign-in directory).
 */
export function withoutTenant<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, '', fn);
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
