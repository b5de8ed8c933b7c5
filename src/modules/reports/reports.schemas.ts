// TypeBox schemas of the reports: their queries and their JSON answers. Amounts are JSON
// numbers, exact to the cent (computed with decimal.js from NUMERIC sums).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Day = (description: string) => Type.String({ format: 'date', description });
const Amount = (description?: string) => Type.Number(description ? { description } : {});

export const FORMATS = ['json', 'csv', 'pdf'] as const;
export type Format = (typeof FORMATS)[number];

export const ReportFormat = named(
  'ReportFormat',
  stringEnum(FORMATS, {
    // No `default` keyword: validation would fill it in, and an absent format must leave the
    // choice to the Accept header.
    description:
      'json (default, unless the Accept header asks for text/csv or application/pdf); csv: a header row, then the rows, text/csv in UTF-8 with a file name; pdf: the ' +
      'printed report (company, title, period, rows and totals, page breaks)',
  }),
);

export const format = Type.Optional(ReportFormat);

export const from = Type.Optional(
  Day('First day (inclusive); default the start of the financial year that contains `to`'),
);
export const to = Type.Optional(Day('Last day (inclusive); default today (UTC)'));
const asOf = Type.Optional(Day('The position at the end of this day; default today (UTC)'));

export const strict = { additionalProperties: false } as const;

export const PeriodQuery = Type.Object({ from, to, format }, strict);
export const IncomeStatementQuery = Type.Object(
  {
    from,
    to,
    costCentreId: Type.Optional(
      uuid({
        description:
          "Only the lines naming this cost centre of the company (another's or none: 404; not a UUID: 400)",
      }),
    ),
    format,
  },
  strict,
);
export const AsOfQuery = Type.Object({ asOf, format }, strict);

export const TrialBalanceQuery = Type.Object(
  {
    asOf: Type.Optional(
      Day(
        'Balances at the end of this day (default today, UTC). Not with from or to, which ask for movements',
      ),
    ),
    from: Type.Optional(
      Day('Movements from this day: the start of the financial year containing `to` when only `to` is given'),
    ),
    to: Type.Optional(Day('Movements to this day: today when only `from` is given')),
    includeZero: Type.Optional(
      Type.Boolean({ default: false, description: 'true: every account of the chart, zeros included' }),
    ),
    format,
  },
  strict,
);

export const GeneralLedgerQuery = Type.Object(
  {
    from,
    to,
    accountId: Type.Optional(uuid({ description: 'One account only' })),
    format,
  },
  strict,
);

export const CompanyFields = {
  companyId: Uuid,
  companyName: Type.String(),
  currency: Type.String({ description: "The company's base currency (ZAR unless set otherwise)" }),
};

export const PeriodFields = {
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
};

export const AccountAmount = named(
  'ReportAccountAmount',
  Type.Object({
    id: nullable(uuid({ description: 'null on a line the report derives' })),
    code: nullable(Type.String()),
    name: Type.String(),
    amount: Amount(),
  }),
);

export const Section = named(
  'ReportSection',
  Type.Object({
    accounts: Type.Array(AccountAmount),
    total: Amount(),
  }),
);

export const IncomeStatement = named(
  'IncomeStatement',
  Type.Object({
    ...CompanyFields,
    ...PeriodFields,
    costCentre: nullable(
      Type.Object(
        {
          id: Uuid,
          code: Type.String(),
          name: Type.String(),
        },
        { description: 'The cost centre the statement was read for; null for the whole company' },
      ),
    ),
    revenue: Section,
    costOfSales: Section,
    grossProfit: Amount('revenue − cost of sales'),
    otherIncome: Section,
    expenses: Section,
    netProfitBeforeTax: Amount('gross profit + other income − expenses; negative is a loss'),
    incomeTax: Section,
    netProfit: Amount(
      'Net profit after tax: net profit before tax − income tax (the income_tax accounts); negative is a loss',
    ),
  }),
);

const Group = named(
  'BalanceSheetGroup',
  Type.Object({
    subtype: Type.String({
      description:
        'The accounts’ subtype; current_year_earnings for the profit of the year so far. VAT input, output ' +
        'and control are one derived line: "VAT receivable" in current_asset (a net debit) or "VAT payable" ' +
        'in current_liability (a net credit)',
    }),
    name: Type.String(),
    accounts: Type.Array(AccountAmount),
    total: Amount(),
  }),
);

