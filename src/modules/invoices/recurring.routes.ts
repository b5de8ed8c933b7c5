import { Type } from 'typebox';
import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged, pageQueryProperties } from '../../platform/http/paging.ts';
import { IdParams, Invoice } from './invoices.schemas.ts';
import { Recurring, RecurringCreate, RecurringListQuery, RecurringUpdate } from './recurring.schemas.ts';
import {
  createRecurring,
  deleteRecurring,
  getRecurring,
  listRecurring,
  listRecurringDocuments,
  updateRecurring,
} from './recurring.service.ts';

const sales = { module: 'invoices', companyScoped: true } as const;
const read = { ...sales, access: 'read' as const, permission: ['invoices', 'read'] as [Resource, Action] };
const write = { ...sales, access: 'write' as const, permission: ['invoices', 'write'] as [Resource, Action] };

export const recurringRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/recurring',
    summary: 'Create a recurring invoice schedule',
    description:
      'The job worker makes one invoice per period: on startDate, then every interval weeks (weekly), fortnights, ' +
      'months, quarters or years, until endDate. A document is dated its run date (00:00 UTC), due ' +
      'paymentTermsDays later, and carries recurringId; with autoRelease it is released (posted) at once, ' +
      'otherwise it stays a draft. Month steps keep the start day where the month has it and take the last day ' +
      'where it does not (the 31st: 30 April, 28 or 29 February, 31 May). A period never makes two documents. ' +
      'A worker that was down makes every missed period, once each, in order; so does a startDate in the past. ' +
      'frequency not one of weekly, fortnightly, monthly, quarterly, yearly, endDate before startDate, or a ' +
      'contactId of no contact: 400 naming the field. 201 on create; 200 with the schedule when clientId was ' +
      'already used.',
    body: RecurringCreate,
    response: { 201: Recurring, 200: Recurring },
    handler: async ({ body }, ctx) => createRecurring(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/recurring',
    summary: 'Recurring schedules, by next run date, paged',
    description:
      'Filters (applied before paging): status (active, paused, ended; anything else is 400), contactId.',
    query: RecurringListQuery,
    response: { 200: Paged(Recurring) },
    handler: async ({ query }, ctx) => listRecurring(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/recurring/{id}',
    summary: 'One recurring schedule with its template lines',
    params: IdParams,
    response: { 200: Recurring },
    handler: async ({ params }, ctx) => getRecurring(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/recurring/{id}',
    summary: 'Change a schedule: lines (replaced whole), dates, frequency, terms; pause and resume',
    description:
      'Documents already made do not change. nextDate moves the next run, and the runs after it count from ' +
      'it; it must be after the last period made (400). A new frequency or interval keeps the next run and ' +
      'steps from it. startDate changes only before the first document (400). active false pauses; active ' +
      'true resumes, and a nextDate that passed meanwhile moves to the first run date from today (periods ' +
      'passed while paused are not made) unless nextDate is given with it; the same holds for an ended ' +
      'schedule given a later endDate.',
    params: IdParams,
    body: RecurringUpdate,
    response: { 200: Recurring },
    handler: async ({ params, body }, ctx) => updateRecurring(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/recurring/{id}',
    summary: 'Delete a schedule: it stops (marked deleted); the documents it made stay',
    description: '204; the schedule answers 404 from then on.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteRecurring(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/recurring/{id}/invoices',
    summary: 'The documents the schedule made, by period (oldest first), paged',
    params: IdParams,
    query: Type.Object(pageQueryProperties),
    response: { 200: Paged(Invoice) },
    handler: async ({ params, query }, ctx) => listRecurringDocuments(ctx, params.id, query),
  }),
];
