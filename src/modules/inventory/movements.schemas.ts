// TypeBox schemas of stock movements: immutable, one per change of stock.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const DateString = Type.String({ format: 'date' });

export const MOVEMENT_TYPES = [
  'opening',
  'purchase',
  'receipt',
  'sale',
  'return_in',
  'return_out',
  'adjustment',
  'count',
  'transfer_out',
  'transfer_in',
  'landed_cost',
  'price_difference',
  'revaluation',
] as const;

export const MovementTypeSchema = stringEnum(MOVEMENT_TYPES, {
  description:
    'What moved it: opening stock, a purchase (bill), a receipt (purchase order), a sale, a return in or out, an ' +
    'adjustment, a count (stock take), a transfer out or in, a landed cost, a price difference (a supplier bill priced otherwise than its order, on ' +
    'the units of the receipt still on hand), a revaluation (value only)',
});

export const Movement = named(
  'StockMovement',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    date: DateString,
    type: MovementTypeSchema,
    productId: Uuid,
    variantId: nullable(Uuid),
    locationId: Uuid,
    batchId: nullable(Uuid),
    serialId: nullable(Uuid),
    quantity: Type.Number({ description: 'Signed, in the base unit: more than 0 came in' }),
    unitCost: Type.Number({ description: 'The cost of one unit it moved at (|value| ÷ |quantity|)' }),
    value: Type.Number({ description: 'Signed: what the inventory account moved by' }),
    sourceType: Type.String({
      description: "The document's kind: 'stock_adjustment', 'invoice', 'bill', ...",
    }),
    sourceId: nullable(Uuid),
    sourceLineId: nullable(Uuid),
    entryId: nullable(Uuid, { description: 'The journal entry its value posted in (null for a transfer)' }),
    reversesMovementId: nullable(Uuid, { description: 'The movement a return undoes' }),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const MovementListQuery = Type.Object(
  {
    ...pageQueryProperties,
    productId: Type.Optional(Uuid),
    variantId: Type.Optional(Uuid),
    locationId: Type.Optional(Uuid),
    type: Type.Optional(MovementTypeSchema),
    from: Type.Optional(Type.String({ format: 'date', description: 'Dated on or after' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Dated on or before' })),
  },
  { additionalProperties: false },
);
