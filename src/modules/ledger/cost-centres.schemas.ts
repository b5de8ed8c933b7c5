import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Code = Type.String({
  pattern: '^[A-Za-z0-9._-]{1,20}$',
  description: 'Unique in the company (any case): letters, digits, dot, dash and underscore, up to 20',
});

export const CostCentre = named(
  'CostCentre',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    code: Type.String(),
    name: Type.String(),
    description: nullable(Type.String()),
    isActive: Type.Boolean({ description: 'false: kept for history and reports, named on no new line' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

export const CostCentreCreate = named(
  'CostCentreCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      code: Code,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      description: Type.Optional(Type.String({ maxLength: 1000 })),
    },
    { additionalProperties: false, examples: [{ code: 'CPT', name: 'Cape Town branch' }] },
  ),
);

export const CostCentreUpdate = named(
  'CostCentreUpdate',
  Type.Object(
    {
      code: Type.Optional(Code),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      description: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
      isActive: Type.Optional(
        Type.Boolean({ description: 'false deactivates: no new line may name it; its history stays' }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const CostCentresQuery = Type.Object(
  {
    isActive: Type.Optional(
      Type.Boolean({ description: 'Only active (true) or only deactivated (false) ones; default both' }),
    ),
  },
  { additionalProperties: false },
);
