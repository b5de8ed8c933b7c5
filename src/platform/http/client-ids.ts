// clientId replay, once for every create that takes one (issue 35, item 6): the caller's UUID
// becomes the record's id, so a retried POST finds the record the first one made and answers it
// (200) instead of making a second one (a second invoice, a second payment, stock moved twice).
//
// The check runs FIRST, before the body is checked against the books: a retry would otherwise
// be refused by what its own first submission did (a landed cost's bill line already used, a
// transfer's stock already sent, a pay period that now overlaps itself). A retry racing the first
// submission waits on an advisory lock on the id until that transaction ends, then sees its
// record (one 201, one 200); the primary key (tenant_id, id) stands behind it whatever happens.
// (createIdempotent in idempotent.ts is the other way: an insert ON CONFLICT DO NOTHING, for a
// create that is one insert.)
import { sql } from 'kysely';
import type { Tx } from '../db/tenant.ts';
import { idFor } from './idempotent.ts';
import { conflict } from './problem.ts';

export interface ClientIdRule {
  /** The table whose (tenant_id, id) the clientId becomes. */
  table: string;
  /**
   * What a replay's record must belong to: its column and the value (usually `company_id`
   * and the request's company; a payment's document, a match's bank line). Another's record
   * with the id is a 409: its id cannot be used again, and answering a record the caller
   * cannot read would leak it.
   */
  owner: readonly [column: string, value: string];
  /** The table keeps deleted rows (`deleted_at`): a deleted record's id is a 409 too. */
  softDeleted?: boolean;
  /** A further column the record must hold this value in (journal entries: their source_type). */
  kind?: readonly [column: string, value: string];
}

export interface ClientId {
  /** The record's id: the clientId (lower case) or a new UUID. */
  id: string;
  /** A record with the clientId is the caller's already: answer it (200) and make nothing. */
  replay: boolean;
}

/** The id of a new record, and whether a replay found the one a first submission made. */
export async function claimClientId(
  ctx: { db: Tx; tenantId: string },
  clientId: string | undefined,
  rule: ClientIdRule,
): Promise<ClientId> {
  const id = idFor(clientId);
  if (!clientId) return { id, replay: false };
  await sql`select pg_advisory_xact_lock(hashtext(${`${rule.table}:${ctx.tenantId}:${id}`}))`.execute(ctx.db);
  const [ownerColumn, owner] = rule.owner;
  const deleted = rule.softDeleted ? sql`deleted_at is not null` : sql`false`;
  const kind = rule.kind ? sql`${sql.ref(rule.kind[0])}::text` : sql`null`;
  const found = await sql<{ owner: string | null; deleted: boolean; kind: string | null }>`
    select ${sql.ref(ownerColumn)}::text as owner, ${deleted} as deleted, ${kind} as kind
      from ${sql.table(rule.table)} where tenant_id = ${ctx.tenantId} and id = ${id}`.execute(ctx.db);
  const row = found.rows[0];
  if (!row) return { id, replay: false };
  if (row.deleted)
    throw conflict('clientId: was the id of a record that has since been deleted', { field: 'clientId' });
  // Ids as a path or a header gave them may be upper case; the database answers lower case.
  if (row.owner?.toLowerCase() !== owner.toLowerCase() || (rule.kind && row.kind !== rule.kind[1]))
    throw conflict('clientId: already the id of another record', { field: 'clientId' });
  return { id, replay: true };
}
