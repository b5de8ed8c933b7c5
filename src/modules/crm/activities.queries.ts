// SQL of CRM activities, and the look-ups of what an activity (or a campaign member) names:
// a live lead, opportunity or contact of the tenant, a user of the tenant.
import { type Selectable, sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { Paging } from '../../platform/http/paging.ts';
import type { ActivityKind, CrmActivitiesTable } from './crm.tables.ts';

export type ActivityRow = Selectable<CrmActivitiesTable>;

export function findActivity(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('crm_activities')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Whether a live record of the table with that id is the tenant's. */
export async function liveExists(
  tx: Tx,
  table: 'crm_leads' | 'crm_opportunities' | 'contacts',
  tenantId: string,
  id: string,
): Promise<boolean> {
  const r = await tx
    .selectFrom(table)
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r !== undefined;
}

export async function userExists(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const r = await tx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r !== undefined;
}

export interface ActivityFilter {
  kind?: ActivityKind | undefined;
  leadId?: string | undefined;
  opportunityId?: string | undefined;
  contactId?: string | undefined;
  ownerId?: string | undefined;
  done?: boolean | undefined;
  dueBefore?: Date | undefined;
  /** with `now`: open and due before now (true), or not (false) */
  overdue?: boolean | undefined;
  now: Date;
  updatedSince?: Date | undefined;
}

/**
 * One page of activities, the soonest due first (those without a due time after them), then
 * the oldest created, then id: a to-do list's order, and a timeline's when filtered to one
 * record. Deleted ones only with updatedSince (a sync learns of them).
 */
export async function listActivityRows(
  tx: Tx,
  tenantId: string,
  f: ActivityFilter,
  p: Paging,
): Promise<{ rows: ActivityRow[]; total: number }> {
  let q = tx.selectFrom('crm_activities').where('tenant_id', '=', tenantId);
  if (f.updatedSince) q = q.where('updated_at', '>=', f.updatedSince);
  else q = q.where('deleted_at', 'is', null);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.leadId) q = q.where('lead_id', '=', f.leadId);
  if (f.opportunityId) q = q.where('opportunity_id', '=', f.opportunityId);
  if (f.contactId) q = q.where('contact_id', '=', f.contactId);
  if (f.ownerId) q = q.where('owner_id', '=', f.ownerId);
  if (f.done !== undefined) q = q.where('done_at', f.done ? 'is not' : 'is', null);
  if (f.dueBefore) q = q.where('due_at', '<', f.dueBefore);
  if (f.overdue === true) q = q.where('done_at', 'is', null).where('due_at', '<', f.now);
  if (f.overdue === false)
    q = q.where((eb) =>
      eb.or([eb('done_at', 'is not', null), eb('due_at', 'is', null), eb('due_at', '>=', f.now)]),
    );
  const count = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy(sql`due_at asc nulls last`)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return { rows, total: Number(count.n) };
}
