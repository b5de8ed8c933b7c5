// Business rules of CRM activities: against exactly one lead, opportunity or contact of the
// tenant; an owner who is a user of the tenant (by default whoever records it); done is a
// moment (doneAt), set once and kept by a repeated complete; deleting sets deleted_at.
import type { Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import {
  type ActivityRow,
  findActivity,
  listActivityRows,
  liveExists,
  userExists,
} from './activities.queries.ts';
import type { ActivityCreate, ActivityListQuery, ActivityUpdate } from './activities.schemas.ts';
import type { CrmActivitiesTable } from './crm.tables.ts';

export function toActivity(row: ActivityRow, now: Date) {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    notes: row.notes,
    dueAt: row.due_at?.toISOString() ?? null,
    done: row.done_at !== null,
    doneAt: row.done_at?.toISOString() ?? null,
    overdue: row.done_at === null && row.due_at !== null && row.due_at.getTime() < now.getTime(),
    ownerId: row.owner_id,
    leadId: row.lead_id,
    opportunityId: row.opportunity_id,
    contactId: row.contact_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}
export type Activity = ReturnType<typeof toActivity>;

const TARGETS = [
  { field: 'leadId', column: 'lead_id', table: 'crm_leads', what: 'Lead' },
  { field: 'opportunityId', column: 'opportunity_id', table: 'crm_opportunities', what: 'Opportunity' },
  { field: 'contactId', column: 'contact_id', table: 'contacts', what: 'Contact' },
] as const;

type TargetInput = {
  leadId?: string | undefined;
  opportunityId?: string | undefined;
  contactId?: string | undefined;
};
type Columns = Pick<Updateable<CrmActivitiesTable>, 'lead_id' | 'opportunity_id' | 'contact_id'>;

/**
 * The lead, opportunity or contact the input names, checked to be a live record of the tenant,
 * as columns (the other two null). `required`: on create one must be given; on a change none
 * may be (nothing moves).
 */
async function targetOf(ctx: TenantCtx, input: TargetInput, required: boolean): Promise<Columns> {
  const given = TARGETS.filter((t) => input[t.field] !== undefined);
  if (given.length > 1)
    throw badRequest(
      given[1]!.field,
      `give only one of leadId, opportunityId and contactId, not ${given[0]!.field} too`,
    );
  const t = given[0];
  if (!t) {
    if (required) throw badRequest('leadId', 'give exactly one of leadId, opportunityId and contactId');
    return {};
  }
  const id = input[t.field]!;
  if (!(await liveExists(ctx.db, t.table, ctx.tenantId, id))) throw notFound(t.what);
  return { lead_id: null, opportunity_id: null, contact_id: null, [t.column]: id };
}

async function ownerOf(ctx: TenantCtx, ownerId: string | null): Promise<string | null> {
  if (ownerId !== null && !(await userExists(ctx.db, ctx.tenantId, ownerId))) throw notFound('User');
  return ownerId;
}

/** Trimmed; blank is null. */
const text = (value: string | null | undefined) => value?.trim() || null;

function subjectOf(value: string): string {
  const s = value.trim();
  if (!s) throw badRequest('subject', 'must not be blank');
  return s;
}

async function getActivityRow(ctx: TenantCtx, id: string): Promise<ActivityRow> {
  const row = await findActivity(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Activity');
  return row;
}

export async function getActivity(ctx: TenantCtx, id: string): Promise<Activity> {
  return toActivity(await getActivityRow(ctx, id), ctx.deps.now());
}

export async function createActivity(
  ctx: TenantCtx,
  input: Static<typeof ActivityCreate>,
): Promise<Activity> {
  const target = await targetOf(ctx, input, true);
  // a person (or a user key, acting as its owner) owns what they record; a business key: nobody
  const owner = await ownerOf(ctx, input.ownerId === undefined ? ctx.principal.userId : input.ownerId);
  const now = ctx.deps.now();
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('crm_activities')
    .values({
      tenant_id: ctx.tenantId,
      id,
      kind: input.kind,
      subject: subjectOf(input.subject),
      notes: text(input.notes),
      due_at: input.dueAt ? new Date(input.dueAt) : null,
      done_at: input.done ? now : null,
      owner_id: owner,
      ...target,
      created_at: now,
      updated_at: now,
    })
    .execute();
  ctx.reply.code(201);
  return getActivity(ctx, id);
}

export async function updateActivity(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof ActivityUpdate>,
): Promise<Activity> {
  const row = await getActivityRow(ctx, id);
  const set: Updateable<CrmActivitiesTable> = { ...(await targetOf(ctx, input, false)) };
  if (input.kind !== undefined) set.kind = input.kind;
  if (input.subject !== undefined) set.subject = subjectOf(input.subject);
  if (input.notes !== undefined) set.notes = text(input.notes);
  if (input.dueAt !== undefined) set.due_at = input.dueAt === null ? null : new Date(input.dueAt);
  if (input.ownerId !== undefined) set.owner_id = await ownerOf(ctx, input.ownerId);
  // done again keeps the first doneAt: when it was done does not move
  if (input.done === true && row.done_at === null) set.done_at = ctx.deps.now();
  if (input.done === false) set.done_at = null;
  if (Object.keys(set).length > 0)
    await ctx.db
      .updateTable('crm_activities')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getActivity(ctx, id);
}

/** Marks it done now; one done already keeps its doneAt (a repeat changes nothing). */
export async function completeActivity(ctx: TenantCtx, id: string): Promise<Activity> {
  const row = await getActivityRow(ctx, id);
  if (row.done_at === null)
    await ctx.db
      .updateTable('crm_activities')
      .set({ done_at: ctx.deps.now() })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getActivity(ctx, id);
}

export async function deleteActivity(ctx: TenantCtx, id: string): Promise<void> {
  await getActivityRow(ctx, id);
  await ctx.db
    .updateTable('crm_activities')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

export async function listActivities(
  ctx: TenantCtx,
  query: Static<typeof ActivityListQuery>,
): Promise<Page<Activity>> {
  const p = paging(query);
  const now = ctx.deps.now();
  const date = (s: string | undefined) => (s === undefined ? undefined : new Date(s));
  const { rows, total } = await listActivityRows(
    ctx.db,
    ctx.tenantId,
    {
      kind: query.kind,
      leadId: query.leadId,
      opportunityId: query.opportunityId,
      contactId: query.contactId,
      ownerId: query.ownerId,
      done: query.done,
      dueBefore: date(query.dueBefore),
      overdue: query.overdue,
      now,
      updatedSince: date(query.updatedSince),
    },
    p,
  );
  return pageOf(
    rows.map((r) => toActivity(r, now)),
    total,
    p,
  );
}
