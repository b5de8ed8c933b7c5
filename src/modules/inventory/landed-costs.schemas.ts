// TypeBox schemas of landed costs: freight, duty and the like spread over stock receipts.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { DateOnly, Timestamp } from './ops.schemas.ts';

export const LANDED_COST_METHODS = ['value', 'quantity', 'weight'] as const;
export const LANDED_COST_STATUSES = ['draft', 'posted'] as const;

const Amount = Type.Number({
  exclusiveMinimum: 0,
  maximum: 999_999_999_999,
  description: 'Rands, two decimals',
});

export const LandedCostCreate = named(
  'LandedCostCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: DateOnly,
      method: stringEnum(LANDED_COST_METHODS, {
        description:
          "How the charges are spread: by the receipts' value, quantity, or weight (quantity × weight)",
      }),
      description: Type.Optional(Type.String({ maxLength: 500 })),
      charges: Type.Array(
        Type.Object({ billId: Uuid, billLineId: Uuid, amount: Amount }, { additionalProperties: false }),
        { minItems: 1, maxItems: 100 },
      ),
      receipts: Type.Array(Uuid, {
        minItems: 1,
        maxItems: 500,
        uniqueItems: true,
        description: 'Stock movements that brought the goods in (type purchase or receipt)',
      }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          date: '2026-03-10',
          method: 'value',
          description: 'Sea freight, container MSKU 123456',
          charges: [
            {
              billId: '0e6f3c52-7a1b-4c2d-9e8f-1a2b3c4d5e01',
              billLineId: '0e6f3c52-7a1b-4c2d-9e8f-1a2b3c4d5e02',
              amount: 200,
            },
          ],
          receipts: ['0e6f3c52-7a1b-4c2d-9e8f-1a2b3c4d5e03'],
        },
      ],
    },
  ),
);

export const LandedCost = named(
  'LandedCost',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    date: DateOnly,
    method: stringEnum(LANDED_COST_METHODS),
    status: stringEnum(LANDED_COST_STATUSES),
    amount: Type.Number({ description: 'The sum of the charges' }),
    description: nullable(Type.String()),
    entryId: nullable(Uuid, { description: 'The journal entry, once posted' }),
    charges: Type.Array(Type.Object({ id: Uuid, billId: Uuid, billLineId: Uuid, amount: Type.Number() })),
    allocations: Type.Array(
      Type.Object({
        movementId: Uuid,
        productId: Uuid,
        amount: Type.Number({
          description: "This receipt's share (cents; the shares sum to amount exactly)",
        }),
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, { description: 'A deleted draft (listed only to updatedSince)' }),
  }),
);

export const LandedCostListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'createdAt', 'updatedAt'], '-date'),
    status: Type.Optional(stringEnum(LANDED_COST_STATUSES)),
  },
  { additionalProperties: false },
);
