// TypeBox schemas of stock transfers between a company's locations.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { DateOnly, Quantity, Timestamp } from './ops.schemas.ts';

export const TRANSFER_STATUSES = ['in_transit', 'received', 'cancelled'] as const;

const TransferLineInput = Type.Object(
  {
    productId: Uuid,
    variantId: Type.Optional(nullable(Uuid)),
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 999_999_999_999, description: 'More than 0' }),
    batchCode: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Required for a batch-tracked product' }),
    ),
    serials: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 1000,
        description: 'A serial-tracked product: one serial per unit (as many as quantity)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TransferCreate = named(
  'StockTransferCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      fromLocationId: Uuid,
      toLocationId: Uuid,
      date: DateOnly,
      reference: Type.Optional(Type.String({ maxLength: 200 })),
      lines: Type.Array(TransferLineInput, { minItems: 1, maxItems: 500 }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          fromLocationId: '3f1c1f6e-5a43-4c55-9c7e-0c5b1e1d2a01',
          toLocationId: '3f1c1f6e-5a43-4c55-9c7e-0c5b1e1d2a02',
          date: '2026-03-05',
          reference: 'Restock Durban branch',
          lines: [{ productId: '9b2f0c1e-4d7a-4f3e-8a61-2d8e5f6a7b01', quantity: 5 }],
        },
      ],
    },
  ),
);

export const TransferReceive = named(
  'StockTransferReceive',
  Type.Object({ date: DateOnly }, { additionalProperties: false, examples: [{ date: '2026-03-07' }] }),
);

export const TransferLine = Type.Object({
  id: Uuid,
  lineNo: Type.Integer(),
  productId: Uuid,
  variantId: nullable(Uuid),
  batchId: nullable(Uuid),
  serialId: nullable(Uuid),
  quantity: Quantity,
});

export const Transfer = named(
  'StockTransfer',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    fromLocationId: Uuid,
    toLocationId: Uuid,
    status: stringEnum(TRANSFER_STATUSES, {
      description:
        'in_transit: left `from`, held at the transit location; received at `to`; cancelled: back at `from`',
    }),
    sentDate: DateOnly,
    receivedDate: nullable(DateOnly, { description: 'The receipt (or the cancellation) date' }),
    reference: nullable(Type.String()),
    lines: Type.Array(TransferLine),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const TransferListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'createdAt', 'updatedAt'], '-date'),
    status: Type.Optional(stringEnum(TRANSFER_STATUSES)),
  },
  { additionalProperties: false },
);
