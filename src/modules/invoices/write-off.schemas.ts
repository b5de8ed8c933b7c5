import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { idParams, Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

export const BadDebtRowStatus = named(
  'BadDebtRowStatus',
  stringEnum(['posted', 'reversed'], {
    description: 'posted; reversed (undone: its entry was reversed on its own date, and it no longer counts)',
  }),
);

/** The fields an undoable write-off or recovery answers. */
const undone = (what: string) => ({
  status: BadDebtRowStatus,
  reversedAt: nullable(Type.String({ format: 'date-time', description: `When the ${what} was undone` })),
  reversalEntryId: nullable(uuid({ description: 'The entry that reversed it' })),
});

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
    id: Uuid,
    invoiceId: Uuid,
    date: Type.String({ format: 'date' }),
    amount: Type.Number({ description: 'Written off, VAT included (credited to debtors)' }),
    vatAmount: Type.Number({
      description: 'Its VAT, claimed back as input tax (VAT Act s22(1), VAT201 field 17)',
    }),
    netAmount: Type.Number({ description: 'amount − vatAmount, debited to bad debts' }),
    reason: Type.String(),
    entryId: Uuid,
    ...undone('write-off'),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const RecoveryCreate = named(
  'BadDebtRecoveryCreate',
  Type.Object(
    {
      date: Type.String({
        format: 'date',
        description: 'Not before the issue date, and after the lock date',
      }),
      amount: Type.Number({
        exclusiveMinimum: 0,
        description:
          'Received, VAT included; at most what was written off and not yet recovered. Two decimals',
      }),
      bankAccountId: Type.Optional(uuid({ description: 'A bank account of the chart; default Bank (1000)' })),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
    },
    {
      additionalProperties: false,
      examples: [{ date: '2026-09-30', amount: 575, reference: 'Liquidation dividend' }],
    },
  ),
);

export const Recovery = named(
  'BadDebtRecovery',
  Type.Object({
    id: Uuid,
    invoiceId: Uuid,
    date: Type.String({ format: 'date' }),
    amount: Type.Number({ description: 'Received, VAT included (debited to the bank account)' }),
    vatAmount: Type.Number({
      description: 'Its VAT, declared as output tax again (VAT Act s22(2), VAT201 field 12)',
    }),
    netAmount: Type.Number({ description: 'amount − vatAmount, credited to bad debts recovered (4950)' }),
    bankAccountId: Uuid,
    reference: nullable(Type.String()),
    entryId: Uuid,
    ...undone('recovery'),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const WriteOffParams = idParams('id', 'writeOffId');

export const RecoveryParams = idParams('id', 'recoveryId');
