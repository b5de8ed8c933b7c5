import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';

export const TAX_CODES = [
  'standard',
  'standard_capital',
  'zero',
  'zero_export',
  'exempt',
  'bad_debt_recovered',
  'accommodation_short',
  'accommodation_long',
  'change_in_use',
  'imported_services',
  'input_standard',
  'input_capital',
  'input_zero',
  'input_exempt',
  'input_import',
  'input_capital_import',
  'input_change_in_use',
  'input_other',
  'input_bad_debt',
] as const;

export const TaxCode = named(
  'TaxCode',
  stringEnum(TAX_CODES, {
    description:
      'VAT classification for the VAT report (VAT201 field in brackets): on a sales or purchase line, how its ' +
      'net amount was taxed; on a VAT account line, the tax it carries. The standard-rated codes take the ' +
      'standard rate of the date (15%, 14% before 2018-04-01), the others 0. Output: standard (1, 4); ' +
      'standard_capital (capital goods or services supplied: 1A, 4A); zero (zero-rated, s11: 2); zero_export ' +
      '(exports, s11(1)(a): 2A); exempt (s12: 3); accommodation_long (commercial accommodation of more than 28 ' +
      'days, s10(10): 5, the VAT is the rate of 60% of the net); accommodation_short (28 days or less: 7); ' +
      'change_in_use (output tax on goods or services taken out of taxable use, or second-hand goods exported, ' +
      's18(1): 10, 11; tag the credit line of the goods); imported_services (VAT on imported services, ' +
      's7(1)(c): 12; the tax alone, the value of the service is not paired); bad_debt_recovered (the VAT on a ' +
      'bad debt recovered, s22(2): 12; posted by a recovery only). Input: input_standard (15); input_capital ' +
      '(capital goods and services: 14); input_import (VAT paid to customs on imports: 15A) and ' +
      'input_capital_import (on capital goods imported: 14A), the tax alone as customs levied it (s13(2)), ' +
      'not paired with a net; input_change_in_use (goods or services taken into taxable use, s18(4): 16); ' +
      'input_bad_debt (the VAT of a bad debt written off, claimed back, s22(1): 17; posted by an invoice ' +
      'write-off only); input_other (other input tax adjustments: 18); input_zero, input_exempt (no VAT).',
  }),
);

export const JOURNAL_STATUSES = ['posted', 'reversed', 'reversal'] as const;

export const JournalStatus = named(
  'JournalStatus',
  stringEnum(JOURNAL_STATUSES, {
    description: 'posted; reversed (a reversal cancels it); reversal (it cancels another entry)',
  }),
);

const Amount = Type.Number({ minimum: 0, description: 'Rand and cents, at most two decimals' });

