// TypeBox schemas of batches (on hand per location, FEFO picking) and serial numbers.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { DateOnly, Timestamp } from './ops.schemas.ts';

const ProductId = uuid({
  description: 'The product',
  examples: ['9b2f0c1e-4d7a-4f3e-8a61-2d8e5f6a7b01'],
});
const VariantId = Type.Optional(
  uuid({ description: 'One variant of it (batches and pools are kept per variant)' }),
);

export const BatchListQuery = Type.Object(
  { productId: ProductId, variantId: VariantId },
  { additionalProperties: false },
);

export const Batch = named(
  'StockBatch',
  Type.Object({
    id: Uuid,
    productId: Uuid,
    variantId: nullable(Uuid),
    code: Type.String(),
    expiryDate: nullable(DateOnly),
    onHand: Type.Number({ description: "In the company, every location (the product's base unit)" }),
    locations: Type.Array(Type.Object({ locationId: Uuid, quantity: Type.Number() }), {
      description: 'Where it is: locations holding a quantity other than zero',
    }),
  }),
);

export const FefoQuery = Type.Object(
  {
    productId: ProductId,
    variantId: VariantId,
    quantity: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 999_999_999_999,
        description: 'To pick; without it, every unexpired batch there in picking order, each in full',
      }),
    ),
    locationId: Type.Optional(uuid({ description: "Default: the company's default location" })),
    date: Type.Optional(
      Type.String({ format: 'date', description: 'Expired means an expiry before this date; default today' }),
    ),
  },
  { additionalProperties: false },
);

export const FefoPick = named(
  'StockBatchPick',
  Type.Object({
    productId: Uuid,
    variantId: nullable(Uuid),
    locationId: nullable(Uuid, { description: 'null: the company has no location yet (nothing to pick)' }),
    quantity: nullable(Type.Number(), { description: 'Asked (null: everything there)' }),
    date: DateOnly,
    picks: Type.Array(
      Type.Object({
        batchId: Uuid,
        code: Type.String(),
        expiryDate: nullable(DateOnly),
        quantity: Type.Number(),
      }),
    ),
    short: Type.Number({ description: 'What the unexpired batches there cannot cover (0 when covered)' }),
  }),
);

export const SERIAL_STATUSES = ['in_stock', 'out_of_stock'] as const;

export const SerialListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['createdAt', 'updatedAt'], 'createdAt'),
    productId: Type.Optional(Uuid),
    status: Type.Optional(stringEnum(SERIAL_STATUSES)),
    serial: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Exactly this serial number' }),
    ),
    history: Type.Optional(Type.Boolean({ description: 'Each serial with its movements in this company' })),
  },
  { additionalProperties: false },
);

export const Serial = named(
  'StockSerial',
  Type.Object({
    id: Uuid,
    productId: Uuid,
    variantId: nullable(Uuid),
    serial: Type.String(),
    batchId: nullable(Uuid),
    status: stringEnum(SERIAL_STATUSES),
    locationId: nullable(Uuid, { description: 'Where it is in this company; null when out of stock' }),
    history: Type.Optional(
      Type.Array(
        Type.Object({
          movementId: Uuid,
          date: DateOnly,
          type: Type.String(),
          locationId: Uuid,
          quantity: Type.Number(),
        }),
      ),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
