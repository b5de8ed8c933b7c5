// Sales teams and targets (tenant-wide, like the rest of the CRM). A target's progress is read
// from the won opportunities of its user or team, never stored.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Target, TargetCreate, TargetListQuery, TargetUpdate } from './targets.schemas.ts';
import { createTarget, deleteTarget, getTarget, listTargets, updateTarget } from './targets.service.ts';
import {
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  Team,
  TeamCreate,
  TeamUpdate,
  updateTeam,
} from './teams.ts';

const { read, write } = routeGroup({ module: 'crm', tag: 'Targets' });

const PROGRESS =
  'progress counts the opportunities won (closedAt within the period, UTC days, both ends included; deleted ' +
  "ones left out) owned by the target's user, or by one of its team's members as the team is now: achieved " +
  'is their value (Σ amount) or their count, as metric says; percent = achieved / target × 100 (two decimals, ' +
  'half-up).';

export const targetsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/teams',
    operationId: 'listSalesTeams',
    summary: 'The sales teams, by name (a bare array)',
    response: { 200: Type.Array(Team) },
    handler: async (_input, ctx) => listTeams(ctx),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/teams',
    operationId: 'createSalesTeam',
    summary: 'Create a sales team',
    description: "memberIds: users of the tenant's (400 naming the first that is not).",
    body: TeamCreate,
    response: { 201: Team },
    handler: async ({ body }, ctx) => createTeam(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/teams/{id}',
    operationId: 'getSalesTeam',
    summary: 'One sales team',
    params: IdParams,
    response: { 200: Team },
    handler: async ({ params }, ctx) => getTeam(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/teams/{id}',
    operationId: 'updateSalesTeam',
    summary: 'Rename a team or replace its members',
    description: "The team's targets count the members as they are after the change.",
    params: IdParams,
    body: TeamUpdate,
    response: { 200: Team },
    handler: async ({ params, body }, ctx) => updateTeam(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/teams/{id}',
    operationId: 'deleteSalesTeam',
    errors: ['CONFLICT'],
    summary: 'Delete a team (soft); refused (409) while a live target measures it',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteTeam(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/targets',
    operationId: 'listSalesTargets',
    summary: 'Sales targets with their progress (paged)',
    description:
      `${PROGRESS} Ordered by periodStart by default; filters userId, teamId and activeOn (the period holds ` +
      'that day). Deleted ones are left out, except with updatedSince.',
    query: TargetListQuery,
    response: { 200: Paged(Target) },
    handler: async ({ query }, ctx) => listTargets(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/targets',
    operationId: 'createSalesTarget',
    summary: 'Set a target for a user or a team over a period',
    description:
      "userId (a user of the tenant's) or teamId (a team of the tenant's), not both (400); neither: the " +
      'caller, when a person (or a user key, its owner). periodEnd on or after periodStart. A count target is ' +
      `a whole number. ${PROGRESS}`,
    body: TargetCreate,
    response: { 201: Target },
    handler: async ({ body }, ctx) => createTarget(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/targets/{id}',
    operationId: 'getSalesTarget',
    summary: 'One target with its progress',
    description: PROGRESS,
    params: IdParams,
    response: { 200: Target },
    handler: async ({ params }, ctx) => getTarget(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/targets/{id}',
    operationId: 'updateSalesTarget',
    summary: "Change a target's period, metric or figure",
    params: IdParams,
    body: TargetUpdate,
    response: { 200: Target },
    handler: async ({ params, body }, ctx) => updateTarget(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/targets/{id}',
    operationId: 'deleteSalesTarget',
    summary: 'Delete a target (soft)',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteTarget(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
