// TypeBox schemas of stock locations: a company's warehouses, bins within them, and its transit.
import { Type } from 'typebox';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Code = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Unique in the company in any case among live locations; trimmed',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const Location = named(
  'StockLocation',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    code: Type.String(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('warehouse'), Type.Literal('bin'), Type.Literal('transit')], {
      description: 'transit: the one location goods between locations of the company are in (fixed)',
    }),
    parentId: nullable(Uuid, { description: "A bin's warehouse; null otherwise" }),
    isDefault: Type.Boolean({ description: 'Where stock moves when a document names no location' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const LocationCreate = named(
  'StockLocationCreate',
  Type.Object(
    {
      code: Code,
      name: Name,
      kind: Type.Optional(
        Type.Union([Type.Literal('warehouse'), Type.Literal('bin')], { description: 'Default warehouse' }),
      ),
      parentId: Type.Optional(uuid({ description: "A bin's warehouse (required for a bin)" })),
      isDefault: Type.Optional(
        Type.Boolean({ description: 'true: this becomes the default (the previous one stops being it)' }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ code: 'CPT', name: 'Cape Town warehouse', kind: 'warehouse' }],
    },
  ),
);

export const LocationUpdate = named(
  'StockLocationUpdate',
  Type.Object(
    {
      code: Type.Optional(Code),
      name: Type.Optional(Name),
      parentId: Type.Optional(uuid({ description: "A bin's warehouse" })),
      isDefault: Type.Optional(
        Type.Literal(true, { description: 'Makes it the default; the previous default stops being it' }),
      ),
    },
    { additionalProperties: false, examples: [{ name: 'Cape Town warehouse (Epping)' }] },
  ),
);
