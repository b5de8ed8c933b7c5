// The income statement and the balance sheet, from the running account balances.
//
// Signs: income and expenses both read positive in their sections (income = credit − debit,
// expenses = debit − credit), so net profit = revenue − cost of sales + other income −
// expenses, negative for a loss. On the balance sheet assets are debit − credit, liabilities
// and equity credit − debit. Income and expense accounts are never closed by entries: the
// profit of earlier financial years appears as retained earnings, the profit of the year so far
// as current year earnings, so assets = liabilities + equity whatever the date.
//
// Income tax (accounts of subtype income_tax) comes after net profit before tax: net profit
// is after tax. VAT (the VAT input, VAT output and VAT control accounts) is one net line on the
// balance sheet: what the company would settle with SARS, "VAT receivable" among the other
// current assets when the accounts net to a debit, "VAT payable" among the other current
// liabilities when they net to a credit (the trial balance keeps them apart).
import type { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { addDays, financialYearStart } from '../../platform/dates/days.ts';
import type { Row, Table } from '../../platform/files/table.ts';
import { sum, toNumber, ZERO } from '../../platform/money/money.ts';
import {
  type AccountSubtype,
  type AccountTotal,
  accountTotals,
  costCentreOf,
  costCentreTotals,
} from '../ledger/index.ts';
import {
  asAtText,
  companyFields,
  documentOf,
  periodText,
  type Report,
  type ReportCtx,
} from './reports.context.ts';
import type { BalanceSheet, IncomeStatement } from './reports.schemas.ts';

/** A line of a section: an account, or a figure the report derives (id and code null). */
export interface Line {
  id: string | null;
  code: string | null;
  name: string;
  amount: Decimal;
}

export interface Part {
  lines: Line[];
  total: Decimal;
}

export const creditNormal = (a: AccountTotal) => a.credit.minus(a.debit);
export const debitNormal = (a: AccountTotal) => a.net;

/** The accounts' amounts by `amountOf`, zeros left out, by code; and their total. */
export function part(accounts: AccountTotal[], amountOf: (a: AccountTotal) => Decimal): Part {
  const lines = accounts
    .map((a) => ({ id: a.accountId, code: a.code, name: a.name, amount: amountOf(a) }))
    .filter((l) => !l.amount.isZero());
  return { lines, total: sum(lines.map((l) => l.amount)) };
}

export function partJson(p: Part) {
  return {
    accounts: p.lines.map((l) => ({ id: l.id, code: l.code, name: l.name, amount: toNumber(l.amount) })),
    total: toNumber(p.total),
  };
}

/** A section in a printed table: its heading, its lines indented, its total. */
export function partRows(heading: string, p: Part, totalLabel = `Total ${heading.toLowerCase()}`): Row[] {
  return [
    { cells: [null, heading, null], style: 'heading' },
    ...p.lines.map((l): Row => ({ cells: [l.code, l.name, l.amount], indent: 1 })),
    { cells: [null, totalLabel, p.total], style: 'total' },
  ];
}

export const AMOUNT_COLUMNS: Table['columns'] = [
  { label: 'Code', width: 0.7 },
  { label: 'Account', width: 4 },
  { label: 'Amount', kind: 'money', width: 1.4 },
];

const bySubtype = (accounts: AccountTotal[], ...subtypes: AccountSubtype[]) =>
  accounts.filter((a) => subtypes.includes(a.subtype));

/** Income less expenses of the accounts' totals: the profit they show. */
export function profitOf(accounts: AccountTotal[]): Decimal {
  return sum(accounts.filter((a) => a.type === 'income' || a.type === 'expense').map((a) => a.net)).negated();
}

type IncomeStatementJson = Static<typeof IncomeStatement>;

export async function incomeStatement(
  rc: ReportCtx,
  period: { from: string; to: string },
  costCentreId?: string,
): Promise<Report<IncomeStatementJson>> {
  const centre = costCentreId
    ? await costCentreOf(rc.ctx.db, rc.tenantId, rc.companyId, costCentreId)
    : undefined;
  const totals = centre
    ? await costCentreTotals(rc.ctx.db, rc.tenantId, rc.companyId, centre.id, period)
    : await accountTotals(rc.ctx.db, rc.tenantId, rc.companyId, period);
  const revenue = part(bySubtype(totals, 'revenue'), creditNormal);
  const costOfSales = part(bySubtype(totals, 'cost_of_sales'), debitNormal);
  const otherIncome = part(bySubtype(totals, 'other_income'), creditNormal);
  const expenses = part(bySubtype(totals, 'expense'), debitNormal);
  const incomeTax = part(bySubtype(totals, 'income_tax'), debitNormal);
  const grossProfit = revenue.total.minus(costOfSales.total);
  const netProfitBeforeTax = grossProfit.plus(otherIncome.total).minus(expenses.total);
  const netProfit = netProfitBeforeTax.minus(incomeTax.total);
  return {
    json: {
      ...companyFields(rc),
      ...period,
      costCentre: centre ? { id: centre.id, code: centre.code, name: centre.name } : null,
      revenue: partJson(revenue),
      costOfSales: partJson(costOfSales),
      grossProfit: toNumber(grossProfit),
      otherIncome: partJson(otherIncome),
      expenses: partJson(expenses),
      netProfitBeforeTax: toNumber(netProfitBeforeTax),
      incomeTax: partJson(incomeTax),
      netProfit: toNumber(netProfit),
    },
    document: () =>
      documentOf(rc, {
        title: centre ? `Income statement: ${centre.code} ${centre.name}` : 'Income statement',
        period: periodText(period.from, period.to),
        filename: `income-statement_${centre ? `${centre.code}_` : ''}${period.from}_${period.to}`,
        notes: ['Income and expenses both read positive; a negative net profit is a loss.'],
        tables: [
          {
            columns: AMOUNT_COLUMNS,
            rows: [
              ...partRows('Revenue', revenue),
              ...partRows('Cost of sales', costOfSales),
              { cells: [null, 'Gross profit', grossProfit], style: 'total' },
              ...partRows('Other income', otherIncome),
              ...partRows('Expenses', expenses),
              {
                cells: [
                  null,
                  netProfitBeforeTax.isNegative() ? 'Net loss before tax' : 'Net profit before tax',
                  netProfitBeforeTax,
                ],
                style: 'total',
              },
              ...partRows('Income tax', incomeTax),
              {
                cells: [
                  null,
                  netProfit.isNegative() ? 'Net loss after tax' : 'Net profit after tax',
                  netProfit,
                ],
                style: 'grand',
              },
            ],
          },
        ],
      }),
  };
}

interface Group extends Part {
  subtype: string;
  name: string;
}

const ASSET_GROUPS: Array<[AccountSubtype, string]> = [
  ['bank', 'Bank and cash'],
  ['receivable', 'Trade receivables'],
  ['inventory', 'Inventory'],
  ['current_asset', 'Other current assets'],
  ['fixed_asset', 'Fixed assets'],
  ['non_current_asset', 'Other non-current assets'],
];
const LIABILITY_GROUPS: Array<[AccountSubtype, string]> = [
  ['payable', 'Trade payables'],
  ['current_liability', 'Other current liabilities'],
  ['non_current_liability', 'Non-current liabilities'],
];

function groups(
  accounts: AccountTotal[],
  list: Array<[AccountSubtype, string]>,
  amountOf: (a: AccountTotal) => Decimal,
  derived: Partial<Record<AccountSubtype, Line[]>> = {},
): Group[] {
  return list
    .map(([subtype, name]) => {
      const p = part(bySubtype(accounts, subtype), amountOf);
      const extra = derived[subtype] ?? [];
      return {
        subtype,
        name,
        lines: [...p.lines, ...extra],
        total: p.total.plus(sum(extra.map((l) => l.amount))),
      };
    })
    .filter((g) => g.lines.length > 0);
}

/** The accounts netted into one VAT line on the balance sheet. */
export const VAT_KEYS = ['vat_input', 'vat_output', 'vat_control'];

/**
 * The VAT accounts as one line: their net debit a current asset "VAT receivable", their net
 * credit a current liability "VAT payable", nothing when they net to zero.
 */
function vatLine(vat: AccountTotal[]): Partial<Record<AccountSubtype, Line[]>> {
  const net = sum(vat.map((a) => a.net));
  if (net.isZero()) return {};
  return net.isPositive()
    ? { current_asset: [{ id: null, code: null, name: 'VAT receivable', amount: net }] }
    : { current_liability: [{ id: null, code: null, name: 'VAT payable', amount: net.negated() }] };
}

const groupJson = (g: Group) => ({ subtype: g.subtype, name: g.name, ...partJson(g) });

function sideRows(heading: string, gs: Group[], total: Decimal, totalLabel: string): Row[] {
  return [
    { cells: [null, heading, null], style: 'heading' },
    ...gs.flatMap((g): Row[] => [
      { cells: [null, g.name, null], style: 'heading', indent: 1 },
      ...g.lines.map((l): Row => ({ cells: [l.code, l.name, l.amount], indent: 2 })),
      { cells: [null, `Total ${g.name.toLowerCase()}`, g.total], style: 'total', indent: 1 },
    ]),
    { cells: [null, totalLabel, total], style: 'grand' },
  ];
}

type BalanceSheetJson = Static<typeof BalanceSheet>;

export async function balanceSheet(rc: ReportCtx, asOf: string): Promise<Report<BalanceSheetJson>> {
  const yearStart = financialYearStart(asOf, rc.yearEndMonth);
  const atDate = await accountTotals(rc.ctx.db, rc.tenantId, rc.companyId, { to: asOf });
  const beforeYear = await accountTotals(rc.ctx.db, rc.tenantId, rc.companyId, {
    to: addDays(yearStart, -1),
  });
  const earlierProfit = profitOf(beforeYear);
  const currentYearEarnings = profitOf(atDate).minus(earlierProfit);

  const isVat = (a: AccountTotal) => a.systemKey !== null && VAT_KEYS.includes(a.systemKey);
  const vat = vatLine(atDate.filter(isVat));
  const others = atDate.filter((a) => !isVat(a));
  const assets = groups(others, ASSET_GROUPS, debitNormal, vat);
  const liabilities = groups(others, LIABILITY_GROUPS, creditNormal, vat);
  const capital = part(bySubtype(atDate, 'equity'), creditNormal);
  const retained = part(bySubtype(atDate, 'retained_earnings'), creditNormal);
  const earlier: Line[] = earlierProfit.isZero()
    ? []
    : [{ id: null, code: null, name: 'Profit of earlier financial years', amount: earlierProfit }];
  const equity: Group[] = [
    ...(capital.lines.length ? [{ subtype: 'equity', name: 'Capital', ...capital }] : []),
    {
      subtype: 'retained_earnings',
      name: 'Retained earnings',
      lines: [...retained.lines, ...earlier],
      total: retained.total.plus(earlierProfit),
    },
    {
      subtype: 'current_year_earnings',
      name: 'Current year earnings',
      lines: [{ id: null, code: null, name: 'Current year earnings', amount: currentYearEarnings }],
      total: currentYearEarnings,
    },
  ];
  const totalAssets = sum(assets.map((g) => g.total));
  const totalLiabilities = sum(liabilities.map((g) => g.total));
  const totalEquity = sum(equity.map((g) => g.total));
  const liabilitiesAndEquity = totalLiabilities.plus(totalEquity);
  const balanced = totalAssets.equals(liabilitiesAndEquity);
  return {
    json: {
      ...companyFields(rc),
      asOf,
      financialYearStart: yearStart,
      assets: { groups: assets.map(groupJson), total: toNumber(totalAssets) },
      liabilities: { groups: liabilities.map(groupJson), total: toNumber(totalLiabilities) },
      equity: {
        groups: equity.map(groupJson),
        total: toNumber(totalEquity),
        retainedEarnings: toNumber(equity.find((g) => g.subtype === 'retained_earnings')?.total ?? ZERO),
        currentYearEarnings: toNumber(currentYearEarnings),
      },
      totalLiabilitiesAndEquity: toNumber(liabilitiesAndEquity),
      balanced,
    },
    document: () =>
      documentOf(rc, {
        title: 'Balance sheet',
        period: asAtText(asOf),
        filename: `balance-sheet_${asOf}`,
        notes: [
          `Financial year from ${yearStart}. Retained earnings include every profit before it; current ` +
            'year earnings are the profit since.',
          balanced ? 'Assets equal liabilities plus equity.' : 'Assets DO NOT equal liabilities plus equity.',
        ],
        tables: [
          {
            columns: AMOUNT_COLUMNS,
            rows: [
              ...sideRows('Assets', assets, totalAssets, 'Total assets'),
              ...sideRows('Liabilities', liabilities, totalLiabilities, 'Total liabilities'),
              ...sideRows('Equity', equity, totalEquity, 'Total equity'),
              { cells: [null, 'Total liabilities and equity', liabilitiesAndEquity], style: 'grand' },
            ],
          },
        ],
      }),
  };
}
