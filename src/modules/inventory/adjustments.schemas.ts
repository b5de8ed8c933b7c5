// TypeBox schemas of stock adjustments (and opening stock): one posted entry, its movements.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { Movement } from './movements.schemas.ts';

const DateString = Type.String({ format: 'date' });

export const AdjustmentType = stringEnum(['adjustment', 'opening'] as const, {
  description:
    'adjustment: against 5200 Stock adjustments (found, lost, damaged); opening: stock on the day the books ' +
    'start, against 3400 Opening balances',
});

const AdjustmentLineInput = Type.Object(
  {
    productId: Uuid,
    variantId: Type.Optional(nullable(Uuid)),
    quantity: Type.Number({
      minimum: -1e12,
      maximum: 1e12,
      description:
        'Signed, in the base unit, up to four decimals: more than 0 comes in, less goes out; not 0',
    }),
    unitCost: Type.Optional(
      nullable(
        Type.Number({
          minimum: 0,
          maximum: 1e12,
          description:
            'In only (quantity above 0): the cost of one unit, up to four decimals; default the current average (or the last unit cost)',
        }),
      ),
    ),
    batchCode: Type.Optional(
      nullable(
        Type.String({ minLength: 1, maxLength: 64, description: 'Required for a batch-tracked product' }),
      ),
    ),
    batchExpiry: Type.Optional(
      nullable(Type.String({ format: 'date', description: 'A new batch’s expiry' })),
    ),
    serials: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 1000,
        description:
          'Required for a serial-tracked product: as many serials as |quantity|, each one movement of ±1',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AdjustmentCreate = named(
  'StockAdjustmentCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: DateString,
      type: Type.Optional(AdjustmentType),
      locationId: Type.Optional(
        nullable(Uuid, { description: "One of the company's locations; default its main warehouse" }),
      ),
      reason: Type.String({ minLength: 1, maxLength: 500 }),
      lines: Type.Array(AdjustmentLineInput, { minItems: 1, maxItems: 500 }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          date: '2026-03-01',
          type: 'opening',
          reason: 'Opening stock',
          lines: [{ productId: '7b1e5c0a-3f1d-4c2e-9a59-0d3c1f2b8e41', quantity: 10, unitCost: 12.5 }],
        },
      ],
    },
  ),
);

export const Adjustment = named(
  'StockAdjustment',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    type: AdjustmentType,
    date: DateString,
    reason: Type.String(),
    entryId: Uuid,
    value: Type.Number({ description: 'What the inventory account moved by (signed)' }),
    movements: Type.Array(Movement),
  }),
);
