// TypeBox schemas of a product's variants (size, colour, ...): each its own SKU, barcode and stock.
import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { idParams, Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });

const Attributes = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.String({ maxLength: 200 }),
  {
    maxProperties: 20,
    description: 'What sets the variant apart, as text values: e.g. {"size": "L", "colour": "red"}',
  },
);
const UnitPrice = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 999_999_999_999,
  description: "Selling price excluding VAT, up to four decimals; null: the product's unitPrice",
});
const Weight = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 999_999_999,
  description: "kg per base unit, up to six decimals; null: the product's weight",
});
const Barcode = orNull<string>({ type: 'string', minLength: 1, maxLength: 64 });
const Sku = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Unique in the tenant in any case among live products and variants; trimmed',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const Variant = named(
  'ProductVariant',
  Type.Object({
    id: Uuid,
    productId: Uuid,
    sku: Type.String(),
    name: Type.String(),
    attributes: Type.Record(Type.String(), Type.String()),
    barcode: nullable(Type.String()),
    unitPrice: nullable(Type.Number(), { description: "null: the product's price" }),
    weight: nullable(Type.Number()),
    isActive: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const VariantCreate = named(
  'ProductVariantCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      sku: Sku,
      name: Name,
      attributes: Type.Optional(Attributes),
      barcode: Type.Optional(Barcode),
      unitPrice: Type.Optional(UnitPrice),
      weight: Type.Optional(Weight),
      isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
    },
    {
      additionalProperties: false,
      examples: [
        {
          sku: 'TSHIRT-L-RED',
          name: 'Large, red',
          attributes: { size: 'L', colour: 'red' },
          barcode: '6009876543210',
          unitPrice: 199.99,
        },
      ],
    },
  ),
);

export const VariantUpdate = named(
  'ProductVariantUpdate',
  Type.Object(
    {
      sku: Type.Optional(Sku),
      name: Type.Optional(Name),
      attributes: Type.Optional(Attributes),
      barcode: Type.Optional(Barcode),
      unitPrice: Type.Optional(UnitPrice),
      weight: Type.Optional(Weight),
      isActive: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false, examples: [{ unitPrice: 209.99, isActive: true }] },
  ),
);

export const VariantParams = idParams('id', 'variantId');