export const JournalLineInput = named(
  'JournalLineCreate',
  Type.Object(
    {
      accountId: Type.Optional(uuid({ description: 'The account; or give accountCode' })),
      accountCode: Type.Optional(
        Type.String({ maxLength: 20, description: "The account's code, instead of its id" }),
      ),
      debit: Type.Optional(Amount),
      credit: Type.Optional(Amount),
      description: Type.Optional(Type.String({ maxLength: 500 })),
      contactId: Type.Optional(Uuid),
      costCentreId: Type.Optional(uuid({ description: "One of the company's active cost centres" })),
      taxCode: Type.Optional(TaxCode),
      taxRate: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 100,
          description:
            "Percent, with taxCode: the code's rate on the journal's date (15%, 14% before 2018-04-01; 0 for " +
            'zero, zero_export, exempt, input_zero, input_exempt)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const JournalCreate = named(
  'JournalCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: Type.String({ format: 'date' }),
      description: Type.String({ minLength: 1, maxLength: 500 }),
      reference: Type.Optional(Type.String({ maxLength: 100 })),
      lines: Type.Array(JournalLineInput, { minItems: 2, maxItems: 500 }),
    },
    {
      examples: [
        {
          date: '2026-03-31',
          description: 'Bank charges for March',
          reference: 'MJ-0001',
          lines: [
            { accountCode: '6100', debit: 125.5, description: 'Monthly service fee' },
            { accountCode: '1000', credit: 125.5 },
          ],
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const JournalLine = named(
  'JournalLine',
  Type.Object({
    id: Uuid,
    lineNo: Type.Integer(),
    accountId: Uuid,
    accountCode: Type.String(),
    accountName: Type.String(),
    debit: Type.Number(),
    credit: Type.Number(),
    description: nullable(Type.String()),
    contactId: nullable(Uuid),
    openItemId: nullable(Uuid),
    dueDate: nullable(Type.String({ format: 'date' })),
    taxCode: nullable(TaxCode),
    taxRate: nullable(Type.Number()),
    costCentreId: nullable(Uuid),
  }),
);

export const Journal = named(
  'Journal',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    date: Type.String({ format: 'date' }),
    description: Type.String(),
    reference: nullable(Type.String()),
    sourceType: Type.String({ description: 'manual_journal, invoice, payment, ...' }),
    sourceId: nullable(Uuid),
    status: JournalStatus,
    reversesEntryId: nullable(Uuid),
    reversedByEntryId: nullable(Uuid),
    totalDebit: Type.Number(),
    totalCredit: Type.Number(),
    createdAt: Type.String({ format: 'date-time', description: 'When it was posted' }),
    updatedAt: Type.String({
      format: 'date-time',
      description:
        'When it last changed: an entry itself never changes, so this is when it was posted, or when its ' +
        'reversal was (status reversed)',
    }),
    lines: Type.Array(JournalLine),
  }),
);

export const JournalsQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'createdAt', 'updatedAt'], '-date'),
    from: Type.Optional(Type.String({ format: 'date' })),
    to: Type.Optional(Type.String({ format: 'date' })),
    sourceType: Type.Optional(Type.String({ maxLength: 50, description: 'e.g. manual_journal' })),
  },
  { additionalProperties: false },
);

export const VoidQuery = Type.Object(
  {
    date: Type.Optional(
      Type.String({
        format: 'date',
        description:
          "The reversal's date; default the journal's own date (it then nets to zero in every report)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const LedgerQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'createdAt'], 'date'),
    from: Type.Optional(Type.String({ format: 'date' })),
    to: Type.Optional(Type.String({ format: 'date' })),
    accountId: Type.Optional(Uuid),
    contactId: Type.Optional(Uuid),
    costCentreId: Type.Optional(uuid({ description: 'Only lines naming this cost centre' })),
    sourceType: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

export const LedgerLine = named(
  'LedgerLine',
  Type.Object({
    id: Uuid,
    entryId: Uuid,
    lineNo: Type.Integer(),
    date: Type.String({ format: 'date' }),
    accountId: Uuid,
    accountCode: Type.String(),
    accountName: Type.String(),
    debit: Type.Number(),
    credit: Type.Number(),
    description: nullable(Type.String()),
    entryDescription: Type.String(),
    reference: nullable(Type.String()),
    contactId: nullable(Uuid),
    sourceType: Type.String(),
    sourceId: nullable(Uuid),
    taxCode: nullable(TaxCode),
    taxRate: nullable(Type.Number()),
    costCentreId: nullable(Uuid),
    createdAt: Type.String({
      format: 'date-time',
      description:
        "When its entry was posted. A line never changes (a void posts a reversal's own lines), so updatedSince compares this",
    }),
  }),
);

export const LedgerSettings = named(
  'LedgerSettings',
  Type.Object({
    lockDate: nullable(Type.String({ format: 'date' })),
    financialYearEndMonth: Type.Integer({ minimum: 1, maximum: 12 }),
  }),
);

export const LedgerSettingsUpdate = named(
  'LedgerSettingsUpdate',
  Type.Object(
    {
      lockDate: Type.Optional(
        nullable(Type.String({ format: 'date' }), {
          description: 'Nothing may be posted on or before it; null unlocks',
        }),
      ),
      financialYearEndMonth: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 12,
          description: 'The month the financial year ends (2 = February)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
