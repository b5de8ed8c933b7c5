// Every request's queries run in one transaction as the bp_app role, with app.tenant_id
// set for row-level security. The WHERE tenant_id = ... in each query is the first wall;
// the policies are the second.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

export type Tx = Transaction<DB>;

export const APP_ROLE = 'bp_app';

/** One transaction as bp_app with the tenant set; everything in `fn` is that tenant's view. */
export function withTenant<T>(db: Kysely<DB>, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', ${APP_ROLE}, true)`.execute(
      tx,
    );
    return fn(tx);
  });
}

/**
 * One transaction as bp_app with no tenant: row-level security hides every tenant row.
 * For the few steps that come before a tenant is known (the sign-in directory).
 */
export function withoutTenant<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select set_config('app.tenant_id', '', true), set_config('role', ${APP_ROLE}, true)`.execute(
      tx,
    );
    return fn(tx);
  });
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
