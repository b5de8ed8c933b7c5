// Stock adjustments and opening stock over HTTP (company-scoped).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Adjustment, AdjustmentCreate } from './adjustments.schemas.ts';
import { createAdjustment, getAdjustment } from './adjustments.service.ts';

const base = { module: 'inventory', companyScoped: true, tag: 'Stock movements' } as const;

export const adjustmentsRoutes: AnyRoute[] = [
  defineRoute({
    ...base,
    access: 'write',
    permission: ['inventory', 'write'],
    method: 'POST',
    path: '/api/inventory/adjustments',
    operationId: 'createStockAdjustment',
    errors: ['INSUFFICIENT_STOCK', 'SERIAL_IN_STOCK', 'SERIAL_NOT_IN_STOCK', 'PERIOD_LOCKED', 'CONFLICT'],
    summary: 'Adjust stock (found, lost, damaged) or enter opening stock: one posted entry',
    description:
      'Each line moves stock at the location (default the main warehouse): a quantity above 0 comes in at ' +
      'unitCost (default the current average cost, else the last unit cost), below 0 goes out at the cost ' +
      "method's value (weighted average or FIFO). The whole adjustment posts ONE journal entry: inventory " +
      'against 5200 Stock adjustments, or for type opening against 3400 Opening balances. A batch-tracked ' +
      'product needs batchCode (a new code makes the batch, with batchExpiry); a serial-tracked one needs ' +
      'one serial per unit (each a movement of ±1; a serial in stock already is 409 SERIAL_IN_STOCK, one ' +
      'not in stock there 409 SERIAL_NOT_IN_STOCK). Out beyond what is on hand at the date or at any later ' +
      'date, for a product that refuses negative stock: 409 INSUFFICIENT_STOCK naming the line. An ' +
      'adjustment that moves no value (stock with no cost yet ' +
      'and no unitCost) is a 400. The id is the journal entry’s id. A clientId sent again answers 200 ' +
      'with the adjustment it made; one that is the id of another record is 409.',
    body: AdjustmentCreate,
    response: createdOrExisting(Adjustment),
    handler: async ({ body }, ctx) => createAdjustment(ctx, body),
  }),
  defineRoute({
    ...base,
    access: 'read',
    permission: ['inventory', 'read'],
    method: 'GET',
    path: '/api/inventory/adjustments/{id}',
    operationId: 'getStockAdjustment',
    summary: 'One stock adjustment with its movements',
    params: IdParams,
    response: { 200: Adjustment },
    handler: async ({ params }, ctx) => getAdjustment(ctx, params.id),
  }),
];
