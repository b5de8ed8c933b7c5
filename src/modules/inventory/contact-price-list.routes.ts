// GET /api/contacts/{id}/price-list: the list a contact takes. Module contacts, by DECISIONS.md's
// route-to-module rule (`/api/contacts*`); on a plan without inventory no list exists, so it
// answers priceList null.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { contactPriceList } from './price-lists.lookup.ts';
import { ContactPriceList, ContactPriceListQuery } from './price-lists.schemas.ts';

export const contactPriceListRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/contacts/{id}/price-list',
    operationId: 'getContactPriceList',
    tag: 'Price lists',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'The price list a contact takes, with its prices (priceList null: none)',
    description:
      "The contact's own list (set with PUT /api/inventory/price-lists/{id}/contacts) when it is live and " +
      "active, else the first active list by name whose contactTags meet the contact's tags, else null. With " +
      "companyId, only lists of that company or of every company count (the list that company's documents " +
      "use). A deleted contact, or another tenant's, is a 404.",
    params: IdParams,
    query: ContactPriceListQuery,
    response: { 200: ContactPriceList },
    handler: async ({ params, query }, ctx) => contactPriceList(ctx, params.id, query.companyId),
  }),
];
