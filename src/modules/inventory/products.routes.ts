import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Product, ProductCreate, ProductListQuery, ProductUpdate } from './products.schemas.ts';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.ts';

const BOOK =
  'Products are one book per tenant, shared by all its companies: no X-Company-Id is needed, and one sent ' +
  'is ignored. The sandbox\'s sample products (names starting "Sandbox · ") are in it too.';

const SKU =
  'sku is unique in the tenant among live products and variants, compared in any case (409 SKU_TAKEN, field ' +
  "sku); a deleted product's SKU may be used again.";

const STOCK =
  'costMethod (average | fifo, default average) and tracking (none | batch | serial, default none) are fixed ' +
  'once stock of the product has moved (409 PRODUCT_HAS_STOCK naming the field). allowNegative defaults to ' +
  'true for tracking none and false for batch or serial. Quantities (reorderPoint, reorderQuantity) are in the ' +
  "base unit (baseUnit, default 'each') with up to four decimals; weight is kg per base unit. The account " +
  "codes name accounts of the chart (each company's own), null meaning the company's Sales, Cost of sales " +
  'and Inventory accounts. onHand is the sum over every company, location and variant.';

export const productRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/inventory/products',
    operationId: 'listProducts',
    tag: 'Products',
    module: 'inventory',
    access: 'read',
    permission: ['inventory', 'read'],
    summary: 'List products (paged), filtered by text and active state',
    description:
      `${BOOK} Ordered by name (any case), then id; sort orders by updatedAt or createdAt instead (\`-\` for ` +
      'descending; ties by id in the same direction). q looks for the text, in any case, in sku, name and ' +
      'description. Without isActive both active and inactive products are listed. Deleted products are ' +
      'left out, except with updatedSince: a sync then sees every product changed since, deleted ones with ' +
      'deletedAt set. ' +
      'barcode finds that barcode exactly; belowReorder=true keeps products with a reorder point whose onHand ' +
      'is at or below it. Filters apply before paging; limit defaults to 50, at most 200.',
    query: ProductListQuery,
    response: { 200: Paged(Product) },
    handler: async ({ query }, ctx) => listProducts(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/inventory/products',
    operationId: 'createProduct',
    tag: 'Products',
    errors: ['SKU_TAKEN', 'CONFLICT'],
    module: 'inventory',
    access: 'write',
    permission: ['inventory', 'write'],
    summary: 'Create a product (201), or answer the existing one for a clientId already used (200)',
    description:
      `${BOOK} ${SKU} ${STOCK} unitPrice excludes VAT and takes up to four decimals (more: 400 naming unitPrice); ` +
      'VAT by tax code, as lines take it: salesTaxCode (standard, zero, zero_export, exempt, out_of_scope, ' +
      'accommodation_short, accommodation_long; default standard) and purchaseTaxCode (standard, ' +
      'standard_capital, zero, exempt, out_of_scope; default standard, or zero or exempt when the sales code ' +
      'is); a document line naming the product with neither taxCode nor vatRate takes them. vatRate is ' +
      'accepted instead of salesTaxCode: 0 zero, the standard rate of today standard, null standard; any ' +
      'other rate, or one that is not salesTaxCode’s, is 400 naming vatRate. isTracked ' +
      'defaults to false, isActive to true. sku and name are trimmed and must not be blank. A clientId that ' +
      'is not a UUID is a 400 naming clientId; one of a deleted product is a 409.',
    body: ProductCreate,
    response: createdOrExisting(Product),
    handler: async ({ body }, ctx) => createProduct(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/inventory/products/{id}',
    operationId: 'getProduct',
    tag: 'Products',
    module: 'inventory',
    access: 'read',
    permission: ['inventory', 'read'],
    summary: 'One product',
    description: `${BOOK} A deleted product, or another tenant's, is a 404.`,
    params: IdParams,
    response: { 200: Product },
    handler: async ({ params }, ctx) => getProduct(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/inventory/products/{id}',
    operationId: 'updateProduct',
    tag: 'Products',
    errors: ['SKU_TAKEN', 'PRODUCT_HAS_STOCK'],
    module: 'inventory',
    access: 'write',
    permission: ['inventory', 'write'],
    summary: 'Change a product: only the fields sent; null clears description, or vatRate back to standard',
    description:
      `${BOOK} ${SKU} ${STOCK} vatRate alone keeps salesTaxCode when it is that code's rate today, else names ` +
      'zero (0) or standard (the standard rate); any other rate is 400 naming vatRate. Setting either clears ' +
      'taxNote.',
    params: IdParams,
    body: ProductUpdate,
    response: { 200: Product },
    handler: async ({ params, body }, ctx) => updateProduct(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/inventory/products/{id}',
    operationId: 'deleteProduct',
    tag: 'Products',
    module: 'inventory',
    access: 'write',
    permission: ['inventory', 'write'],
    summary: 'Delete a product (soft): it leaves the book and its id answers 404; its SKU is free again',
    description: `${BOOK} Nothing is erased: the record stays with a deleted marker (deletedAt), which a list read with updatedSince shows.`,
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteProduct(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
