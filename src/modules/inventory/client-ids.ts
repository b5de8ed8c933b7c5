// clientId on the inventory documents (stock transfers, stock takes, landed costs): the
// caller's UUID becomes the record's id, so a retried POST finds the record the first one made
// and answers it (200) instead of moving stock or reserving a bill line a second time.
//
// The check runs FIRST, before the body is validated against the books: a landed cost's retry
// would otherwise be refused by the bill-line amount its own first submission took (409
// BILL_LINE_USED), and a transfer's by the stock it already sent. A retry racing the first
// submission waits on an advisory lock on the id until that transaction ends, then sees its
// record (one 201, one 200); the primary key (tenant_id, id) stands behind it whatever happens.
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { idFor } from '../../platform/http/idempotent.ts';
import { conflict } from '../../platform/http/problem.ts';

type Table = 'stock_transfers' | 'stock_takes' | 'landed_costs';

export interface ClientId {
  /** the record's id: the clientId (lower case) or a new UUID */
  id: string;
  /** a record of this company has the clientId already: answer it with 200 */
  replay: boolean;
}

/**
 * The id of a new record of `table`, and whether a replay found one. A clientId taken by
 * another company's record, or by a deleted one, is a 409 naming clientId (its id cannot be
 * used again, and answering a record the caller cannot read would leak it).
 */
export async function clientIdOf(
  ctx: TenantCtx,
  table: Table,
  clientId: string | undefined,
): Promise<ClientId> {
  const id = idFor(clientId);
  if (!clientId) return { id, replay: false };
  await sql`select pg_advisory_xact_lock(hashtext(${`${table}:${ctx.tenantId}:${id}`}))`.execute(ctx.db);
  const deleted = table === 'landed_costs' ? sql`deleted_at is not null` : sql`false`;
  const found = await sql<{ company_id: string; deleted: boolean }>`
    select company_id, ${deleted} as deleted from ${sql.table(table)}
     where tenant_id = ${ctx.tenantId} and id = ${id}`.execute(ctx.db);
  const row = found.rows[0];
  if (!row) return { id, replay: false };
  if (row.company_id !== ctx.companyId || row.deleted)
    throw conflict(
      row.deleted
        ? 'clientId: was the id of a record that has since been deleted'
        : 'clientId: is the id of another record',
      { field: 'clientId' },
    );
  ctx.reply.code(200);
  return { id, replay: true };
}
