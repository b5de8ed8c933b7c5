// Leave's API shapes: requests, balances, adjustments, and their queries.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { LEAVE_STATUSES, LEAVE_TYPES } from './payroll.tables.ts';

const DateString = Type.String({ format: 'date' });
const Instant = Type.String({ format: 'date-time' });

export const LeaveTypeSchema = named(
  'LeaveType',
  stringEnum(LEAVE_TYPES, {
    description:
      'annual, sick and family_responsibility have a balance (BCEA ss 20, 22, 27); parental and unpaid only count the days taken',
  }),
);
export const LeaveStatusSchema = named(
  'LeaveStatus',
  stringEnum(LEAVE_STATUSES, { description: 'pending until someone with payroll:approve decides' }),
);

export const LeaveRequestCreate = named(
  'LeaveRequestCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      employeeId: Uuid,
      type: LeaveTypeSchema,
      startDate: Type.String({ format: 'date', description: 'The first day of leave' }),
      endDate: Type.String({ format: 'date', description: 'The last day of leave; not before startDate' }),
      halfDay: Type.Optional(
        Type.Boolean({
          description:
            'Half a day (0.5): only for a one-day request (endDate equal to startDate). Default false',
        }),
      ),
      reason: Type.Optional(Type.String({ maxLength: 1000 })),
    },
    {
      additionalProperties: false,
      examples: [
        {
          employeeId: '5b7e2c1a-8d3f-4e6a-9b2c-1f0e3d4c5b6a',
          type: 'annual',
          startDate: '2026-03-02',
          endDate: '2026-03-03',
          reason: 'Family visit',
        },
      ],
    },
  ),
);

export const LeaveRequest = named(
  'LeaveRequest',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    employeeId: Uuid,
    type: LeaveTypeSchema,
    startDate: DateString,
    endDate: DateString,
    days: Type.Number({
      description:
        'Working days taken: the days of the working week between the dates, public holidays left out; 0.5 for a half day',
    }),
    status: LeaveStatusSchema,
    reason: nullable(Type.String()),
    decidedBy: nullable(Uuid, { description: 'Who approved or rejected it (null for a business key)' }),
    decidedAt: nullable(Instant, { description: 'When it was approved, rejected or cancelled' }),
    createdAt: Instant,
    updatedAt: Instant,
  }),
);

export const LEAVE_SORT_KEYS = ['updatedAt', 'createdAt', 'date'] as const;
export const LEAVE_DEFAULT_SORT = '-date';

export const LeaveRequestListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(LEAVE_SORT_KEYS, LEAVE_DEFAULT_SORT),
  employeeId: Type.Optional(Uuid),
  status: Type.Optional(LeaveStatusSchema),
  type: Type.Optional(LeaveTypeSchema),
  from: Type.Optional(
    Type.String({
      format: 'date',
      description: 'Leave ending on or after this day (overlapping from it on)',
    }),
  ),
  to: Type.Optional(Type.String({ format: 'date', description: 'Leave starting on or before this day' })),
});

export const LeaveBalancesQuery = Type.Object({
  asOf: Type.Optional(Type.String({ format: 'date', description: 'The day of the balance. Default today' })),
});

export const LeaveBalance = named(
  'LeaveBalance',
  Type.Object({
    type: LeaveTypeSchema,
    entitled: nullable(Type.Number(), {
      description: 'Accrued in the cycle up to asOf; null for parental and unpaid (no entitlement kept)',
    }),
    taken: Type.Number({ description: 'Approved days of requests starting in the cycle (booked ahead too)' }),
    pending: Type.Number({ description: 'Days of pending requests starting in the cycle' }),
    adjusted: Type.Number({ description: 'Adjustments effective in the cycle up to asOf' }),
    available: nullable(Type.Number(), {
      description: 'entitled − taken + adjusted; null where entitled is',
    }),
    cycleStart: DateString,
    cycleEnd: nullable(DateString, { description: 'null: the whole employment (parental, unpaid)' }),
  }),
);

export const LeaveBalances = named(
  'LeaveBalances',
  Type.Object({ employeeId: Uuid, asOf: DateString, balances: Type.Array(LeaveBalance) }),
);

export const LeaveAdjustmentCreate = named(
  'LeaveAdjustmentCreate',
  Type.Object(
    {
      employeeId: Uuid,
      type: LeaveTypeSchema,
      effectiveOn: Type.String({
        format: 'date',
        description: 'Counts in the cycle holding this day, from this day on. Not before the start date',
      }),
      days: Type.Number({
        minimum: -999,
        maximum: 999,
        multipleOf: 0.5,
        description: 'Added to the balance (negative: taken from it); whole or half days; not 0',
      }),
      reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          employeeId: '5b7e2c1a-8d3f-4e6a-9b2c-1f0e3d4c5b6a',
          type: 'annual',
          effectiveOn: '2026-03-01',
          days: 5,
          reason: 'Opening balance brought from the previous system',
        },
      ],
    },
  ),
);

export const LeaveAdjustment = named(
  'LeaveAdjustment',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    employeeId: Uuid,
    type: LeaveTypeSchema,
    effectiveOn: DateString,
    days: Type.Number(),
    reason: Type.String(),
    createdBy: nullable(Uuid),
    createdAt: Instant,
  }),
);

export const LeaveAdjustmentListQuery = Type.Object({
  ...pageQueryProperties,
  employeeId: Type.Optional(Uuid),
});
