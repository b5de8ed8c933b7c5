import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';

const VatNumber = Type.String({
  pattern: '^4\\d{9}$',
  description: 'South African VAT number: ten digits starting with 4',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });
const DateString = Type.String({ format: 'date' });

export const Company = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  tradeName: Type.Union([Type.String(), Type.Null()]),
  parentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  ownershipPercent: Type.Union([Type.Number(), Type.Null()]),
  baseCurrency: Type.String(),
  vatRegistered: Type.Boolean({ description: 'Registered for VAT today' }),
  vatRegisteredFrom: Type.Union([DateString, Type.Null()]),
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  isSandbox: Type.Boolean(),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CompanyCreate = Type.Object(
  {
    clientId: clientIdProperty,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    tradeName: Type.Optional(Type.String({ maxLength: 200 })),
    parentId: Type.Optional(Type.String({ format: 'uuid' })),
    ownershipPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    baseCurrency: Type.Optional(Currency),
    vatRegistered: Type.Optional(Type.Boolean()),
    vatRegisteredFrom: Type.Optional(DateString),
    vatNumber: Type.Optional(VatNumber),
  },
  {
    examples: [
      {
        name: 'Acme Trading (Pty) Ltd',
        vatRegistered: true,
        vatRegisteredFrom: '2024-03-01',
        vatNumber: '4123456789',
      },
    ],
  },
);

export const CompanyUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  tradeName: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  parentId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
  ownershipPercent: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()])),
  vatRegistered: Type.Optional(Type.Boolean()),
  vatRegisteredFrom: Type.Optional(DateString),
  vatNumber: Type.Optional(Type.Union([VatNumber, Type.Null()])),
  isActive: Type.Optional(Type.Boolean()),
});

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
