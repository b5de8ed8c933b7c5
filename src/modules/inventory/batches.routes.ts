// Batches of a product in the company, and FEFO picking (issue 20).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { Batch, BatchListQuery, FefoPick, FefoQuery } from './batches.schemas.ts';
import { listBatches, pickFefo } from './batches.service.ts';

const { read } = routeGroup({ module: 'inventory', tag: 'Batches and serials', companyScoped: true });

export const batchesRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/batches',
    operationId: 'listStockBatches',
    summary: "A product's batches, earliest expiry first, with what is on hand of each per location",
    description:
      'Every batch of the item (the product, or the variant named), even those used up (onHand 0, no ' +
      "locations). Quantities are this company's (X-Company-Id). A bare list: bounded per product. An " +
      "unknown product (or another tenant's) lists nothing.",
    query: BatchListQuery,
    response: { 200: Type.Array(Batch) },
    handler: async ({ query }, ctx) => listBatches(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/batches/fefo',
    operationId: 'pickStockBatches',
    summary: 'The batches to pick for a quantity at a location: first expiry, first out',
    description:
      'Batches with stock at the location, earliest expiry first, batches without an expiry last; each ' +
      'picked up to what is there until the quantity is covered. Expired batches (expiry before `date`, ' +
      'default today) are EXCLUDED, never picked. short is what the batches there cannot cover. Nothing ' +
      'moves: this only advises.',
    query: FefoQuery,
    response: { 200: FefoPick },
    handler: async ({ query }, ctx) => pickFefo(ctx, query),
  }),
];
