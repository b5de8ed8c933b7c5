// Schemas of customer credit, refunds, advance payments and forfeited deposits (issue 14, items 7, 8).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { named } from '../../platform/http/schema-names.ts';

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const CreditSourceType = named(
  'CustomerCreditSourceType',
  stringEnum(['customer_credit', 'credit_note', 'deposit'], {
    description:
      'customer_credit: a credit of its own (an overpayment, a deposit excess, an advance payment); ' +
      'credit_note, deposit: what remains of a released credit note or deposit',
  }),
);

export const CreditKind = named(
  'CustomerCreditKind',
  stringEnum(['overpayment', 'deposit_excess', 'advance_payment', 'credit_note', 'deposit'], {
    description:
      'overpayment: the excess of a payment over what was due; deposit_excess: what was left of a deposit ' +
      'applied to a smaller invoice; advance_payment: a payment on account before any invoice (its VAT ' +
      'accounted on receipt); credit_note, deposit: the document itself',
  }),
);

export const CreditStatus = named(
  'CustomerCreditStatus',
  stringEnum(['open', 'applied', 'refunded', 'reversed', 'forfeited'], {
    description:
      'open: something remains; applied: nothing remains and none of it was refunded; refunded: nothing ' +
      'remains and some of it was refunded; reversed: the payment it came from was reversed; forfeited: a ' +
      'deposit the customer forfeited',
  }),
);

export const CustomerCredit = named(
  'CustomerCredit',
  Type.Object({
    id: Type.String({ format: 'uuid', description: 'The credit, or the credit note or deposit' }),
    sourceType: CreditSourceType,
    kind: CreditKind,
    contactId: Uuid,
    contactName: Type.String(),
    number: nullable(Type.String({ description: "The credit note's or deposit's number" })),
    date: Day,
    amount: Type.Number({ description: 'What the credit was when it arose, VAT included' }),
    vatAmount: Type.Number({ description: 'An advance payment: the output VAT accounted on receipt' }),
    remaining: Type.Number({ description: 'What is left to apply or refund' }),
    status: CreditStatus,
    paymentId: nullable(Type.String({ format: 'uuid', description: 'An overpayment: the payment' })),
    documentId: nullable(
      Type.String({
        format: 'uuid',
        description: 'An overpayment: the invoice paid; a deposit excess: the deposit',
      }),
    ),
    bankAccountId: nullable(Uuid),
    reference: nullable(Type.String()),
    entryId: nullable(Type.String({ format: 'uuid', description: 'The entry it arose in' })),
    createdAt: Timestamp,
    updatedAt: Type.String({ format: 'date-time', description: 'Moves when it is drawn on or given back' }),
  }),
);

export const CustomerCreditListQuery = Type.Object(
  {
    ...pageQueryProperties,
    contactId: Type.Optional(Uuid),
    status: Type.Optional(CreditStatus),
    updatedSince: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only credits changed at or after this instant' }),
    ),
  },
  { additionalProperties: false },
);

export const RefundCreate = named(
  'RefundCreate',
  Type.Object(
    {
      amount: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          description: 'At most what remains; default all of it. Two decimals',
        }),
      ),
      date: Type.String({ format: 'date', description: 'Not before the credit arose; after the lock date' }),
      bankAccountId: Type.Optional(
        Type.String({ format: 'uuid', description: 'A bank account of the chart; default Bank (1000)' }),
      ),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
    },
    { additionalProperties: false, examples: [{ amount: 150, date: '2026-04-20', reference: 'EFT refund' }] },
  ),
);

export const RefundStatus = named(
  'RefundStatus',
  stringEnum(['paid', 'reversed'], { description: 'reversed: its entry was reversed; it no longer counts' }),
);

export const Refund = named(
  'Refund',
  Type.Object({
    id: Uuid,
    sourceType: CreditSourceType,
    sourceId: Uuid,
    contactId: Uuid,
    date: Day,
    amount: Type.Number({ description: 'Paid out to the customer' }),
    vatAmount: Type.Number({
      description: 'An advance payment refunded: the output VAT it reverses (s21); else 0',
    }),
    bankAccountId: Uuid,
    reference: nullable(Type.String()),
    entryId: Uuid,
    status: RefundStatus,
    reversedAt: nullable(Timestamp),
    reversalEntryId: nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const CreditIdParams = Type.Object({ id: Uuid });
export const RefundParams = Type.Object({ id: Uuid, refundId: Uuid });

export const AdvancePaymentCreate = named(
  'AdvancePaymentCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: Type.String({ format: 'uuid', description: 'The customer' }),
      date: Type.String({
        format: 'date',
        description: 'The day the money was received; after the lock date',
      }),
      amount: Type.Number({ exclusiveMinimum: 0, description: 'Received, VAT included. Two decimals' }),
      bankAccountId: Type.Optional(
        Type.String({ format: 'uuid', description: 'A bank account of the chart; default Bank (1000)' }),
      ),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
    },
    {
      additionalProperties: false,
      examples: [
        {
          contactId: '6b1f3c2e-8d4a-4f1b-9c3e-2a5d7e9f0b1c',
          date: '2026-03-20',
          amount: 1150,
          reference: 'EFT 991',
        },
      ],
    },
  ),
);

export const ForfeitCreate = named(
  'DepositForfeitCreate',
  Type.Object(
    {
      date: Type.String({ format: 'date', description: 'Not before the deposit; after the lock date' }),
      reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why the deposit is forfeited' }),
    },
    {
      additionalProperties: false,
      examples: [{ date: '2026-04-30', reason: 'Booking cancelled by the customer' }],
    },
  ),
);

export const DepositForfeit = named(
  'DepositForfeit',
  Type.Object({
    id: Uuid,
    depositId: Uuid,
    date: Day,
    amount: Type.Number({ description: 'What remained of the deposit, VAT included (Dr customer deposits)' }),
    vatAmount: Type.Number({
      description:
        'Output VAT: the tax fraction (15/115; 14/114 before 2018-04-01) when registered on the date',
    }),
    netAmount: Type.Number({ description: 'amount − vatAmount, to 4960 Forfeited deposits' }),
    reason: Type.String(),
    entryId: Uuid,
    createdAt: Timestamp,
  }),
);
