import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { BANKS } from './banking.tables.ts';

export const BankName = named(
  'BankName',
  stringEnum(BANKS, {
    description: "The bank: picks the statement CSV profile by default; 'other' for any other bank",
  }),
);

// At most 999 999 999 999.99 either way, the service's money ceiling: beyond it the opening
// balance reached the journal and was refused as `lines[0].debit`, a field the caller never sent
// (issue 35); bounded here, validation names openingBalance.
const MoneyString = Type.String({
  pattern: '^-?[0-9]{1,12}(\\.[0-9]{1,2})?$',
  description: 'Rand and cents, e.g. 1250.50',
});
const MoneyIn = Type.Union(
  [Type.Number({ minimum: -999_999_999_999.99, maximum: 999_999_999_999.99 }), MoneyString],
  { description: 'An amount, at most two decimals (a number or a decimal string)' },
);
const AccountNumber = Type.String({ pattern: '^[0-9]{4,20}$', description: 'Digits only, 4 to 20' });
const BranchCode = Type.String({
  pattern: '^[0-9]{6}$',
  description: 'The six-digit branch (universal) code',
});
const DateOnly = Type.String({ format: 'date' });

export const BankAccount = named(
  'BankAccount',
  Type.Object({
    id: uuid({
      description: "Also the ledger account's id: what an invoice or bill payment names as bankAccountId",
    }),
    companyId: Uuid,
    name: Type.String({ description: "The ledger account's name" }),
    accountCode: Type.String({ description: "The ledger account's code" }),
    bank: BankName,
    accountNumberMasked: nullable(Type.String({ description: 'The last four digits only, e.g. ••••4321' })),
    branchCode: nullable(Type.String()),
    currency: Type.String({ description: 'ISO 4217' }),
    openingBalance: Type.Number({
      description: 'The balance on openingDate, posted against Opening balances (3400)',
    }),
    openingDate: nullable(DateOnly),
    openingEntryId: nullable(Uuid),
    statementBalance: nullable(
      Type.Number({ description: 'The closing balance of the last statement read (or the feed)' }),
    ),
    statementDate: nullable(DateOnly),
    isActive: Type.Boolean({ description: "The ledger account's: a deactivated one takes no new payment" }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

export const BankAccountCreate = named(
  'BankAccountCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      accountCode: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z0-9.-]{1,20}$',
          description:
            "The ledger account's code; default the next free one from 1010 (1000 is the chart's Bank)",
        }),
      ),
      bank: Type.Optional(BankName),
      accountNumber: Type.Optional(AccountNumber),
      branchCode: Type.Optional(BranchCode),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; default ZAR' })),
      openingBalance: Type.Optional(MoneyIn),
      openingDate: Type.Optional(DateOnly),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'FNB Business Cheque',
          bank: 'fnb',
          accountNumber: '62812345678',
          branchCode: '250655',
          openingBalance: '15000.00',
          openingDate: '2026-03-01',
        },
      ],
    },
  ),
);

export const BankAccountUpdate = named(
  'BankAccountUpdate',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      bank: Type.Optional(BankName),
      accountNumber: Type.Optional(nullable(AccountNumber)),
      branchCode: Type.Optional(nullable(BranchCode)),
      isActive: Type.Optional(
        Type.Boolean({ description: "false deactivates its ledger account (not the chart's Bank)" }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const BankAccountsQuery = Type.Object(
  {
    isActive: Type.Optional(
      Type.Boolean({ description: 'Only active (true) or deactivated (false); default both' }),
    ),
  },
  { additionalProperties: false },
);
