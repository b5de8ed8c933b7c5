// Stock movements over HTTP (company-scoped): the paged list and one by id.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Movement, MovementListQuery } from './movements.schemas.ts';
import { getMovement, listMovements } from './movements.service.ts';

const { read } = routeGroup({ module: 'inventory', tag: 'Stock movements', companyScoped: true });

export const movementsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/movements',
    operationId: 'listStockMovements',
    summary: 'Stock movements, newest first, paged',
    description:
      'Every change of stock is one immutable movement. Filters (before paging): productId, variantId, ' +
      'locationId, type, from and to (dates, inclusive; to before from is a 400). Ordered by date, then ' +
      'creation, then id, all descending. Movements never change, so there is no updatedSince.',
    query: MovementListQuery,
    response: { 200: Paged(Movement) },
    handler: async ({ query }, ctx) => listMovements(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/movements/{id}',
    operationId: 'getStockMovement',
    summary: 'One stock movement',
    params: IdParams,
    response: { 200: Movement },
    handler: async ({ params }, ctx) => getMovement(ctx, params.id),
  }),
];
