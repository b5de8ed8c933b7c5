// Serial numbers in the company: where each is (issue 20).
import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { Serial, SerialListQuery } from './batches.schemas.ts';
import { listSerials } from './serials.service.ts';

export const serialsRoutes: AnyRoute[] = [
  defineRoute({
    module: 'inventory',
    companyScoped: true,
    tag: 'Batches and serials',
    access: 'read' as const,
    permission: ['inventory', 'read'] as [Resource, Action],
    method: 'GET',
    path: '/api/inventory/serials',
    operationId: 'listStockSerials',
    summary: 'Serial numbers: where each is (a location of this company) or out of stock; paged',
    description:
      'A serial is never in two places: receiving one already in stock is a 409 SERIAL_IN_STOCK, taking one ' +
      'out of a location where it is not a 409 SERIAL_NOT_IN_STOCK. Listed: serials in stock in this company, ' +
      'and serials out of stock that this company has moved (sold, returned out). status filters either; ' +
      "serial finds one number exactly; history=true adds each serial's movements in this company, oldest " +
      'first. sort: createdAt (default), updatedAt; updatedSince for a sync.',
    query: SerialListQuery,
    response: { 200: Paged(Serial) },
    handler: async ({ query }, ctx) => listSerials(ctx, query),
  }),
];