const Side = {
  groups: Type.Array(Group),
  total: Amount(),
};

const BalanceSheetSide = named('BalanceSheetSide', Type.Object(Side));

export const BalanceSheet = named(
  'BalanceSheet',
  Type.Object({
    ...CompanyFields,
    asOf: Type.String({ format: 'date' }),
    financialYearStart: Type.String({ format: 'date' }),
    assets: BalanceSheetSide,
    liabilities: BalanceSheetSide,
    equity: named(
      'BalanceSheetEquity',
      Type.Object({
        ...Side,
        retainedEarnings: Amount(
          'The retained earnings accounts plus every profit before the financial year’s start',
        ),
        currentYearEarnings: Amount('Profit from the financial year’s start to asOf'),
      }),
    ),
    totalLiabilitiesAndEquity: Amount(),
    balanced: Type.Boolean({ description: 'assets = liabilities + equity, to the cent' }),
  }),
);

export const TrialBalanceRow = named(
  'TrialBalanceAccount',
  Type.Object({
    id: nullable(Uuid),
    code: nullable(Type.String()),
    name: Type.String(),
    type: Type.String(),
    subtype: Type.String(),
    debit: Amount(),
    credit: Amount(),
  }),
);

export const TrialBalanceBasis = named(
  'TrialBalanceBasis',
  stringEnum(['asOf', 'movements'], {
    description: 'asOf: balances at the end of asOf; movements: what moved from `from` to `to`',
  }),
);

export const TrialBalance = named(
  'TrialBalance',
  Type.Object({
    ...CompanyFields,
    basis: TrialBalanceBasis,
    asOf: nullable(Type.String({ format: 'date' })),
    from: nullable(Type.String({ format: 'date' })),
    to: nullable(Type.String({ format: 'date' })),
    accounts: Type.Array(TrialBalanceRow),
    totals: Type.Object({ debit: Amount(), credit: Amount() }),
    balanced: Type.Boolean(),
  }),
);

export const GeneralLedgerLine = named(
  'GeneralLedgerLine',
  Type.Object({
    date: Type.String({ format: 'date' }),
    entryId: Uuid,
    lineNo: Type.Integer(),
    description: Type.String({
      description:
        'The line’s own description, else the entry’s. A reversal line (a void, a reversed payment or ' +
        'journal) reads "Void: " and the text of the line it reverses, then " — " and the contact’s name ' +
        'when that line had a contact.',
    }),
    reference: nullable(Type.String()),
    sourceType: Type.String(),
    contactName: nullable(
      Type.String({ description: 'The contact the line names (the reversed line’s, on a reversal)' }),
    ),
    reversesEntryId: nullable(
      uuid({
        description: 'On a reversal line: the entry it reverses; otherwise null',
      }),
    ),
    debit: Amount(),
    credit: Amount(),
    balance: Amount('Running balance after this line, debit − credit'),
  }),
);

export const GeneralLedgerAccount = named(
  'GeneralLedgerAccount',
  Type.Object({
    id: Uuid,
    code: Type.String(),
    name: Type.String(),
    type: Type.String(),
    openingBalance: Amount('debit − credit before `from`'),
    lines: Type.Array(GeneralLedgerLine),
    totalDebit: Amount(),
    totalCredit: Amount(),
    closingBalance: Amount('openingBalance + debits − credits'),
  }),
);

export const GeneralLedger = named(
  'GeneralLedger',
  Type.Object({
    ...CompanyFields,
    ...PeriodFields,
    accounts: Type.Array(GeneralLedgerAccount),
  }),
);

const CashAccount = named(
  'CashAccount',
  Type.Object({
    id: Uuid,
    code: Type.String(),
    name: Type.String(),
    opening: Amount(),
    closing: Amount(),
  }),
);

export const CashFlow = named(
  'CashFlow',
  Type.Object({
    ...CompanyFields,
    ...PeriodFields,
    openingCash: Amount('The bank accounts’ balance at the end of the day before `from`'),
    operating: Section,
    investing: Section,
    financing: Section,
    netChange: Amount('operating + investing + financing'),
    closingCash: Amount('The bank accounts’ balance at the end of `to`'),
    cashAccounts: Type.Array(CashAccount),
    reconciles: Type.Boolean({ description: 'openingCash + netChange = closingCash, to the cent' }),
  }),
);
