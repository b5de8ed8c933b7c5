// TypeBox schemas of contact transactions (the spec's Contact transaction) and of the monthly
// billing aggregates /admin/billing/run-monthly posts.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { idParams, Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { AGGREGATE_STATUSES, TRANSACTION_STATUSES } from './transactions.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const ContactTransactionStatus = named(
  'ContactTransactionStatus',
  stringEnum(TRANSACTION_STATUSES, {
    description:
      'pending: not billed yet; invoiced: on the draft invoice invoiceId; void: withdrawn, never billed',
  }),
);

/** A free-form map the caller keeps with the record (its own ids, the meter it read). */
const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  description: "The caller's own data, kept and answered as sent (at most 8 KiB as JSON)",
});

export const ContactTransaction = named(
  'ContactTransaction',
  Type.Object(
    {
      id: Uuid,
      tenantId: Uuid,
      contactId: Uuid,
      description: Type.String(),
      currency: Type.String({ description: "The contact's currency when it was recorded" }),
      externalRef: nullable(Type.String()),
      metadata: Metadata,
      status: ContactTransactionStatus,
      invoiceId: nullable(Uuid),
      occurredAt: Timestamp,
      invoicedAt: nullable(Timestamp),
      createdAt: Timestamp,
      quantity: Type.Number(),
      unitPrice: Type.Number(),
      amount: Type.Number({ description: 'quantity × unitPrice, rounded half-up to cents; excluding VAT' }),
      vatRate: Type.Number({ description: 'Percent: 0 (zero-rated) or the standard rate' }),
    },
    { description: 'Usage or a charge recorded against a contact, billed on the monthly draft invoice' },
  ),
);

const createExample = {
  description: 'SMS messages sent',
  quantity: 120,
  unitPrice: 0.35,
  amount: 42,
  occurredAt: '2026-03-14T09:30:00Z',
  externalRef: 'usage-2026-03-14-sms',
  metadata: { meter: 'sms', batch: 17 },
};

export const ContactTransactionCreate = named(
  'ContactTransactionCreate',
  Type.Object(
    {
      description: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' }),
      quantity: Type.Optional(
        Type.Number({ exclusiveMinimum: 0, maximum: 1e9, description: 'Up to four decimals. Default 1' }),
      ),
      unitPrice: Type.Number({
        minimum: 0,
        maximum: 1e8,
        description: 'Excluding VAT; up to four decimals',
      }),
      amount: Type.Optional(
        Type.Number({
          minimum: 0,
          description:
            'quantity × unitPrice rounded half-up to cents; computed when left out, and when given it must be ' +
            'that figure (400 naming amount otherwise)',
        }),
      ),
      vatRate: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 100,
          description:
            'Percent: 0 (zero-rated) or the standard rate on occurredAt (15; 14 before 2018-04-01). Default the ' +
            'standard rate; any other is a 400 naming vatRate',
        }),
      ),
      occurredAt: Type.String({
        format: 'date-time',
        description: 'When the usage happened: the month it is billed in',
      }),
      externalRef: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          pattern: '\\S',
          description:
            "The caller's reference, unique in the tenant: sending it again answers 200 with the transaction " +
            'it made (nothing else changes); one used for another contact is a 409',
        }),
      ),
      metadata: Type.Optional(Metadata),
      currency: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{3}$',
          description: "The contact's currency (the default): any other is a 400 naming currency",
        }),
      ),
    },
    { examples: [createExample] },
  ),
);

/** What a change may set: the create's figures and text (externalRef and currency stay). */
export const ContactTransactionUpdate = named(
  'ContactTransactionUpdate',
  Type.Object(
    {
      description: Type.Optional(ContactTransactionCreate.properties.description),
      quantity: ContactTransactionCreate.properties.quantity,
      unitPrice: Type.Optional(ContactTransactionCreate.properties.unitPrice),
      amount: ContactTransactionCreate.properties.amount,
      vatRate: ContactTransactionCreate.properties.vatRate,
      occurredAt: Type.Optional(ContactTransactionCreate.properties.occurredAt),
      metadata: ContactTransactionCreate.properties.metadata,
    },
    { examples: [{ quantity: 130, unitPrice: 0.35, amount: 45.5 }] },
  ),
);

export const ContactTransactionListQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'Occurred on or after this day (UTC)' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Occurred on or before this day (UTC)' })),
  status: Type.Optional(ContactTransactionStatus),
});

export const ContactParams = idParams('contactId');
export const TransactionParams = idParams('contactId', 'transactionId');

export const BillingAggregateStatus = named(
  'BillingAggregateStatus',
  stringEnum(AGGREGATE_STATUSES, {
    description: 'pending: changes in place with each post; invoiced: on the draft invoice invoiceId',
  }),
);

export const BillingAggregate = named(
  'BillingAggregate',
  Type.Object(
    {
      id: Uuid,
      contactId: Uuid,
      month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', examples: ['2026-03'] }),
      amount: Type.Number({ description: 'Excluding VAT' }),
      source: Type.String(),
      description: Type.String(),
      status: BillingAggregateStatus,
      invoiceId: nullable(Uuid),
      invoicedAt: nullable(Timestamp),
      createdAt: Timestamp,
      updatedAt: Timestamp,
    },
    { description: "One contact's billed amount for one month" },
  ),
);

export const RunMonthlyBody = named(
  'RunMonthlyBody',
  Type.Object(
    {
      amount: Type.Number({
        minimum: 0,
        maximum: 1e15,
        description:
          "The month's amount excluding VAT, up to two decimals; it replaces the one posted before",
      }),
      month: Type.String({
        pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
        description: 'YYYY-MM: this month or one before it (a month not yet begun is a 400)',
      }),
      source: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'What measured it' }),
      description: Type.String({
        minLength: 1,
        maxLength: 1000,
        pattern: '\\S',
        description: "The invoice line's text",
      }),
    },
    {
      examples: [
        { amount: 1250.5, month: '2026-03', source: 'metering', description: 'Platform usage, March 2026' },
      ],
    },
  ),
);
