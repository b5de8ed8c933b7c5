// The stock valuation at a date, tied to the ledger (company-scoped).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Valuation, ValuationQuery } from './stock.schemas.ts';
import { valuation } from './valuation.service.ts';

export const valuationRoutes: AnyRoute[] = [
  defineRoute({
    module: 'inventory',
    companyScoped: true,
    access: 'read',
    permission: ['inventory', 'read'],
    method: 'GET',
    path: '/api/inventory/valuation',
    operationId: 'getStockValuation',
    tag: 'Stock movements',
    summary: 'Stock valuation at a date, with the inventory account it ties to',
    description:
      'Quantity and value per product (variant) and location at the end of asOf (default today), re-derived ' +
      'from the running balances and the movements, never from a stored snapshot; totals; ledgerBalance: the ' +
      "company's inventory accounts at the same date; difference: totals.value − ledgerBalance, 0 when the " +
      'books tie (null with locationId, which narrows the lines but not the ledger).',
    query: ValuationQuery,
    response: { 200: Valuation },
    handler: async ({ query }, ctx) => valuation(ctx, query),
  }),
];
