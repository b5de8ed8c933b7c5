// Opportunities (tenant-wide, like the rest of the CRM): CRUD with lines, won/lost/reopen, the
// quote made from a won one, and the pipeline report.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { quoteOpportunity } from './opportunities.quote.ts';
import {
  LostBody,
  Opportunity,
  OpportunityCreate,
  OpportunityListQuery,
  OpportunityUpdate,
  QuoteBody,
  WonBody,
} from './opportunities.schemas.ts';
import {
  closeOpportunity,
  createOpportunity,
  deleteOpportunity,
  getOpportunity,
  listOpportunities,
  reopenOpportunity,
  updateOpportunity,
} from './opportunities.service.ts';
import { PipelineQuery, PipelineReport, pipelineReport } from './pipeline.ts';

const TENANT_WIDE = 'Opportunities are one book per tenant: no X-Company-Id is needed.';
const LINES =
  "Lines: a productId of the tenant (400 otherwise; description and unitPrice default to the product's) or a " +
  'free-text description with a unitPrice; amount = quantity × unitPrice × (1 − discountPercent/100), rounded ' +
  "half-up to cents. The opportunity's amount is the lines' total when it has lines, else the amount given. " +
  "weightedAmount: amount × the stage's probability / 100 while open; the amount once won; 0 once lost.";

const { read, write } = routeGroup({ module: 'crm', tag: 'Opportunities' });

export const opportunitiesRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/opportunities',
    operationId: 'listOpportunities',
    summary: 'List opportunities (paged), filtered by status, stage, owner and contact',
    description:
      `${TENANT_WIDE} Oldest first by default; sort by createdAt, updatedAt or date (the expected close date). ` +
      'Deleted ones are left out, except with updatedSince: a sync then sees every one changed since, deleted ' +
      'ones with deletedAt set. limit defaults to 50, at most 200.',
    query: OpportunityListQuery,
    response: { 200: Paged(Opportunity) },
    handler: async ({ query }, ctx) => listOpportunities(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/opportunities',
    operationId: 'createOpportunity',
    errors: ['CONFLICT'],
    summary: 'Create an opportunity, with lines or an amount',
    description:
      `${TENANT_WIDE} ${LINES} stageId defaults to the pipeline's first stage (409 when it has none); ownerId ` +
      "to the caller (a person, or a user key's owner); contactId, when given, must be a live contact (400). " +
      "An amount that disagrees with the lines' total is a 400.",
    body: OpportunityCreate,
    response: { 201: Opportunity },
    handler: async ({ body }, ctx) => createOpportunity(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/opportunities/{id}',
    operationId: 'getOpportunity',
    summary: 'One opportunity with its lines, stage and quote',
    description: "A deleted opportunity, or another tenant's, is a 404.",
    params: IdParams,
    response: { 200: Opportunity },
    handler: async ({ params }, ctx) => getOpportunity(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/opportunities/{id}',
    operationId: 'updateOpportunity',
    errors: ['CONFLICT'],
    summary: 'Change an opportunity: only the fields sent; lines replaced whole',
    description:
      `${LINES} stageId, lines and amount change only while it is open (409 once won or lost: reopen it ` +
      'first). null clears contactId, ownerId or expectedCloseDate.',
    params: IdParams,
    body: OpportunityUpdate,
    response: { 200: Opportunity },
    handler: async ({ params, body }, ctx) => updateOpportunity(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/opportunities/{id}',
    operationId: 'deleteOpportunity',
    summary: 'Delete an opportunity (soft): it leaves the lists, the pipeline and the reports',
    description: 'Its id answers 404 after; a list read with updatedSince shows it with deletedAt set.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteOpportunity(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/opportunities/{id}/won',
    operationId: 'winOpportunity',
    errors: ['CONFLICT'],
    summary: 'Mark an open opportunity won, with a reason if given',
    description:
      'From open only (409 otherwise). closedAt is now: it counts towards the targets whose period holds it.',
    params: IdParams,
    body: WonBody,
    bodyOptional: true,
    response: { 200: Opportunity },
    handler: async ({ params, body }, ctx) => closeOpportunity(ctx, params.id, 'won', body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/opportunities/{id}/lost',
    operationId: 'loseOpportunity',
    errors: ['CONFLICT'],
    summary: 'Mark an open opportunity lost, with the reason (required)',
    description: 'From open only (409 otherwise).',
    params: IdParams,
    body: LostBody,
    response: { 200: Opportunity },
    handler: async ({ params, body }, ctx) => closeOpportunity(ctx, params.id, 'lost', body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/opportunities/{id}/reopen',
    operationId: 'reopenOpportunity',
    errors: ['CONFLICT'],
    summary: 'Put a won or lost opportunity back in the pipeline',
    description:
      'Its reason and closedAt are cleared; it goes back to the stage it closed at (the first stage when that ' +
      'one was deleted since). 409 when it is open, or once a quote was made from it.',
    params: IdParams,
    response: { 200: Opportunity },
    handler: async ({ params }, ctx) => reopenOpportunity(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/opportunities/{id}/quote',
    operationId: 'quoteOpportunity',
    errors: ['CONFLICT', 'CREDIT_NOTE_REQUIRED'],
    summary: 'Make the quote (a draft sales document) of a won opportunity, lines carried over',
    description:
      'One call: a draft quote in the company named by companyId (a live company of the tenant, else 400 ' +
      "naming it), for the opportunity's contact (400 naming contactId when it has none), dated date (default " +
      'today, UTC) and valid for validDays (its due date; default 30). Each line carries its description (the ' +
      "product's name by default), quantity, unit price and discount; VAT is the invoices module's default (the " +
      "standard rate when the company is VAT registered). Without lines, one line of the opportunity's name and " +
      'amount. An open opportunity is marked won by it; a lost one is a 409. Needs invoices:write as well as ' +
      'crm:write. A second call is a 409 naming the quote made (quoteId, quoteNumber). Answers 201 with the ' +
      'opportunity, quoteId, quoteCompanyId and quoteNumber set: GET /api/invoices/{quoteId} with X-Company-Id ' +
      'quoteCompanyId reads the quote.',
    params: IdParams,
    body: QuoteBody,
    response: { 201: Opportunity },
    handler: async ({ params, body }, ctx) => quoteOpportunity(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/pipeline',
    operationId: 'getPipelineReport',
    summary: 'The pipeline: open opportunities by stage, value and weighted value; conversion rates',
    description:
      "Per live stage, in order: count, value (Σ amount) and weightedValue (Σ amount × the stage's probability " +
      '/ 100, each rounded half-up to cents), and their totals. conversion counts what was created in the period ' +
      '(from and to, UTC days, both optional): leadConversionRate = converted / created leads; winRate = won / ' +
      '(won + lost) opportunities, in percent with two decimals (null when nothing to divide by).',
    query: PipelineQuery,
    response: { 200: PipelineReport },
    handler: async ({ query }, ctx) => pipelineReport(ctx, query),
  }),
];
