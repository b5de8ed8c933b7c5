// Sales targets and their progress. Progress is never stored: it is read from the won
// opportunities (closed_at within the period) of the target's user, or of its team's members as
// the team is now, so a deal won, reopened or deleted moves it at once.
import { Decimal } from 'decimal.js';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { Money, money, toNumber, toSql } from '../../platform/money/money.ts';
import type { CrmTargetsTable, TargetMetric } from './crm.tables.ts';
import type { Target, TargetCreate, TargetListQuery, TargetUpdate } from './targets.schemas.ts';
import { findTeam } from './teams.ts';
import { assertUsers } from './teams.users.ts';

type Ctx = Pick<TenantCtx, 'db' | 'tenantId' | 'deps' | 'principal'>;
type TargetRow = Selectable<CrmTargetsTable>;

/** The owners a target counts: its user, or its team's members (none for a team deleted since). */
async function ownersOf(ctx: Ctx, row: TargetRow): Promise<string[]> {
  if (row.user_id) return [row.user_id];
  const team = await findTeam(ctx, row.team_id!);
  return team?.member_ids ?? [];
}

async function toTarget(ctx: Ctx, row: TargetRow): Promise<Static<typeof Target>> {
  const owners = await ownersOf(ctx, row);
  const won = owners.length
    ? await ctx.db
        .selectFrom('crm_opportunities')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string | null>('amount').as('value')])
        .where('tenant_id', '=', ctx.tenantId)
        .where('status', '=', 'won')
        .where('deleted_at', 'is', null)
        .where('owner_id', 'in', owners)
        .where('closed_at', '>=', new Date(`${row.period_start}T00:00:00Z`))
        .where('closed_at', '<', new Date(`${addDays(row.period_end, 1)}T00:00:00Z`))
        .executeTakeFirstOrThrow()
    : { n: '0', value: null };
  const wonValue = money(won.value ?? 0);
  const achieved = row.metric === 'value' ? wonValue : money(won.n);
  const percent = achieved.times(100).dividedBy(row.target).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return {
    id: row.id,
    userId: row.user_id,
    teamId: row.team_id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    metric: row.metric,
    target: toNumber(row.target),
    progress: {
      achieved: toNumber(achieved),
      percent: percent.toNumber(),
      wonCount: Number(won.n),
      wonValue: toNumber(wonValue),
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}

function findTarget(ctx: Ctx, id: string) {
  return ctx.db
    .selectFrom('crm_targets')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

function targetValue(metric: TargetMetric, value: number): string {
  const d = new Money(value);
  if (metric === 'count' && !d.isInteger()) throw badRequest('target', 'a count is a whole number');
  if (d.decimalPlaces() > 2) throw badRequest('target', 'at most two decimals');
  return toSql(d);
}

function assertPeriod(start: string, end: string): void {
  if (end < start) throw badRequest('periodEnd', 'must not be before periodStart');
}

export async function getTarget(ctx: Ctx, id: string) {
  const row = await findTarget(ctx, id);
  if (!row) throw notFound('Target');
  return toTarget(ctx, row);
}

export async function createTarget(ctx: Ctx, input: Static<typeof TargetCreate>) {
  if (input.userId && input.teamId) throw badRequest('teamId', 'give userId or teamId, not both');
  let userId: string | null = null;
  let teamId: string | null = null;
  if (input.teamId) {
    const team = await findTeam(ctx, input.teamId);
    if (!team) throw badRequest('teamId', 'no such team');
    teamId = team.id;
  } else if (input.userId) {
    userId = (await assertUsers(ctx.db, ctx.tenantId, [input.userId], 'userId'))[0]!;
  } else {
    userId = ctx.principal.userId;
    if (!userId) throw badRequest('userId', 'give userId or teamId (a business key is nobody)');
  }
  assertPeriod(input.periodStart, input.periodEnd);
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('crm_targets')
    .values({
      tenant_id: ctx.tenantId,
      id,
      user_id: userId,
      team_id: teamId,
      period_start: input.periodStart,
      period_end: input.periodEnd,
      metric: input.metric,
      target: targetValue(input.metric, input.target),
    })
    .execute();
  return getTarget(ctx, id);
}

export async function updateTarget(ctx: Ctx, id: string, input: Static<typeof TargetUpdate>) {
  const row = await findTarget(ctx, id);
  if (!row) throw notFound('Target');
  const start = input.periodStart ?? row.period_start;
  const end = input.periodEnd ?? row.period_end;
  assertPeriod(start, end);
  const metric = input.metric ?? row.metric;
  await ctx.db
    .updateTable('crm_targets')
    .set({
      period_start: start,
      period_end: end,
      metric,
      target: targetValue(metric, input.target ?? Number(row.target)),
      updated_at: ctx.deps.now(),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getTarget(ctx, id);
}

export async function deleteTarget(ctx: Ctx, id: string): Promise<void> {
  if (!(await findTarget(ctx, id))) throw notFound('Target');
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_targets')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

const SORT_COLUMNS = {
  date: ['period_start', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const;

export async function listTargets(
  ctx: Ctx,
  query: Static<typeof TargetListQuery>,
): Promise<Page<Static<typeof Target>>> {
  const p = paging(query);
  const order = sortOrder<keyof typeof SORT_COLUMNS>(query.sort, 'date');
  let q = ctx.db.selectFrom('crm_targets').where('tenant_id', '=', ctx.tenantId);
  // A sync (updatedSince) learns of deleted ones too, their deletedAt set.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.userId) q = q.where('user_id', '=', query.userId);
  if (query.teamId) q = q.where('team_id', '=', query.teamId);
  if (query.activeOn)
    q = q.where('period_start', '<=', query.activeOn).where('period_end', '>=', query.activeOn);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  const items = [];
  for (const row of rows) items.push(await toTarget(ctx, row));
  return pageOf(items, total, p);
}
