// Business rules of CRM campaigns: a name and a marketing channel; members are leads and
// contacts of the tenant, each once (a repeat is counted, not added); a removed member keeps
// its row (removed_at); counts come from the audience, read when asked.
import type { Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { type Audience, audienceOf } from './campaigns.audience.ts';
import type {
  CampaignCreate,
  CampaignListQuery,
  CampaignMembersAdd,
  CampaignUpdate,
} from './campaigns.schemas.ts';
import type { CrmCampaignsTable } from './crm.tables.ts';

type CampaignRow = Selectable<CrmCampaignsTable>;

function toCampaign(row: CampaignRow, audience: Audience) {
  const { included, excluded } = audience;
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    status: row.status,
    description: row.description,
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    counts: {
      members: included.length + excluded.length,
      included: included.length,
      excluded: excluded.length,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
export type Campaign = ReturnType<typeof toCampaign>;

async function findCampaign(ctx: TenantCtx, id: string): Promise<CampaignRow> {
  const row = await ctx.db
    .selectFrom('crm_campaigns')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Campaign');
  return row;
}

const withCounts = async (ctx: TenantCtx, row: CampaignRow) =>
  toCampaign(row, await audienceOf(ctx.db, ctx.tenantId, row.id, row.channel));

export async function getCampaign(ctx: TenantCtx, id: string): Promise<Campaign> {
  return withCounts(ctx, await findCampaign(ctx, id));
}

/** Every live campaign, the newest first (a short list: no paging). */
export async function listCampaigns(
  ctx: TenantCtx,
  query: Static<typeof CampaignListQuery>,
): Promise<Campaign[]> {
  let q = ctx.db.selectFrom('crm_campaigns').selectAll().where('tenant_id', '=', ctx.tenantId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.channel) q = q.where('channel', '=', query.channel);
  const rows = await q
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const out: Campaign[] = [];
  for (const row of rows) out.push(await withCounts(ctx, row));
  return out;
}

const text = (value: string | null | undefined) => value?.trim() || null;

type Input = Static<typeof CampaignCreate> | Static<typeof CampaignUpdate>;

/** The columns an input sets (only the fields it carries), the dates checked in order. */
function columnsOf(input: Input, current?: CampaignRow): Updateable<CrmCampaignsTable> {
  const set: Updateable<CrmCampaignsTable> = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw badRequest('name', 'must not be blank');
    set.name = name;
  }
  if (input.channel !== undefined) set.channel = input.channel;
  if (input.status !== undefined) set.status = input.status;
  if (input.description !== undefined) set.description = text(input.description);
  if (input.startsOn !== undefined) set.starts_on = input.startsOn;
  if (input.endsOn !== undefined) set.ends_on = input.endsOn;
  const starts = input.startsOn === undefined ? (current?.starts_on ?? null) : input.startsOn;
  const ends = input.endsOn === undefined ? (current?.ends_on ?? null) : input.endsOn;
  if (starts && ends && ends < starts) throw badRequest('endsOn', `must not be before startsOn (${starts})`);
  return set;
}

export async function createCampaign(
  ctx: TenantCtx,
  input: Static<typeof CampaignCreate>,
): Promise<Campaign> {
  const id = crypto.randomUUID();
  const now = ctx.deps.now();
  const set = columnsOf(input);
  await ctx.db
    .insertInto('crm_campaigns')
    .values({
      ...set,
      tenant_id: ctx.tenantId,
      id,
      name: set.name!,
      channel: input.channel,
      created_at: now,
      updated_at: now,
    })
    .execute();
  ctx.reply.code(201);
  return getCampaign(ctx, id);
}

export async function updateCampaign(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof CampaignUpdate>,
): Promise<Campaign> {
  const set = columnsOf(input, await findCampaign(ctx, id));
  if (Object.keys(set).length > 0)
    await ctx.db
      .updateTable('crm_campaigns')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getCampaign(ctx, id);
}

export async function deleteCampaign(ctx: TenantCtx, id: string): Promise<void> {
  await findCampaign(ctx, id);
  await ctx.db
    .updateTable('crm_campaigns')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

/** The ids of the table among `ids` that are live records of the tenant. */
async function liveIds(ctx: TenantCtx, table: 'crm_leads' | 'contacts', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .selectFrom(table)
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

const KINDS = [
  { field: 'leadIds', column: 'lead_id', table: 'crm_leads', what: 'Lead' },
  { field: 'contactIds', column: 'contact_id', table: 'contacts', what: 'Contact' },
] as const;

/**
 * Adds the leads and contacts (each a live record of the tenant: else 404 naming it, nothing
 * added). One already a member, or named twice, is counted in alreadyMembers, not added again.
 */
export async function addMembers(ctx: TenantCtx, id: string, input: Static<typeof CampaignMembersAdd>) {
  const campaign = await findCampaign(ctx, id);
  let added = 0;
  let alreadyMembers = 0;
  const now = ctx.deps.now();
  for (const kind of KINDS) {
    const given = input[kind.field] ?? [];
    const unique = [...new Set(given)];
    alreadyMembers += given.length - unique.length;
    const live = await liveIds(ctx, kind.table, unique);
    const missing = unique.find((x) => !live.has(x));
    if (missing) throw notFound(kind.what);
    if (unique.length === 0) continue;
    const existing = await ctx.db
      .selectFrom('crm_campaign_members')
      .select(kind.column)
      .where('tenant_id', '=', ctx.tenantId)
      .where('campaign_id', '=', id)
      .where('removed_at', 'is', null)
      .where(kind.column, 'in', unique)
      .execute();
    const there = new Set(existing.map((r) => (r as Record<string, string>)[kind.column]));
    const fresh = unique.filter((x) => !there.has(x));
    alreadyMembers += unique.length - fresh.length;
    added += fresh.length;
    if (fresh.length > 0)
      await ctx.db
        .insertInto('crm_campaign_members')
        .values(
          fresh.map((x) => ({
            tenant_id: ctx.tenantId,
            id: crypto.randomUUID(),
            campaign_id: id,
            [kind.column]: x,
            added_at: now,
          })),
        )
        .execute();
  }
  return { ...(await withCounts(ctx, campaign)), added, alreadyMembers };
}

/** Removes a member (removed_at set; it may be added again later). */
export async function removeMember(ctx: TenantCtx, id: string, memberId: string): Promise<void> {
  await findCampaign(ctx, id);
  const r = await ctx.db
    .updateTable('crm_campaign_members')
    .set({ removed_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('campaign_id', '=', id)
    .where('id', '=', memberId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound('Campaign member');
}

export async function getAudience(ctx: TenantCtx, id: string) {
  const campaign = await findCampaign(ctx, id);
  const audience = await audienceOf(ctx.db, ctx.tenantId, id, campaign.channel);
  return {
    campaignId: id,
    channel: campaign.channel,
    counts: toCampaign(campaign, audience).counts,
    ...audience,
  };
}
