// The payment run: what is due by a date, grouped by supplier, with what is blocked and why;
// and a run made (one payment per bill, one bank entry, a bank payment file).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { BANK_PROFILES } from './bills.payment-run.tables.ts';

const DateString = Type.String({ format: 'date' });

export const BLOCKED_REASONS = ['no_bank_details', 'on_hold', 'disputed', 'bank_details_changed'] as const;
export type BlockedReason = (typeof BLOCKED_REASONS)[number];

export const PaymentRunQuery = Type.Object({
  dueBy: Type.Optional(
    Type.String({ format: 'date', description: 'Bills due on or before this day; default today + 7 days' }),
  ),
});

export const PaymentRunBill = named(
  'PaymentRunBill',
  Type.Object({
    billId: Uuid,
    billNumber: Type.String(),
    dueDate: DateString,
    amount: Type.Number({ description: 'What is due on the bill: what the run pays' }),
  }),
);

export const PaymentRunSupplier = named(
  'PaymentRunSupplier',
  Type.Object({
    contactId: Uuid,
    payee: Type.String({ description: 'The account holder of the bank details' }),
    bankName: Type.String(),
    accountMasked: Type.String({ description: '••••1234' }),
    total: Type.Number(),
    bills: Type.Array(PaymentRunBill),
  }),
);

/** The spec's "Payment-run blocked item", field for field. */
export const PaymentRunBlockedItem = named(
  'PaymentRunBlockedItem',
  Type.Object({
    billId: Type.String(),
    vendor: Type.String({ description: "The supplier contact's name" }),
    contactId: Type.String(),
    billNumber: Type.String(),
    payee: Type.String({ description: 'The account holder when bank details exist, else the vendor' }),
    blockedReason: stringEnum(BLOCKED_REASONS, {
      description:
        'no_bank_details: the supplier has none; on_hold: the bill is held; disputed: the bill is disputed; ' +
        'bank_details_changed: the bank details changed (or were first captured) in the last 14 days and ' +
        'nobody else has confirmed them (POST /api/contacts/{id}/bank-details/confirm)',
    }),
    warning: Type.String({ description: 'The reason in words, with what to do' }),
    dueDate: DateString,
    amount: Type.Number(),
  }),
);

export const PaymentRunProposal = named(
  'PaymentRunProposal',
  Type.Object({
    dueBy: DateString,
    total: Type.Number({ description: 'What the payable suppliers are owed (blocked bills not counted)' }),
    suppliers: Type.Array(PaymentRunSupplier),
    blocked: Type.Array(PaymentRunBlockedItem),
  }),
);

export const BankProfile = named(
  'BankProfile',
  stringEnum(BANK_PROFILES, {
    description:
      "The bank file's layout. generic: a header row, then per bill payee name, account number, branch code, " +
      'account type, amount (two decimals), reference (the bill number, at most 20 characters: what the ' +
      "supplier's statement shows) and your reference (what yours shows). fnb, absa, standard_bank and " +
      "nedbank are accepted and recorded, and for now write the generic columns (each bank's own import " +
      'layout is to come); the file name carries the profile.',
  }),
);

export const PaymentRunCreate = named(
  'PaymentRunCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: Type.String({
        format: 'date',
        description: 'The payment date (not before any bill’s issue date)',
      }),
      bankAccountId: Type.Optional(uuid({ description: 'A bank account of the chart; default Bank (1000)' })),
      billIds: Type.Array(Uuid, { minItems: 1, maxItems: 500, uniqueItems: true }),
      bankProfile: Type.Optional(BankProfile),
    },
    {
      additionalProperties: false,
      examples: [
        {
          date: '2026-03-25',
          billIds: ['3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10'],
          bankProfile: 'generic',
        },
      ],
    },
  ),
);

export const PaymentRunPayment = named(
  'PaymentRunPayment',
  Type.Object({
    paymentId: Uuid,
    billId: Uuid,
    billNumber: Type.String(),
    contactId: Uuid,
    payee: Type.String(),
    accountMasked: Type.String(),
    amount: Type.Number(),
  }),
);

export const PaymentRun = named(
  'PaymentRun',
  Type.Object({
    id: Uuid,
    date: DateString,
    bankAccountId: Uuid,
    bankProfile: BankProfile,
    total: Type.Number(),
    count: Type.Integer({ description: 'Bills paid' }),
    entryId: Uuid,
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    payments: Type.Array(PaymentRunPayment),
    fileUrl: Type.String({ description: 'The bank payment file (CSV): GET it with the same credentials' }),
  }),
);

export const PaymentRunFile = Type.String({
  contentMediaType: 'text/csv',
  description:
    'The bank payment file, CSV in UTF-8; Content-Disposition names it, e.g. payment-run-2026-03-25-generic.csv',
});
