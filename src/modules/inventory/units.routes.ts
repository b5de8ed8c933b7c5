// Routes of a product's units of measure (tenant-wide, like the products book).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Unit, UnitCreate, UnitParams } from './units.schemas.ts';
import { createUnit, getUnit, listUnits, retireUnit } from './units.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Products' });

const ABOUT =
  "Units of measure besides the product's base unit: {name: 'box', factor: 12} means one box is 12 base units. " +
  'Stock routes taking a unit convert quantities with it; stock itself is always kept in base units. ' +
  "A deleted product, or another tenant's, is a 404.";

export const unitsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/products/{id}/units',
    operationId: 'listProductUnits',
    summary: "A product's units (bare array, by name)",
    description: ABOUT,
    params: IdParams,
    response: { 200: Type.Array(Unit) },
    handler: async ({ params }, ctx) => listUnits(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/products/{id}/units',
    operationId: 'createProductUnit',
    errors: ['CONFLICT'],
    summary: 'Add a unit to a product (201)',
    description: `${ABOUT} A name the product has already, or its base unit's name, is a 409 CONFLICT naming name.`,
    params: IdParams,
    body: UnitCreate,
    response: { 201: Unit },
    handler: async ({ params, body }, ctx) => createUnit(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/products/{id}/units/{unitId}',
    operationId: 'getProductUnit',
    summary: 'One unit of a product',
    description: ABOUT,
    params: UnitParams,
    response: { 200: Unit },
    handler: async ({ params }, ctx) => getUnit(ctx, params.id, params.unitId),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/inventory/products/{id}/units/{unitId}',
    operationId: 'retireProductUnit',
    summary: 'Retire a unit: no quantity may be given in it from now on (its name is free again)',
    description: ABOUT,
    params: UnitParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await retireUnit(ctx, params.id, params.unitId);
      ctx.reply.code(204);
      return null;
    },
  }),
];
