// TypeBox schemas of stock takes (count sheets).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { DateOnly, Timestamp } from './ops.schemas.ts';

export const STOCK_TAKE_STATUSES = ['counting', 'approved', 'cancelled'] as const;

export const StockTakeCreate = named(
  'StockTakeCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      locationId: Type.Optional(Uuid),
      date: DateOnly,
      productIds: Type.Optional(
        Type.Array(Uuid, {
          minItems: 1,
          maxItems: 1000,
          uniqueItems: true,
          description:
            'Count only these products (every variant and batch of each); default every item with stock there',
        }),
      ),
      notes: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    {
      additionalProperties: false,
      examples: [{ date: '2026-03-31', notes: 'Month-end count, main warehouse' }],
    },
  ),
);

const Count = Type.Number({ minimum: 0, maximum: 999_999_999_999, description: 'Up to four decimals' });

export const StockTakeCounts = named(
  'StockTakeCounts',
  Type.Object(
    {
      lines: Type.Array(
        Type.Object(
          { lineId: Uuid, counted: nullable(Count, { description: 'null: not counted (yet)' }) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 5000 },
      ),
    },
    {
      additionalProperties: false,
      examples: [{ lines: [{ lineId: '5a0d4a57-3c1e-4a8b-9d52-6f1f0e2b7c11', counted: 8 }] }],
    },
  ),
);

export const StockTakeLine = Type.Object({
  id: Uuid,
  productId: Uuid,
  variantId: nullable(Uuid),
  batchId: nullable(Uuid),
  expected: Type.Number({ description: 'On hand at the location when the sheet was made' }),
  counted: nullable(Type.Number(), { description: 'null: not counted; left out of the approval' }),
});

export const StockTake = named(
  'StockTake',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    locationId: Uuid,
    date: DateOnly,
    status: stringEnum(STOCK_TAKE_STATUSES),
    notes: nullable(Type.String()),
    entryId: nullable(Uuid, {
      description: 'The journal entry of the variances, once approved (null if none moved value)',
    }),
    approvedAt: nullable(Timestamp),
    lines: Type.Array(StockTakeLine),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const StockTakeListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'createdAt', 'updatedAt'], '-date'),
    status: Type.Optional(stringEnum(STOCK_TAKE_STATUSES)),
  },
  { additionalProperties: false },
);
