// Landed costs: freight, duty and the like spread over stock receipts (issue 20).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { postLandedCost } from './landed-costs.post.ts';
import { LandedCost, LandedCostCreate, LandedCostListQuery } from './landed-costs.schemas.ts';
import {
  createLandedCost,
  deleteLandedCost,
  getLandedCost,
  listLandedCosts,
} from './landed-costs.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Landed costs', companyScoped: true });

export const landedCostsRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/landed-costs',
    operationId: 'createLandedCost',
    errors: ['BILL_LINE_USED', 'CONFLICT'],
    summary: 'Prepare a landed cost (a draft): charges from bill lines, spread over stock receipts',
    description:
      "Each charge names a line of one of the company's approved bills (the freight or duty was booked to the " +
      "line's account when the bill was approved) and the amount of it to spread; a line's net amount can be " +
      'spread once in full across all live landed costs (more: 409 BILL_LINE_USED). The charge is a service or ' +
      'expense line: a line of stock (a tracked product, posted to inventory or GRNI) is 400 naming ' +
      'charges[i].billLineId. receipts are stock movements of type purchase or receipt in this company, none ' +
      'dated after the landed cost (400 naming date: value does not come before the goods). The sum of the ' +
      'charges is shared over them by ' +
      "method (value, quantity, or quantity × the product's weight), in cents by the largest remainder, so the " +
      'shares (allocations) sum exactly to amount. Nothing is posted until POST …/post. A clientId becomes ' +
      'the id: sent again, 200 with the landed cost it made (its bill-line amounts are not taken twice); the ' +
      "id of another company's landed cost, or of a deleted one, is a 409 naming clientId.",
    body: LandedCostCreate,
    response: createdOrExisting(LandedCost),
    handler: async ({ body }, ctx) => createLandedCost(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/landed-costs',
    operationId: 'listLandedCosts',
    summary: 'Landed costs, newest first, paged',
    description:
      'Filters: status, updatedSince (deleted drafts too, with deletedAt). sort: date, createdAt, updatedAt; ' +
      '`-` for descending.',
    query: LandedCostListQuery,
    response: { 200: Paged(LandedCost) },
    handler: async ({ query }, ctx) => listLandedCosts(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/landed-costs/{id}',
    operationId: 'getLandedCost',
    summary: 'One landed cost with its charges and allocations',
    params: IdParams,
    response: { 200: LandedCost },
    handler: async ({ params }, ctx) => getLandedCost(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/landed-costs/{id}/post',
    operationId: 'postLandedCost',
    errors: ['LANDED_COST_POSTED', 'PERIOD_LOCKED'],
    summary: 'Post a landed cost: raise the cost of the stock still on hand, the rest to cost of sales',
    description:
      "For each receipt, the part of its share for units still on hand raises the item's cost in the company " +
      "(the average, or for FIFO that receipt's layer), so the next sale costs the landed price; the part for " +
      'units gone goes to cost of sales. FIFO knows what of the receipt is left (its layer); the average ' +
      "method follows the receipt's units through the pool: every movement out since took its proportion of " +
      "them, as the sale would have carried the cost had it been known. One entry on the landed cost's " +
      "date: Dr inventory (and cost of sales) Cr each charge's bill line account. Posted twice: 409 " +
      'LANDED_COST_POSTED.',
    params: IdParams,
    response: { 200: LandedCost },
    handler: async ({ params }, ctx) => postLandedCost(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/landed-costs/{id}',
    operationId: 'deleteLandedCost',
    errors: ['LANDED_COST_POSTED'],
    summary: 'Delete a draft landed cost (soft): its bill lines may be spread again',
    description: 'A posted landed cost stays (409 LANDED_COST_POSTED).',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteLandedCost(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
