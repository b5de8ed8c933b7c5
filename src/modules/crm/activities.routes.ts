// /api/crm/activities: calls, meetings, tasks and notes against a lead, an opportunity or a
// contact. Tenant-wide like the rest of the CRM (no X-Company-Id).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Activity, ActivityCreate, ActivityListQuery, ActivityUpdate } from './activities.schemas.ts';
import {
  completeActivity,
  createActivity,
  deleteActivity,
  getActivity,
  listActivities,
  updateActivity,
} from './activities.service.ts';

const CRM = 'The CRM is one book per tenant: no X-Company-Id is needed.';

const { read, write } = routeGroup({ module: 'crm', tag: 'Activities' });

export const activitiesRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/activities',
    operationId: 'listActivities',
    summary: 'List activities (paged): a to-do list, or the timeline of a lead, opportunity or contact',
    description:
      `${CRM} The soonest due first (those with no due time after them), then the oldest created, then id. ` +
      "Filters: kind, leadId, opportunityId or contactId (that record's timeline), ownerId, done, dueBefore " +
      '(due before the instant), overdue (open and past due now). Deleted activities are left out, except ' +
      'with updatedSince (a sync sees them with deletedAt set). limit defaults to 50, at most 200.',
    query: ActivityListQuery,
    response: { 200: Paged(Activity) },
    handler: async ({ query }, ctx) => listActivities(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/activities',
    operationId: 'createActivity',
    errors: ['NOT_FOUND'],
    summary: 'Record an activity against one lead, opportunity or contact',
    description:
      `${CRM} Exactly one of leadId, opportunityId and contactId (none, or two: 400 naming the field); one ` +
      "that is not a live record of the tenant's is a 404, as is an ownerId that is not a user of the " +
      'tenant. ownerId defaults to the signed-in user (a business API key: no owner). done true records it ' +
      'as done now.',
    body: ActivityCreate,
    response: { 201: Activity },
    handler: async ({ body }, ctx) => createActivity(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/activities/{id}',
    operationId: 'getActivity',
    summary: 'One activity',
    description: `${CRM} A deleted activity, or another tenant's, is a 404.`,
    params: IdParams,
    response: { 200: Activity },
    handler: async ({ params }, ctx) => getActivity(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/activities/{id}',
    operationId: 'updateActivity',
    errors: ['NOT_FOUND'],
    summary: 'Change an activity: only the fields sent; null clears notes, dueAt or ownerId',
    description:
      `${CRM} One of leadId, opportunityId or contactId moves it to that record (two: 400). done true marks ` +
      'it done (an activity done already keeps its doneAt); done false opens it again.',
    params: IdParams,
    body: ActivityUpdate,
    response: { 200: Activity },
    handler: async ({ params, body }, ctx) => updateActivity(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/activities/{id}/complete',
    operationId: 'completeActivity',
    summary: 'Mark an activity done (idempotent: done already, it keeps its doneAt)',
    description: CRM,
    params: IdParams,
    response: { 200: Activity },
    handler: async ({ params }, ctx) => completeActivity(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/activities/{id}',
    operationId: 'deleteActivity',
    summary: 'Delete an activity (soft): it leaves the list and its id answers 404',
    description: `${CRM} A list read with updatedSince still shows it, with deletedAt set.`,
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteActivity(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
