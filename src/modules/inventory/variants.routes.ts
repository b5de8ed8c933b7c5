// Routes of a product's variants (tenant-wide, like the products book).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Variant, VariantCreate, VariantParams, VariantUpdate } from './variants.schemas.ts';
import { createVariant, deleteVariant, getVariant, listVariants, updateVariant } from './variants.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Products' });

const ABOUT =
  'A variant (size, colour) of a product: its own SKU, unique in the tenant in any case among live products and ' +
  "variants (409 SKU_TAKEN naming sku), barcode, price (null: the product's) and stock. Tenant-wide like the " +
  "products book (no X-Company-Id). A deleted product, or another tenant's, is a 404.";

export const variantsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/products/{id}/variants',
    operationId: 'listProductVariants',
    summary: "A product's live variants (bare array, by SKU)",
    description: ABOUT,
    params: IdParams,
    response: { 200: Type.Array(Variant) },
    handler: async ({ params }, ctx) => listVariants(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/products/{id}/variants',
    operationId: 'createProductVariant',
    errors: ['SKU_TAKEN', 'CONFLICT'],
    summary: 'Add a variant to a product (201), or answer the one of a clientId already used (200)',
    description: ABOUT,
    params: IdParams,
    body: VariantCreate,
    response: createdOrExisting(Variant),
    handler: async ({ params, body }, ctx) => createVariant(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/products/{id}/variants/{variantId}',
    operationId: 'getProductVariant',
    summary: 'One variant of a product',
    description: ABOUT,
    params: VariantParams,
    response: { 200: Variant },
    handler: async ({ params }, ctx) => getVariant(ctx, params.id, params.variantId),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/inventory/products/{id}/variants/{variantId}',
    operationId: 'updateProductVariant',
    errors: ['SKU_TAKEN'],
    summary: 'Change a variant: only the fields sent; null clears barcode, unitPrice and weight',
    description: ABOUT,
    params: VariantParams,
    body: VariantUpdate,
    response: { 200: Variant },
    handler: async ({ params, body }, ctx) => updateVariant(ctx, params.id, params.variantId, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/inventory/products/{id}/variants/{variantId}',
    operationId: 'deleteProductVariant',
    summary: 'Delete a variant (soft): it answers 404 from then on and its SKU is free again',
    description: ABOUT,
    params: VariantParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteVariant(ctx, params.id, params.variantId);
      ctx.reply.code(204);
      return null;
    },
  }),
];
