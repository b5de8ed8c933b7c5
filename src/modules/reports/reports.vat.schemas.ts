// TypeBox schemas of the VAT report, its VAT periods and their submission.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { named } from '../../platform/http/schema-names.ts';
import { TaxCodeSchema as TaxCode } from '../ledger/index.ts';
import { CompanyFields, format, from, PeriodFields, strict, to } from './reports.schemas.ts';
import { VAT201_FIELDS } from './reports.vat201.ts';

const Amount = (description?: string) => Type.Number(description ? { description } : {});
const PeriodId = Type.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
  description: "A VAT period's id: its end month, YYYY-MM (e.g. 2026-02)",
});

export const VatQuery = Type.Object(
  {
    from,
    to,
    period: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
        description:
          'A VAT period of the company (its id, the end month YYYY-MM, from GET /api/reports/vat/periods), ' +
          'instead of from and to',
      }),
    ),
    format,
  },
  strict,
);

export const VatPeriodsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        format: 'date',
        description:
          'The periods overlapping [from, to]; default the start of the financial year containing to',
      }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date', description: 'Default the end of the financial year containing today' }),
    ),
  },
  strict,
);

export const VatPeriodParams = Type.Object({ id: PeriodId }, strict);

export const VAT_PERIOD_STATUSES = ['open', 'submitted'] as const;

export const VatPeriodStatus = named(
  'VatPeriodStatus',
  stringEnum(VAT_PERIOD_STATUSES, {
    description:
      'open: its report follows the ledger; submitted: its report answers the figures frozen at submission',
  }),
);

export const VatPeriod = named(
  'VatPeriod',
  Type.Object({
    id: PeriodId,
    from: Type.String({ format: 'date', description: 'First day' }),
    to: Type.String({ format: 'date', description: 'Last day' }),
    status: VatPeriodStatus,
    submittedAt: nullable(Type.String({ format: 'date-time', description: 'When marked submitted' })),
  }),
);

const VatLine = named(
  'VatReportLine',
  Type.Object({
    taxCode: TaxCode,
    rate: Type.Number({ description: 'Percent' }),
    transition: Type.Optional(
      Type.Literal(true, {
        description:
          'Present (true) on a standard-rated code (imports aside) at a rate other than the rate of the return, ' +
          'the standard rate on the last day of the range (14% in a return ending from 2018-04-01: a March 2018 ' +
          'supply, a credit or debit note against a 14% supply): kept out of its own field; output tax charged ' +
          'or increased in field 12, decreased in 18; input tax claimed or increased in 18, decreased in 12',
      }),
    ),
    net: Amount(),
    vat: Amount(),
  }),
);

const VatSide = named(
  'VatReportSide',
  Type.Object({
    lines: Type.Array(VatLine),
    totalNet: Amount(),
    totalVat: Amount(),
  }),
);

const box = (description: string) => Amount(description);

export const Vat201 = named(
  'Vat201',
  Type.Object({
    field1: box(
      'Standard rate (excluding capital goods and/or services and accommodation), VAT included: code ' +
        'standard at the standard rate of its date, net + VAT',
    ),
    field1A: box('Standard rate (only capital goods and/or services), VAT included: standard_capital'),
    field2: box('Zero rate (excluding goods exported): zero'),
    field2A: box('Zero rate (only exported goods): zero_export'),
    field3: box('Exempt and non-supplies: exempt'),
    field4: box('Output tax on field 1'),
    field4A: box('Output tax on field 1A'),
    field5: box('Supply of accommodation exceeding 28 days, excluding VAT: accommodation_long net'),
    field6: box('60% of field 5 (s10(10)), per rate'),
    field7: box('Supply of accommodation not exceeding 28 days, excluding VAT: accommodation_short net'),
    field8: box('6 + 7'),
    field9: box(
      'Output tax on field 8: the standard rate of 8, per rate, as SARS computes it (it may differ from the ' +
        'VAT posted on the lines, rounded per line, by cents)',
    ),
    field10: box('Change in use and export of second-hand goods (s18(1)), VAT included: change_in_use'),
    field11: box('Output tax on field 10'),
    field12: box(
      'Other and imported services: the VAT of imported_services (s7(1)(c)) and of bad debts recovered ' +
        '(bad_debt_recovered, s22(2): SARS places recovered bad debts here), plus output tax charged or ' +
        'increased and input tax decreased at an earlier rate (14% in a return ending from 2018-04-01), and ' +
        'increases of output tax and decreases of input tax from postings dated in submitted periods',
    ),
    field13: box('Total output tax: 4 + 4A + 9 + 11 + 12'),
    field14: box('Capital goods and/or services supplied to you: input_capital VAT'),
    field14A: box('Capital goods imported: input_capital_import VAT'),
    field15: box('Other goods and/or services supplied to you (not capital goods): input_standard VAT'),
    field15A: box('Other goods imported (not capital goods): input_import VAT'),
    field16: box('Change in use (s18(4)): input_change_in_use VAT'),
    field17: box('Bad debts: the VAT of debts written off, claimed back (input_bad_debt, s22(1))'),
    field18: box(
      'Other: input_other VAT, plus input tax claimed or increased and output tax decreased at an earlier ' +
        'rate (14% in a return ending from 2018-04-01), and decreases of output tax and increases of input tax ' +
        'from postings dated in submitted periods',
    ),
    field19: box('Total input tax: 14 + 14A + 15 + 15A + 16 + 17 + 18'),
    field20: box('VAT payable: 13 − 19 (negative: refundable)'),
  }),
);

const Vat201Field = named(
  'Vat201Field',
  Type.Object({
    field: Type.String({ description: 'The SARS field number: 1, 1A, 2, ... 20' }),
    label: Type.String({ description: 'The SARS label of the field' }),
    amount: Amount(),
  }),
);

const VatAdjustment = named(
  'VatReportAdjustment',
  Type.Object({
    periodId: PeriodId,
    outputTax: Amount('Output tax posted in that submitted period since it was reported (negative: less)'),
    inputTax: Amount('Input tax posted in that submitted period since it was reported (negative: less)'),
  }),
);

export const VatReport = named(
  'VatReport',
  Type.Object({
    ...CompanyFields,
    ...PeriodFields,
    period: nullable(VatPeriod, {
      description:
        'The VAT period when from and to are exactly one (asked by period or by its dates), else null',
    }),
    output: VatSide,
    input: VatSide,
    adjustments: Type.Array(VatAdjustment, {
      description:
        'An open period: for each submitted period it is the first open period after, what was posted dated in ' +
        'it since it was reported; a submitted period: what it reported so. Each is in fields 12 and 18',
    }),
    vat201: Vat201,
    fields: Type.Array(Vat201Field, {
      description: `Every VAT201 field in SARS order (${VAT201_FIELDS.length}), with its number and label`,
    }),
  }),
);
