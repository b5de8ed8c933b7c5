// TypeBox schemas of mileage trips and the rate per km.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { Approval, ClaimStatus } from './expenses.schemas.ts';

const DateString = Type.String({ format: 'date' });
const Timestamp = Type.String({ format: 'date-time' });

export const MileageCreate = named(
  'MileageTripCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: DateString,
      km: Type.Number({ exclusiveMinimum: 0, maximum: 100000, description: 'Kilometres, up to one decimal' }),
      purpose: Type.String({ minLength: 1, maxLength: 1000, description: 'The business reason' }),
      from: Type.Optional(Type.String({ maxLength: 200 })),
      to: Type.Optional(Type.String({ maxLength: 200 })),
      vehicle: Type.Optional(Type.String({ maxLength: 100 })),
      contactId: Type.Optional(nullable(uuid({ description: 'The EMPLOYEE who drove' }))),
    },
    {
      additionalProperties: false,
      examples: [
        { date: '2026-03-10', km: 123.4, purpose: 'Client visit', from: 'Cape Town', to: 'Stellenbosch' },
      ],
    },
  ),
);

export const MileageTrip = named(
  'MileageTrip',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    companyId: Uuid,
    contactId: nullable(Uuid),
    date: DateString,
    km: Type.Number(),
    purpose: Type.String(),
    from: nullable(Type.String()),
    to: nullable(Type.String()),
    vehicle: nullable(Type.String()),
    ratePerKm: Type.Number(),
    rateEffectiveFrom: nullable(DateString, {
      description: "The date SARS's rate applied took effect (null for the tenant's own rate)",
    }),
    rateSource: stringEnum(['sars', 'tenant'] as const, {
      description: "sars: SARS's prescribed rate for the date; tenant: the tenant's own lower rate",
    }),
    amount: Type.Number({ description: 'km × ratePerKm, half-up to the cent' }),
    status: ClaimStatus,
    approvals: Type.Array(Approval),
    rejectionReason: nullable(Type.String()),
    entryId: nullable(Uuid),
    reimbursementEntryId: nullable(Uuid),
    reimbursedAt: nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const MileageListQuery = Type.Object({
  ...pageQueryProperties,
  status: Type.Optional(ClaimStatus),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'On or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'On or before' })),
});

export const MileageRate = named(
  'MileageRate',
  Type.Object({
    ratePerKm: nullable(Type.Number(), { description: "The tenant's own rate; null: SARS's rate applies" }),
    sarsRatePerKm: Type.Number({ description: "SARS's rate today" }),
    sarsEffectiveFrom: DateString,
    sarsSource: Type.String(),
    effectiveRatePerKm: Type.Number({ description: 'What a trip today is paid at' }),
    rates: Type.Array(
      Type.Object({ effectiveFrom: DateString, ratePerKm: Type.Number(), source: Type.String() }),
      {
        description: "SARS's published rates, oldest first",
      },
    ),
  }),
);

export const MileageRateUpdate = named(
  'MileageRateUpdate',
  Type.Object(
    {
      ratePerKm: nullable(
        Type.Number({
          exclusiveMinimum: 0,
          description: "At most SARS's current rate (cents); null goes back to SARS's rate",
        }),
      ),
    },
    { additionalProperties: false, examples: [{ ratePerKm: 4.5 }] },
  ),
);
