// Schemas of customer credit, refunds, advance payments and forfeited deposits (issue 14, items 7, 8).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { idParams, Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const CreditSourceType = named(
  'CustomerCreditSourceType',
  stringEnum(['customer_credit', 'credit_note', 'deposit'], {
    description: 'customer_credit: a credit row of its own; credit_note, deposit: the document',
  }),
);

export const CreditKind = named(
  'CustomerCreditKind',
  stringEnum(['overpayment', 'deposit_excess', 'advance_payment', 'credit_note', 'deposit'], {
    description:
      'overpayment: a payment beyond what was due; deposit_excess: a deposit beyond its invoice; ' +
      'advance_payment: paid before any invoice (VAT on receipt)',
  }),
);

export const CreditStatus = named(
  'CustomerCreditStatus',
  stringEnum(['open', 'applied', 'refunded', 'reversed', 'forfeited'], {
    description:
      'open: something remains; applied or refunded: nothing remains (refunded: some was refunded); ' +
      'reversed: its payment was reversed; forfeited: a deposit',
  }),
);

export const CustomerCredit = named(
  'CustomerCredit',
  Type.Object({
    id: Uuid,
    sourceType: CreditSourceType,
    kind: CreditKind,
    contactId: Uuid,
    contactName: Type.String(),
    number: nullable(Type.String()),
    date: Day,
    amount: Type.Number(),
    vatAmount: Type.Number({ description: 'An advance payment: its output VAT' }),
    remaining: Type.Number({ description: 'Left to apply or refund' }),
    status: CreditStatus,
    paymentId: nullable(Uuid),
    documentId: nullable(uuid({ description: 'The invoice overpaid, or the deposit' })),
    bankAccountId: nullable(Uuid),
    reference: nullable(Type.String()),
    entryId: nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const CustomerCreditListQuery = Type.Object(
  {
    ...pageQueryProperties,
    contactId: Type.Optional(Uuid),
    status: Type.Optional(CreditStatus),
    updatedSince: Type.Optional(Timestamp),
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
          description: 'At most what remains; default all',
        }),
      ),
      date: Day,
      bankAccountId: Type.Optional(uuid({ description: 'Default Bank (1000)' })),
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
    amount: Type.Number(),
    vatAmount: Type.Number({ description: 'An advance payment: the output VAT reversed' }),
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

export const RefundParams = idParams('id', 'refundId');

export const AdvancePaymentCreate = named(
  'AdvancePaymentCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: Uuid,
      date: Day,
      amount: Type.Number({ exclusiveMinimum: 0, maximum: 999_999_999_999.99, description: 'VAT included' }),
      bankAccountId: Type.Optional(uuid({ description: 'Default Bank (1000)' })),
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
      date: Day,
      reason: Type.String({ minLength: 1, maxLength: 500 }),
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
    amount: Type.Number(),
    vatAmount: Type.Number(),
    netAmount: Type.Number(),
    reason: Type.String(),
    entryId: Uuid,
    createdAt: Timestamp,
  }),
);
