// TypeBox schemas of a product's units of measure.
import { Type } from 'typebox';
import { idParams, Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

export const Unit = named(
  'ProductUnit',
  Type.Object({
    id: Uuid,
    productId: Uuid,
    name: Type.String(),
    factor: Type.Number({ description: 'Base units in one of this unit' }),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const UnitCreate = named(
  'ProductUnitCreate',
  Type.Object(
    {
      name: Type.String({
        minLength: 1,
        maxLength: 32,
        description: "Unique among the product's units in any case, and not its base unit; trimmed",
      }),
      factor: Type.Number({
        exclusiveMinimum: 0,
        maximum: 999_999_999,
        description: 'How many base units one of this unit holds; up to six decimals',
      }),
    },
    { additionalProperties: false, examples: [{ name: 'box', factor: 12 }] },
  ),
);

export const UnitParams = idParams('id', 'unitId');
