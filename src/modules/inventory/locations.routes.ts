// Routes of a company's stock locations (company-scoped: X-Company-Id).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Location, LocationCreate, LocationUpdate } from './locations.schemas.ts';
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
} from './locations.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Stock locations', companyScoped: true });

const ABOUT =
  "The company's locations: warehouses, bins within a warehouse (kind bin, parentId its warehouse), and one " +
  'transit location (TRANSIT) that transfers pass through, which is listed but cannot be changed or deleted ' +
  '(409). A company starts with MAIN (Main warehouse, the default) and TRANSIT, made on first use. code is ' +
  'unique in the company in any case (409 CONFLICT naming code). One location is the default at a time.';

export const locationsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/locations',
    operationId: 'listStockLocations',
    summary: "The company's live locations (bare array, by code)",
    description: ABOUT,
    response: { 200: Type.Array(Location) },
    handler: async (_input, ctx) => listLocations(ctx),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/locations',
    operationId: 'createStockLocation',
    errors: ['CONFLICT'],
    summary: 'Add a warehouse or a bin (201)',
    description: `${ABOUT} A bin needs parentId, a live warehouse of the company (400 naming parentId); a warehouse takes none. isDefault true makes it the default in the same transaction.`,
    body: LocationCreate,
    response: { 201: Location },
    handler: async ({ body }, ctx) => createLocation(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/locations/{id}',
    operationId: 'getStockLocation',
    summary: 'One location',
    description: `${ABOUT} A deleted location, or another company's, is a 404.`,
    params: IdParams,
    response: { 200: Location },
    handler: async ({ params }, ctx) => getLocation(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/inventory/locations/{id}',
    operationId: 'updateStockLocation',
    errors: ['CONFLICT'],
    summary: "Change a location: code, name, a bin's warehouse, or make it the default",
    description: ABOUT,
    params: IdParams,
    body: LocationUpdate,
    response: { 200: Location },
    handler: async ({ params, body }, ctx) => updateLocation(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/inventory/locations/{id}',
    operationId: 'deleteStockLocation',
    errors: ['CONFLICT', 'LOCATION_HAS_STOCK'],
    summary: 'Delete a location (soft)',
    description:
      `${ABOUT} Refused with 409 for the transit location, the default (make another the default first), a ` +
      'warehouse with bins, and a location holding stock (LOCATION_HAS_STOCK).',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteLocation(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
