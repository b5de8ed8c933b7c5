import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged, pageQueryProperties } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Invoice } from './invoices.schemas.ts';
import { Recurring, RecurringCreate, RecurringListQuery, RecurringUpdate } from './recurring.schemas.ts';
import {
  createRecurring,
  deleteRecurring,
  getRecurring,
  listRecurring,
  listRecurringDocuments,
  updateRecurring,
} from './recurring.service.ts';

const { read, write } = routeGroup({ module: 'invoices', companyScoped: true });

export const recurringRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/recurring',
    operationId: 'createRecurringInvoice',
    tag: 'Recurring invoices',
    errors: ['CONFLICT', 'CREDIT_NOTE_REQUIRED'],
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
    operationId: 'listRecurringInvoices',
    tag: 'Recurring invoices',
    summary: 'Recurring schedules, by next run date, paged',
    description:
      'Filters (applied before paging): status (active, paused, ended; anything else is 400), contactId. sort: ' +
      'date (the next run date, then creation), createdAt or updatedAt, `-` for descending; default date; ties by ' +
      'id. updatedSince: schedules changed at or after the instant (a run included), deleted ones too (deletedAt ' +
      'set; they are listed nowhere else).',
    query: RecurringListQuery,
    response: { 200: Paged(Recurring) },
    handler: async ({ query }, ctx) => listRecurring(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/recurring/{id}',
    operationId: 'getRecurringInvoice',
    tag: 'Recurring invoices',
    summary: 'One recurring schedule with its template lines',
    params: IdParams,
    response: { 200: Recurring },
    handler: async ({ params }, ctx) => getRecurring(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/recurring/{id}',
    operationId: 'updateRecurringInvoice',
    tag: 'Recurring invoices',
    errors: ['CREDIT_NOTE_REQUIRED'],
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
    operationId: 'deleteRecurringInvoice',
    tag: 'Recurring invoices',
    summary: 'Delete a schedule: it stops (marked deleted); the documents it made stay',
    description:
      '204; the schedule answers 404 from then on, and is listed only to updatedSince, with deletedAt.',
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
    operationId: 'listRecurringInvoiceDocuments',
    tag: 'Recurring invoices',
    summary: 'The documents the schedule made, by period (oldest first), paged',
    params: IdParams,
    query: Type.Object(pageQueryProperties),
    response: { 200: Paged(Invoice) },
    handler: async ({ params, query }, ctx) => listRecurringDocuments(ctx, params.id, query),
  }),
];
