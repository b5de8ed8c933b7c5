// Opportunities: deals in the tenant's pipeline, with lines (opportunities.lines.ts), a stage,
// an owner and a contact; won or lost with a reason (and reopened); soft delete. The quote made
// from a won one is in opportunities.quote.ts.
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money, toSql } from '../../platform/money/money.ts';
import { contactName } from '../contacts/index.ts';
import { pricedLines, writeLines } from './opportunities.lines.ts';
import {
  findOpportunity,
  type Opportunity,
  type OpportunityRow,
  withDetails,
} from './opportunities.queries.ts';
import {
  OPPORTUNITY_DEFAULT_SORT,
  type OpportunityCreate,
  type OpportunityListQuery,
  type OpportunitySortKey,
  type OpportunityUpdate,
} from './opportunities.schemas.ts';
import { findStage, liveStages } from './stages.service.ts';
import { assertUsers } from './teams.users.ts';

type Ctx = Pick<TenantCtx, 'db' | 'tenantId' | 'deps' | 'principal'>;

export async function getOpportunity(ctx: Pick<Ctx, 'db' | 'tenantId'>, id: string): Promise<Opportunity> {
  const row = await findOpportunity(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Opportunity');
  return (await withDetails(ctx.db, ctx.tenantId, [row]))[0]!;
}

/** The opportunity to change, locked; 404 when there is none. */
export async function lockedOpportunity(
  ctx: Pick<Ctx, 'db' | 'tenantId'>,
  id: string,
): Promise<OpportunityRow> {
  const row = await findOpportunity(ctx.db, ctx.tenantId, id, true);
  if (!row) throw notFound('Opportunity');
  return row;
}

async function assertContactOf(ctx: Ctx, id: string): Promise<string> {
  if ((await contactName(ctx, id)) === undefined) throw badRequest('contactId', 'no such contact');
  return id.toLowerCase();
}

async function stageIdOf(ctx: Ctx, id: string | undefined): Promise<string> {
  if (id !== undefined) {
    const stage = await findStage(ctx.db, ctx.tenantId, id);
    if (!stage) throw badRequest('stageId', 'no such stage');
    return stage.id;
  }
  const first = (await liveStages(ctx.db, ctx.tenantId))[0];
  if (!first)
    throw conflict('The pipeline has no stages: add one first (POST /api/crm/stages)', { field: 'stageId' });
  return first.id;
}

/** The amount: the lines' total when there are lines; else the value given (two decimals). */
function amountOf(amount: number | undefined, lines: { total: string; count: number } | undefined): string {
  if (lines && lines.count > 0) {
    if (amount !== undefined && !money(amount).equals(lines.total))
      throw badRequest('amount', `disagrees with the lines' total, ${lines.total}: leave it out`);
    return lines.total;
  }
  if (amount === undefined) return '0.00';
  if (money(amount).decimalPlaces() > 2) throw badRequest('amount', 'at most two decimals');
  return toSql(amount);
}

function callerUserId(ctx: Ctx): string | null {
  // A person, or a user key acting as its owner; a business key owns nothing.
  return ctx.principal.userId;
}

export async function createOpportunity(
  ctx: Ctx,
  input: Static<typeof OpportunityCreate>,
): Promise<Opportunity> {
  const name = input.name.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  const stageId = await stageIdOf(ctx, input.stageId);
  const contactId = input.contactId === undefined ? null : await assertContactOf(ctx, input.contactId);
  const ownerId =
    input.ownerId === undefined
      ? callerUserId(ctx)
      : (await assertUsers(ctx.db, ctx.tenantId, [input.ownerId], 'ownerId'))[0]!;
  const priced = await pricedLines(ctx.db, ctx.tenantId, input.lines ?? []);
  const id = crypto.randomUUID();
  const now = ctx.deps.now();
  await ctx.db
    .insertInto('crm_opportunities')
    .values({
      tenant_id: ctx.tenantId,
      id,
      name,
      contact_id: contactId,
      stage_id: stageId,
      owner_id: ownerId,
      currency: input.currency ?? 'ZAR',
      amount: amountOf(input.amount, { total: priced.total, count: priced.rows.length }),
      expected_close_date: input.expectedCloseDate ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await writeLines(ctx.db, ctx.tenantId, id, priced.rows, ctx.deps.now());
  return getOpportunity(ctx, id);
}

const SORT_COLUMNS = {
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
  date: ['expected_close_date', 'created_at'],
} as const satisfies Record<OpportunitySortKey, readonly string[]>;

export async function listOpportunities(
  ctx: Ctx,
  query: Static<typeof OpportunityListQuery>,
): Promise<Page<Opportunity>> {
  const p = paging(query);
  const order = sortOrder<OpportunitySortKey>(query.sort, OPPORTUNITY_DEFAULT_SORT);
  let q = ctx.db.selectFrom('crm_opportunities').where('tenant_id', '=', ctx.tenantId);
  // A sync (updatedSince) learns of deleted ones too, their deletedAt set.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.stageId) q = q.where('stage_id', '=', query.stageId);
  if (query.ownerId) q = q.where('owner_id', '=', query.ownerId);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await withDetails(ctx.db, ctx.tenantId, rows), total, p);
}

export async function updateOpportunity(
  ctx: Ctx,
  id: string,
  input: Static<typeof OpportunityUpdate>,
): Promise<Opportunity> {
  const row = await lockedOpportunity(ctx, id);
  const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw badRequest('name', 'must not be blank');
    set.name = name;
  }
  if (input.contactId !== undefined)
    set.contact_id = input.contactId === null ? null : await assertContactOf(ctx, input.contactId);
  if (input.ownerId !== undefined)
    set.owner_id =
      input.ownerId === null
        ? null
        : (await assertUsers(ctx.db, ctx.tenantId, [input.ownerId], 'ownerId'))[0];
  if (input.expectedCloseDate !== undefined) set.expected_close_date = input.expectedCloseDate;
  // What the deal is worth and where it stands change only while it is open: a closed one is history.
  const moving = input.stageId !== undefined || input.lines !== undefined || input.amount !== undefined;
  if (moving && row.status !== 'open')
    throw conflict(`The opportunity is ${row.status}: reopen it to change its stage, lines or amount`);
  if (input.stageId !== undefined) set.stage_id = await stageIdOf(ctx, input.stageId);
  if (input.lines !== undefined) {
    const priced = await pricedLines(ctx.db, ctx.tenantId, input.lines);
    await writeLines(ctx.db, ctx.tenantId, id, priced.rows, ctx.deps.now());
    set.amount = amountOf(input.amount, { total: priced.total, count: priced.rows.length });
  } else if (input.amount !== undefined) {
    const lines = await ctx.db
      .selectFrom('crm_opportunity_lines')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', ctx.tenantId)
      .where('opportunity_id', '=', id)
      .where('retired_at', 'is', null)
      .executeTakeFirstOrThrow();
    set.amount = amountOf(input.amount, { total: row.amount, count: Number(lines.n) });
  }
  await ctx.db
    .updateTable('crm_opportunities')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getOpportunity(ctx, id);
}

export async function deleteOpportunity(ctx: Ctx, id: string): Promise<void> {
  await lockedOpportunity(ctx, id);
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_opportunities')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

/** Won or lost, from open only (409 otherwise). */
export async function closeOpportunity(
  ctx: Ctx,
  id: string,
  status: 'won' | 'lost',
  reason: string | undefined,
): Promise<Opportunity> {
  const row = await lockedOpportunity(ctx, id);
  if (row.status !== 'open') throw conflict(`The opportunity is ${row.status} already`);
  const why = reason?.trim() || null;
  if (status === 'lost' && !why) throw badRequest('reason', 'must not be blank');
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_opportunities')
    .set({ status, close_reason: why, closed_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getOpportunity(ctx, id);
}

/** Back to open; refused (409) while open already, or once a quote was made from it. */
export async function reopenOpportunity(ctx: Ctx, id: string): Promise<Opportunity> {
  const row = await lockedOpportunity(ctx, id);
  if (row.status === 'open') throw conflict('The opportunity is open already');
  if (row.quote_id) throw conflict('A quote was made from this opportunity: it stays won');
  // Its stage may have been deleted since it closed: it then reopens at the first stage.
  const stageId = (await findStage(ctx.db, ctx.tenantId, row.stage_id))
    ? row.stage_id
    : await stageIdOf(ctx, undefined);
  await ctx.db
    .updateTable('crm_opportunities')
    .set({
      status: 'open',
      close_reason: null,
      closed_at: null,
      stage_id: stageId,
      updated_at: ctx.deps.now(),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getOpportunity(ctx, id);
}
