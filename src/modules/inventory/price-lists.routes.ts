// Routes of price lists (tenant-wide, like the products book: no X-Company-Id).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  ContactsPut,
  PriceList,
  PriceListContacts,
  PriceListCreate,
  PriceListQuery,
  PriceListUpdate,
  PricesPut,
} from './price-lists.schemas.ts';
import {
  createPriceList,
  deletePriceList,
  getPriceList,
  listContacts,
  listPriceLists,
  putContacts,
  putPrices,
  updatePriceList,
} from './price-lists.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Price lists' });

const ABOUT =
  'Price lists are one book per tenant (no X-Company-Id). A list is for one company (companyId) or every ' +
  'company (null). It prices products (variantId null) and variants, excluding VAT, up to four decimals. A ' +
  'contact takes its own list (PUT /api/inventory/price-lists/{id}/contacts), else the first active list by ' +
  'name whose contactTags meet its tags; a sales line naming a product without a unitPrice takes that price ' +
  "(the variant's, else the product's item), else the book price. name is unique in any case (409 CONFLICT).";

export const priceListsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/price-lists',
    operationId: 'listPriceLists',
    summary: 'List price lists (paged) with their prices',
    description:
      `${ABOUT} Ordered by name, or by updatedAt or createdAt (sort); companyId keeps the lists that company's ` +
      "documents may take (its own and every company's). Deleted lists are left out except with updatedSince.",
    query: PriceListQuery,
    response: { 200: Paged(PriceList) },
    handler: async ({ query }, ctx) => listPriceLists(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/price-lists',
    operationId: 'createPriceList',
    errors: ['CONFLICT'],
    summary: 'Create a price list (201), or answer the one of a clientId already used (200)',
    description:
      `${ABOUT} prices: the same product (and variant) twice, a product not live, or a variant not of its ` +
      'product is a 400 naming prices[i]. companyId not a company of the tenant: 400.',
    body: PriceListCreate,
    response: createdOrExisting(PriceList),
    handler: async ({ body }, ctx) => createPriceList(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/price-lists/{id}',
    operationId: 'getPriceList',
    summary: 'One price list with its prices',
    description: `${ABOUT} A deleted list, or another tenant's, is a 404.`,
    params: IdParams,
    response: { 200: PriceList },
    handler: async ({ params }, ctx) => getPriceList(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/inventory/price-lists/{id}',
    operationId: 'updatePriceList',
    errors: ['CONFLICT'],
    summary: "Change a list's name, company, currency, tags or active state (prices: PUT .../prices)",
    description: ABOUT,
    params: IdParams,
    body: PriceListUpdate,
    response: { 200: PriceList },
    handler: async ({ params, body }, ctx) => updatePriceList(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/inventory/price-lists/{id}',
    operationId: 'deletePriceList',
    summary: 'Delete a price list (soft): contacts that had it fall back to their tags',
    description: ABOUT,
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deletePriceList(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/inventory/price-lists/{id}/prices',
    operationId: 'putPriceListPrices',
    summary: "Replace a list's prices with the set sent ([] empties it); answers the list",
    description: `${ABOUT} Replaced prices are retired, not erased.`,
    params: IdParams,
    body: PricesPut,
    response: { 200: PriceList },
    handler: async ({ params, body }, ctx) => putPrices(ctx, params.id, body.prices),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/price-lists/{id}/contacts',
    operationId: 'getPriceListContacts',
    summary: 'The contacts whose own list this is',
    description: ABOUT,
    params: IdParams,
    response: { 200: PriceListContacts },
    handler: async ({ params }, ctx) => listContacts(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/inventory/price-lists/{id}/contacts',
    operationId: 'putPriceListContacts',
    summary: 'Set the contacts whose own list this is (the whole set; others lose it; [] clears)',
    description:
      `${ABOUT} A contact has one own list: naming it here takes it off any other. A contact not live in the ` +
      'tenant is a 400 naming contactIds[i].',
    params: IdParams,
    body: ContactsPut,
    response: { 200: PriceListContacts },
    handler: async ({ params, body }, ctx) => putContacts(ctx, params.id, body),
  }),
];
