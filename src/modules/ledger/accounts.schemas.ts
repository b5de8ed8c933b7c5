import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;

/** Where an account sits in the statements, per type; the first is the default of its type. */
export const SUBTYPES_OF = {
  asset: ['current_asset', 'bank', 'receivable', 'inventory', 'fixed_asset', 'non_current_asset'],
  liability: ['current_liability', 'payable', 'non_current_liability'],
  equity: ['equity', 'retained_earnings'],
  income: ['revenue', 'other_income'],
  expense: ['expense', 'cost_of_sales'],
} as const;

export const ALL_SUBTYPES = Object.values(SUBTYPES_OF).flat();

export const Account = Type.Object({
  id: Type.String({ format: 'uuid' }),
  companyId: Type.String({ format: 'uuid' }),
  code: Type.String(),
  name: Type.String(),
  type: Type.Enum(ACCOUNT_TYPES),
  subtype: Type.String({ description: `Statement grouping: ${ALL_SUBTYPES.join(', ')}` }),
  systemKey: nullable(
    Type.String({
      description:
        'The role documents post to it by (bank, debtors_control, vat_output, ...); null for accounts of your own',
    }),
  ),
  isControl: Type.Boolean({ description: 'Posted to by documents only; a manual journal may not touch it' }),
  isActive: Type.Boolean(),
  description: nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const Code = Type.String({
  pattern: '^[A-Za-z0-9.-]{1,20}$',
  description: 'Unique in the company (any case): letters, digits, dot and dash, up to 20',
});

export const AccountCreate = Type.Object(
  {
    clientId: clientIdProperty,
    code: Code,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Enum(ACCOUNT_TYPES),
    subtype: Type.Optional(
      Type.Enum(ALL_SUBTYPES, {
        description:
          'Must belong to the type; default: current_asset, current_liability, equity, revenue, expense',
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { examples: [{ code: '6960', name: 'Software subscriptions', type: 'expense' }] },
);

export const AccountUpdate = Type.Object({
  code: Type.Optional(Code),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  subtype: Type.Optional(Type.Enum(ALL_SUBTYPES)),
  description: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
  isActive: Type.Optional(
    Type.Boolean({ description: 'false deactivates: nothing more may be posted to it' }),
  ),
});

export const AccountsQuery = Type.Object({
  type: Type.Optional(Type.Enum(ACCOUNT_TYPES)),
  includeInactive: Type.Optional(Type.Boolean({ description: 'Deactivated accounts too (default false)' })),
});

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
