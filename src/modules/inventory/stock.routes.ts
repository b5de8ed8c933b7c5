// Stock on hand now, per product (company-scoped, paged).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { onHand } from './stock.onhand.ts';
import { OnHand, OnHandQuery } from './stock.schemas.ts';

export const stockRoutes: AnyRoute[] = [
  defineRoute({
    module: 'inventory',
    companyScoped: true,
    access: 'read',
    permission: ['inventory', 'read'],
    method: 'GET',
    path: '/api/inventory/stock',
    operationId: 'listStockOnHand',
    tag: 'Stock movements',
    summary: 'Stock on hand now, per tracked product, with value; paged by product',
    description:
      "Per tracked, live product (by name, then id): on hand in the company's locations and in total, at " +
      'cost, from the running balances (the sum of its movements). Filters: productId; locationId (only ' +
      'products with stock records there, and only that location counted; a location not of the company is ' +
      '400); belowReorder=true (products with a reorder point that on hand has reached or passed).',
    query: OnHandQuery,
    response: { 200: Paged(OnHand) },
    handler: async ({ query }, ctx) => onHand(ctx, query),
  }),
];
