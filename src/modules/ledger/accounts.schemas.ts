import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;

/** Where an account sits in the statements, per type; the first is the default of its type. */
export const SUBTYPES_OF = {
  asset: ['current_asset', 'bank', 'receivable', 'inventory', 'fixed_asset', 'non_current_asset'],
  liability: ['current_liability', 'payable', 'non_current_liability'],
  equity: ['equity', 'retained_earnings'],
  income: ['revenue', 'other_income'],
  expense: ['expense', 'cost_of_sales', 'income_tax'],
} as const;

export const ALL_SUBTYPES = Object.values(SUBTYPES_OF).flat();

export const AccountType = named(
  'AccountType',
  stringEnum(ACCOUNT_TYPES, {
    description: 'Where the account sits: a balance sheet or an income statement type',
  }),
);

export const AccountSubtype = named(
  'AccountSubtype',
  stringEnum(ALL_SUBTYPES, {
    description:
      "Statement grouping, one of its type's: " +
      Object.entries(SUBTYPES_OF)
        .map(([type, subtypes]) => `${type}: ${subtypes.join(', ')}`)
        .join('; '),
  }),
);

export const Account = named(
  'Account',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    code: Type.String(),
    name: Type.String(),
    type: AccountType,
    subtype: AccountSubtype,
    systemKey: nullable(
      Type.String({
        description:
          'The role documents post to it by (bank, debtors_control, vat_output, ...); null for accounts of your own',
      }),
    ),
    isControl: Type.Boolean({
      description: 'Posted to by documents only; a manual journal may not touch it',
    }),
    isActive: Type.Boolean(),
    description: nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

const Code = Type.String({
  pattern: '^[A-Za-z0-9.-]{1,20}$',
  description: 'Unique in the company (any case): letters, digits, dot and dash, up to 20',
});

export const AccountCreate = named(
  'AccountCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      code: Code,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      type: AccountType,
      subtype: Type.Optional(AccountSubtype),
      description: Type.Optional(Type.String({ maxLength: 1000 })),
    },
    {
      description:
        "subtype must belong to the type; default: the type's first (current_asset, current_liability, equity, revenue, expense)",
      examples: [{ code: '6960', name: 'Software subscriptions', type: 'expense' }],
      additionalProperties: false,
    },
  ),
);

export const AccountUpdate = named(
  'AccountUpdate',
  Type.Object(
    {
      code: Type.Optional(Code),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      subtype: Type.Optional(AccountSubtype),
      description: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
      isActive: Type.Optional(
        Type.Boolean({ description: 'false deactivates: nothing more may be posted to it' }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const AccountsQuery = Type.Object(
  {
    type: Type.Optional(AccountType),
    isActive: Type.Optional(
      Type.Boolean({
        description: 'Only active (true) or only deactivated (false) accounts; default both',
      }),
    ),
  },
  { additionalProperties: false },
);
