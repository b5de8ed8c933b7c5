// TypeBox schemas of the products book.
import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

const Sku = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Stock-keeping unit: unique in the tenant in any case among live products; trimmed',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = orNull<string>({
  type: 'string',
  maxLength: 4000,
  description: 'Free text; null clears',
});
const UnitPrice = Type.Number({
  minimum: 0,
  maximum: 999_999_999_999,
  description: 'Selling price excluding VAT; up to four decimals (as invoice lines take it)',
});
const VatRate = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 100,
  description:
    'Percent, up to three decimals. null (the default): the standard rate on the document date ' +
    '(15%, 14% before 2018-04-01); 0: zero-rated.',
});

export const Product = named(
  'Product',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    sku: Type.String(),
    name: Type.String(),
    description: nullable(Type.String()),
    unitPrice: Type.Number({ description: 'Excluding VAT' }),
    vatRate: nullable(Type.Number(), { description: 'null: the standard rate' }),
    isTracked: Type.Boolean({ description: 'Stock on hand is counted for it (false for a service)' }),
    isActive: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description:
        'When the product was deleted; null while it is live. Only a list read with updatedSince shows a ' +
        'deleted product (so a sync learns of it); GET by id answers 404 for it.',
    }),
  }),
);

export const ProductCreate = named(
  'ProductCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      sku: Sku,
      name: Name,
      description: Type.Optional(Description),
      unitPrice: UnitPrice,
      vatRate: Type.Optional(VatRate),
      isTracked: Type.Optional(Type.Boolean({ description: 'Default false' })),
      isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
    },
    {
      examples: [
        {
          sku: 'ROOIBOS-250G',
          name: 'Rooibos tea, 250 g',
          description: 'Loose-leaf, Cederberg',
          unitPrice: 89.95,
          isTracked: true,
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const ProductUpdate = named(
  'ProductUpdate',
  Type.Object(
    {
      sku: Type.Optional(Sku),
      name: Type.Optional(Name),
      description: Type.Optional(Description),
      unitPrice: Type.Optional(UnitPrice),
      vatRate: Type.Optional(VatRate),
      isTracked: Type.Optional(Type.Boolean()),
      isActive: Type.Optional(Type.Boolean()),
    },
    { examples: [{ unitPrice: 94.5, isActive: true }], additionalProperties: false },
  ),
);

export const ProductListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['updatedAt', 'createdAt'], 'name'),
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Contains, in any case, in sku, name or description' }),
    ),
    isActive: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) products' })),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
