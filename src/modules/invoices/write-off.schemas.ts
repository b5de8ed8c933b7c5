import { Type } from 'typebox';
import { named } from '../../platform/http/schema-names.ts';

export const WriteOffCreate = named(
  'WriteOffCreate',
  Type.Object(
    {
      date: Type.String({
        format: 'date',
        description: 'Not before the issue date, and after the lock date',
      }),
      amount: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          description: 'VAT included; at most what is still due; default all of it. Two decimals',
        }),
      ),
      reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why the debt is irrecoverable' }),
    },
    {
      additionalProperties: false,
      examples: [{ date: '2026-06-30', reason: 'Customer liquidated; no dividend expected' }],
    },
  ),
);

export const WriteOff = named(
  'WriteOff',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    invoiceId: Type.String({ format: 'uuid' }),
    date: Type.String({ format: 'date' }),
    amount: Type.Number({ description: 'Written off, VAT included (credited to debtors)' }),
    vatAmount: Type.Number({
      description: 'Its VAT, claimed back as input tax (VAT Act s22(1), VAT201 field 17)',
    }),
    netAmount: Type.Number({ description: 'amount − vatAmount, debited to bad debts' }),
    reason: Type.String(),
    entryId: Type.String({ format: 'uuid' }),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);
