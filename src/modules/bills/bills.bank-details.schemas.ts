// A supplier's bank details as sent and as answered: the account number goes in whole and
// comes back masked (••••1234); only the payment run's bank file carries it whole.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { ACCOUNT_TYPES } from './bills.payment-run.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const BankAccountType = named(
  'BankAccountType',
  stringEnum(ACCOUNT_TYPES, {
    description: 'cheque (current), savings or transmission: the account type a South African bank file asks',
  }),
);

export const BankDetailsInput = named(
  'BankDetailsInput',
  Type.Object(
    {
      bankName: Type.String({ minLength: 1, maxLength: 100 }),
      accountHolder: Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The payee name the bank shows',
      }),
      accountNumber: Type.String({
        pattern: '^[0-9]{5,16}$',
        description: 'Digits only (5 to 16); stored sealed, answered masked',
      }),
      branchCode: Type.String({
        pattern: '^[0-9]{6}$',
        description: 'Six digits (universal or branch code)',
      }),
      accountType: Type.Optional(BankAccountType),
    },
    {
      additionalProperties: false,
      examples: [
        {
          bankName: 'First National Bank',
          accountHolder: 'Karoo Office Supplies CC',
          accountNumber: '62001234567',
          branchCode: '250655',
          accountType: 'cheque',
        },
      ],
    },
  ),
);

export const BankDetailsChange = named(
  'BankDetailsChange',
  Type.Object({
    changedAt: Timestamp,
    changedBy: Type.String({ description: 'Who made the change (a person or an API key)' }),
    oldAccountMasked: nullable(Type.String(), { description: 'null: the first details captured' }),
    newAccountMasked: Type.String(),
    bankName: Type.String(),
    branchCode: Type.String(),
  }),
);

export const BankDetails = named(
  'BankDetails',
  Type.Object({
    contactId: Uuid,
    bankName: Type.String(),
    accountHolder: Type.String(),
    accountMasked: Type.String({ description: 'The last four digits only: ••••1234' }),
    branchCode: Type.String(),
    accountType: BankAccountType,
    changedAt: Timestamp,
    changedBy: Type.String(),
    confirmedAt: nullable(Timestamp),
    confirmedBy: nullable(Type.String()),
    pendingConfirmation: Type.Boolean({
      description:
        'Changed (or first captured) in the last 14 days and not confirmed: a payment run does not pay the supplier',
    }),
    history: Type.Array(BankDetailsChange, { description: 'Every change, newest first' }),
  }),
);
