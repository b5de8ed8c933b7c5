// Schemas of sales targets: per user or team and period, of value won or count won, with the
// progress derived from won opportunities.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { TARGET_METRICS } from './crm.tables.ts';

const Ts = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const TargetMetric = named(
  'TargetMetric',
  stringEnum(TARGET_METRICS, {
    description: 'value: the amount of the opportunities won; count: how many were won',
  }),
);

const TargetValue = Type.Number({
  exclusiveMinimum: 0,
  maximum: 999_999_999_999.99,
  description: 'More than 0: money (two decimals) for value, a whole number for count',
});

export const Target = named(
  'SalesTarget',
  Type.Object({
    id: Uuid,
    userId: nullable(Uuid),
    teamId: nullable(Uuid),
    periodStart: Day,
    periodEnd: Day,
    metric: TargetMetric,
    target: Type.Number(),
    progress: Type.Object(
      {
        achieved: Type.Number({ description: 'The value or the count won, as the metric says' }),
        percent: Type.Number({ description: 'achieved / target × 100, two decimals (half-up)' }),
        wonCount: Type.Integer(),
        wonValue: Type.Number(),
      },
      {
        description:
          'From the opportunities won (closedAt within the period, UTC days, both ends included; deleted ones ' +
          "left out) owned by the user, or by one of the team's members as it is now",
      },
    ),
    createdAt: Ts,
    updatedAt: Ts,
    deletedAt: nullable(Ts, {
      description: 'Set on a deleted one; only a list read with updatedSince shows it',
    }),
  }),
);

export const TargetCreate = named(
  'SalesTargetCreate',
  Type.Object(
    {
      userId: Type.Optional(uuid({ description: "A user of the tenant's" })),
      teamId: Type.Optional(uuid({ description: "A team of the tenant's" })),
      periodStart: Day,
      periodEnd: Type.String({ format: 'date', description: 'On or after periodStart' }),
      metric: TargetMetric,
      target: TargetValue,
    },
    {
      additionalProperties: false,
      description: 'For userId or teamId, not both; neither: the caller (a person)',
      examples: [{ periodStart: '2026-04-01', periodEnd: '2026-06-30', metric: 'value', target: 250000 }],
    },
  ),
);

export const TargetUpdate = named(
  'SalesTargetUpdate',
  Type.Object(
    {
      periodStart: Type.Optional(Day),
      periodEnd: Type.Optional(Day),
      metric: Type.Optional(TargetMetric),
      target: Type.Optional(TargetValue),
    },
    {
      additionalProperties: false,
      description: 'Only the fields sent change (whom it measures does not: make another target)',
      examples: [{ target: 300000 }],
    },
  ),
);

export const TargetListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(['createdAt', 'updatedAt', 'date'] as const, 'date'),
  userId: Type.Optional(Uuid),
  teamId: Type.Optional(Uuid),
  activeOn: Type.Optional(
    Type.String({ format: 'date', description: 'Only targets whose period holds this day' }),
  ),
});
