// Stock takes (count sheets) of a company's locations (issue 20).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { StockTake, StockTakeCounts, StockTakeCreate, StockTakeListQuery } from './stock-takes.schemas.ts';
import {
  approveStockTake,
  cancelStockTake,
  createStockTake,
  getStockTake,
  listStockTakes,
  putCounts,
} from './stock-takes.service.ts';

const { read, write, approve } = routeGroup({ module: 'inventory', tag: 'Stock takes', companyScoped: true });

const VARIANCE =
  "The variance booked is the count less what is on hand at the location AT APPROVAL, not the sheet's " +
  'expected figure: stock sold or received while counting is neither lost nor booked twice (count after ' +
  "the day's movements are in, or approve before new ones). A count in progress freezes nothing.";

export const stockTakesRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/stock-takes',
    operationId: 'createStockTake',
    errors: ['CONFLICT'],
    summary: 'Start a stock take: the count sheet of a location with the quantities expected (201)',
    description:
      "locationId defaults to the company's default location. One line per item (variant) and batch: with " +
      'productIds, every balance of those products there (a product never stocked there: one line expecting 0); ' +
      'without, every item with stock there (not zero). Serial-tracked products are not counted on a sheet ' +
      '(400 naming productIds[i]): find their units by serial. Status counting. A clientId becomes the id: ' +
      "sent again, 200 with the sheet it made; the id of another company's stock take is a 409 naming clientId.",
    body: StockTakeCreate,
    response: createdOrExisting(StockTake),
    handler: async ({ body }, ctx) => createStockTake(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/stock-takes',
    operationId: 'listStockTakes',
    summary: 'Stock takes, newest first, paged',
    description: 'Filters: status, updatedSince. sort: date, createdAt, updatedAt; `-` for descending.',
    query: StockTakeListQuery,
    response: { 200: Paged(StockTake) },
    handler: async ({ query }, ctx) => listStockTakes(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/stock-takes/{id}',
    operationId: 'getStockTake',
    summary: 'One stock take with its lines (expected and counted)',
    params: IdParams,
    response: { 200: StockTake },
    handler: async ({ params }, ctx) => getStockTake(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/inventory/stock-takes/{id}/counts',
    operationId: 'putStockTakeCounts',
    errors: ['STOCK_TAKE_CLOSED'],
    summary: 'Enter counts: the lines named take their counted quantity (null clears); the rest keep theirs',
    description:
      'While counting only (else 409 STOCK_TAKE_CLOSED). A lineId not on the sheet is a 400 naming it.',
    params: IdParams,
    body: StockTakeCounts,
    response: { 200: StockTake },
    handler: async ({ params, body }, ctx) => putCounts(ctx, params.id, body),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/inventory/stock-takes/{id}/approve',
    operationId: 'approveStockTake',
    errors: ['STOCK_TAKE_CLOSED', 'PERIOD_LOCKED'],
    summary: "Approve a stock take: book every counted line's variance in one journal entry",
    description:
      `${VARIANCE} Lines not counted (null) are left alone. Found stock comes in at the item's current ` +
      "average unit cost; missing stock goes out at its cost (average, or FIFO's oldest layers). One entry on " +
      "the sheet's date: inventory against 5200 Stock adjustments (entryId; null when no variance carries " +
      'value). Needs inventory:approve.',
    params: IdParams,
    response: { 200: StockTake },
    handler: async ({ params }, ctx) => approveStockTake(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/stock-takes/{id}/cancel',
    operationId: 'cancelStockTake',
    errors: ['STOCK_TAKE_CLOSED'],
    summary: 'Cancel a stock take in progress: nothing moves',
    params: IdParams,
    response: { 200: StockTake },
    handler: async ({ params }, ctx) => cancelStockTake(ctx, params.id),
  }),
];
