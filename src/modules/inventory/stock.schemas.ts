// TypeBox schemas of stock on hand (now, per product) and the valuation (at a date).
import { Type } from 'typebox';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Place = Type.Object({
  variantId: nullable(Uuid),
  locationId: Uuid,
  quantity: Type.Number(),
  value: Type.Number(),
});

export const OnHand = named(
  'StockOnHand',
  Type.Object({
    productId: Uuid,
    sku: Type.String(),
    name: Type.String(),
    quantity: Type.Number({ description: 'On hand in every location of the company (base unit)' }),
    value: Type.Number({ description: 'Its value at cost' }),
    reorderPoint: nullable(Type.Number()),
    reorderQuantity: nullable(Type.Number()),
    belowReorder: Type.Boolean({ description: 'quantity is at or below reorderPoint' }),
    lines: Type.Array(Place, {
      description: 'Per variant and location (batches summed); none when nothing moved',
    }),
  }),
);

export const OnHandQuery = Type.Object(
  {
    ...pageQueryProperties,
    productId: Type.Optional(Uuid),
    locationId: Type.Optional(Uuid),
    belowReorder: Type.Optional(
      Type.Boolean({
        description: 'true: only products at or below their reorder point (those that have one)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ValuationQuery = Type.Object(
  {
    asOf: Type.Optional(Type.String({ format: 'date', description: 'The end of this day; default today' })),
    locationId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const Valuation = named(
  'StockValuation',
  Type.Object({
    asOf: Type.String({ format: 'date' }),
    lines: Type.Array(
      Type.Object({
        productId: Uuid,
        variantId: nullable(Uuid),
        sku: Type.String(),
        name: Type.String(),
        locationId: Uuid,
        quantity: Type.Number(),
        value: Type.Number(),
      }),
      { description: 'Per product (variant) and location with stock or value at the date, by SKU' },
    ),
    totals: Type.Object({ quantity: Type.Number(), value: Type.Number() }),
    ledgerBalance: Type.Number({
      description: "The balance of the company's inventory accounts (subtype inventory) at the end of asOf",
    }),
    difference: nullable(Type.Number(), {
      description:
        'totals.value − ledgerBalance: 0 when the books tie; null with a locationId (the ledger holds all)',
    }),
  }),
);
