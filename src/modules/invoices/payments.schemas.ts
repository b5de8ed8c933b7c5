import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { idParams, Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const PaymentCreate = named(
  'PaymentCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      // The money ceiling: beyond it the journal refused it as lines[0].debit (issue 35).
      amount: Type.Number({
        exclusiveMinimum: 0,
        maximum: 999_999_999_999.99,
        description: "Beyond what is due: the customer's credit",
      }),
      date: Type.String({ format: 'date', description: 'Not before the issue date' }),
      method: Type.Optional(
        Type.String({
          maxLength: 50,
          description: 'How it was paid, as you name it (free text, e.g. eft, card, cash)',
        }),
      ),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
      bankAccountId: Type.Optional(uuid({ description: 'A bank account of the chart; default Bank (1000)' })),
    },
    {
      additionalProperties: false,
      examples: [{ amount: 100, date: '2026-03-15', method: 'eft', reference: 'EFT 1234' }],
    },
  ),
);

export const PaymentStatus = named(
  'PaymentStatus',
  stringEnum(['received', 'reversed'], {
    description: 'reversed: its entry was reversed; it no longer counts',
  }),
);

export const Payment = named(
  'Payment',
  Type.Object({
    id: Uuid,
    invoiceId: Uuid,
    amount: Type.Number(),
    date: Type.String({ format: 'date' }),
    method: nullable(Type.String()),
    reference: nullable(Type.String()),
    bankAccountId: Uuid,
    entryId: Uuid,
    status: PaymentStatus,
    reversedAt: nullable(Timestamp),
    reversalEntryId: nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Type.String({ format: 'date-time', description: 'Moves when the payment is reversed' }),
  }),
);

export const AllocationCreate = named(
  'AllocationCreate',
  Type.Object(
    {
      sourceId: uuid({
        description: 'A released credit note or deposit, or a customer credit, of the same customer',
      }),
      amount: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          description: 'Default as much as fits. Not for a deposit (applied whole)',
        }),
      ),
      date: Type.Optional(
        Type.String({ format: 'date', description: 'Default today (not before either document)' }),
      ),
    },
    { additionalProperties: false, examples: [{ sourceId: '6b1f3c2e-8d4a-4f1b-9c3e-2a5d7e9f0b1c' }] },
  ),
);

export const AllocationSourceType = named(
  'AllocationSourceType',
  stringEnum(['credit_note', 'deposit', 'customer_credit'], {
    description: 'What was applied to the invoice',
  }),
);

export const Allocation = named(
  'Allocation',
  Type.Object({
    id: Uuid,
    sourceId: Uuid,
    sourceType: AllocationSourceType,
    sourceNumber: Type.String({ description: "A customer credit's: its kind and date" }),
    invoiceId: Uuid,
    amount: Type.Number(),
    vatAmount: Type.Number({ description: 'An advance payment: the output VAT reversed' }),
    date: Type.String({ format: 'date' }),
    entryId: Uuid,
    reversedAt: nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Type.String({ format: 'date-time', description: 'Moves when the allocation is reversed' }),
  }),
);

export const PaymentParams = idParams('id', 'paymentId');

export const AllocationParams = idParams('id', 'allocationId');
