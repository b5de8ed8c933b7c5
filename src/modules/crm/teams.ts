// Sales teams: a name and the users in it (users of the tenant). A team's target counts the won
// opportunities of its members as they are now. Soft delete; a team a live target names stays
// (409), so no target loses whom it measures.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import type { CrmTeamsTable } from './crm.tables.ts';
import { assertUsers } from './teams.users.ts';

type Ctx = Pick<TenantCtx, 'db' | 'tenantId' | 'deps'>;
const Ts = Type.String({ format: 'date-time' });

export const Team = named(
  'SalesTeam',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    memberIds: Type.Array(Uuid, { description: 'Users of the tenant' }),
    createdAt: Ts,
    updatedAt: Ts,
  }),
);

const Members = Type.Array(Uuid, {
  maxItems: 500,
  description: 'Users of the tenant (400 naming the first that is not); repeats kept once',
});

export const TeamCreate = named(
  'SalesTeamCreate',
  Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 100 }), memberIds: Type.Optional(Members) },
    { additionalProperties: false, examples: [{ name: 'Inside sales', memberIds: [] }] },
  ),
);

export const TeamUpdate = named(
  'SalesTeamUpdate',
  Type.Object(
    { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), memberIds: Type.Optional(Members) },
    {
      additionalProperties: false,
      description: 'Only the fields sent change; memberIds, when sent, replace the members',
      examples: [{ name: 'Field sales' }],
    },
  ),
);

function toTeam(row: Selectable<CrmTeamsTable>): Static<typeof Team> {
  return {
    id: row.id,
    name: row.name,
    memberIds: row.member_ids,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function findTeam(ctx: Pick<Ctx, 'db' | 'tenantId'>, id: string) {
  return ctx.db
    .selectFrom('crm_teams')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

function nameOf(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest('name', 'must not be blank');
  return trimmed;
}

export async function listTeams(ctx: Ctx) {
  const rows = await ctx.db
    .selectFrom('crm_teams')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toTeam);
}

export async function getTeam(ctx: Ctx, id: string) {
  const row = await findTeam(ctx, id);
  if (!row) throw notFound('Team');
  return toTeam(row);
}

export async function createTeam(ctx: Ctx, input: Static<typeof TeamCreate>) {
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('crm_teams')
    .values({
      tenant_id: ctx.tenantId,
      id,
      name: nameOf(input.name),
      member_ids: await assertUsers(ctx.db, ctx.tenantId, input.memberIds ?? [], 'memberIds'),
    })
    .execute();
  return getTeam(ctx, id);
}

export async function updateTeam(ctx: Ctx, id: string, input: Static<typeof TeamUpdate>) {
  if (!(await findTeam(ctx, id))) throw notFound('Team');
  await ctx.db
    .updateTable('crm_teams')
    .set({
      updated_at: ctx.deps.now(),
      ...(input.name !== undefined ? { name: nameOf(input.name) } : {}),
      ...(input.memberIds !== undefined
        ? { member_ids: await assertUsers(ctx.db, ctx.tenantId, input.memberIds, 'memberIds') }
        : {}),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getTeam(ctx, id);
}

export async function deleteTeam(ctx: Ctx, id: string): Promise<void> {
  if (!(await findTeam(ctx, id))) throw notFound('Team');
  const target = await ctx.db
    .selectFrom('crm_targets')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('team_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (target) throw conflict('A target measures this team: delete the target first');
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_teams')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}
