// The cash flow statement (direct method, from cash_flow_balances) and the VAT report with the
// VAT201 boxes (from tax_balances).
import type { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import type { Row } from '../../platform/files/table.ts';
import { sum, toNumber } from '../../platform/money/money.ts';
import {
  type AccountSubtype,
  accountTotals,
  cashFlowTotals,
  type TaxCode,
  type TaxTotal,
  taxTotals,
} from '../ledger/index.ts';
import { companyFields, documentOf, periodText, type Report, type ReportCtx } from './reports.context.ts';
import type { CashFlow, VatReport } from './reports.schemas.ts';
import { AMOUNT_COLUMNS, type Part, partJson, partRows } from './reports.statements.ts';

export type Activity = 'operating' | 'investing' | 'financing';

/** Which activity the cash that moved through a counter account belongs to, by its subtype. */
export function activityOf(subtype: AccountSubtype): Activity {
  if (subtype === 'fixed_asset' || subtype === 'non_current_asset') return 'investing';
  if (subtype === 'equity' || subtype === 'retained_earnings' || subtype === 'non_current_liability')
    return 'financing';
  return 'operating';
}

type CashFlowJson = Static<typeof CashFlow>;

export async function cashFlow(
  rc: ReportCtx,
  period: { from: string; to: string },
): Promise<Report<CashFlowJson>> {
  const db = rc.ctx.db;
  const opening = await accountTotals(db, rc.tenantId, rc.companyId, { to: addDays(period.from, -1) });
  const closing = new Map(
    (await accountTotals(db, rc.tenantId, rc.companyId, { to: period.to })).map((a) => [a.accountId, a.net]),
  );
  const flows = await cashFlowTotals(db, rc.tenantId, rc.companyId, period);
  const banks = opening
    .filter((a) => a.subtype === 'bank')
    .map((a) => ({ account: a, opening: a.net, closing: closing.get(a.accountId)! }))
    .filter((b) => b.account.isActive || !b.opening.isZero() || !b.closing.isZero());
  const parts: Record<Activity, Part> = {
    operating: { lines: [], total: sum([]) },
    investing: { lines: [], total: sum([]) },
    financing: { lines: [], total: sum([]) },
  };
  for (const a of opening) {
    const amount = flows.get(a.accountId);
    if (!amount || amount.isZero()) continue;
    const p = parts[activityOf(a.subtype)];
    p.lines.push({ id: a.accountId, code: a.code, name: a.name, amount });
    p.total = p.total.plus(amount);
  }
  const openingCash = sum(banks.map((b) => b.opening));
  const closingCash = sum(banks.map((b) => b.closing));
  const netChange = parts.operating.total.plus(parts.investing.total).plus(parts.financing.total);
  const reconciles = openingCash.plus(netChange).equals(closingCash);
  return {
    json: {
      ...companyFields(rc),
      ...period,
      openingCash: toNumber(openingCash),
      operating: partJson(parts.operating),
      investing: partJson(parts.investing),
      financing: partJson(parts.financing),
      netChange: toNumber(netChange),
      closingCash: toNumber(closingCash),
      cashAccounts: banks.map((b) => ({
        id: b.account.accountId,
        code: b.account.code,
        name: b.account.name,
        opening: toNumber(b.opening),
        closing: toNumber(b.closing),
      })),
      reconciles,
    },
    document: () =>
      documentOf(rc, {
        title: 'Cash flow statement',
        period: periodText(period.from, period.to),
        filename: `cash-flow_${period.from}_${period.to}`,
        notes: [
          'Direct method: the cash that came in (positive) or went out (negative) through each account. ' +
            'Investing: fixed and non-current assets; financing: equity, retained earnings and non-current ' +
            'liabilities; operating: everything else.',
        ],
        tables: [
          {
            columns: AMOUNT_COLUMNS,
            rows: [
              { cells: [null, 'Opening cash', openingCash], style: 'total' },
              ...partRows('Operating activities', parts.operating, 'Net cash from operating activities'),
              ...partRows('Investing activities', parts.investing, 'Net cash from investing activities'),
              ...partRows('Financing activities', parts.financing, 'Net cash from financing activities'),
              { cells: [null, 'Net change in cash', netChange], style: 'total' },
              { cells: [null, 'Closing cash', closingCash], style: 'grand' },
            ],
          },
        ],
      }),
  };
}

const OUTPUT_CODES: readonly string[] = [
  'standard',
  'standard_capital',
  'zero',
  'zero_export',
  'exempt',
  'bad_debt_recovered',
];

interface VatLine {
  taxCode: TaxCode;
  rate: Decimal;
  net: Decimal;
  vat: Decimal;
}

/** Output: net = base credit − base debit, VAT = tax credit − tax debit; input the other way round. */
function vatLine(t: TaxTotal): VatLine {
  const output = OUTPUT_CODES.includes(t.taxCode);
  const net = t.baseCredit.minus(t.baseDebit);
  const vat = t.taxCredit.minus(t.taxDebit);
  return {
    taxCode: t.taxCode,
    rate: t.taxRate,
    net: output ? net : net.negated(),
    vat: output ? vat : vat.negated(),
  };
}

const LABELS: Record<string, string> = {
  standard: 'Standard-rated supplies',
  standard_capital: 'Standard-rated supplies of capital goods',
  zero: 'Zero-rated supplies',
  zero_export: 'Zero-rated exports',
  exempt: 'Exempt supplies',
  bad_debt_recovered: 'Bad debts recovered (VAT declared again, s22(2))',
  input_standard: 'Purchases of goods and services',
  input_capital: 'Purchases of capital goods',
  input_zero: 'Zero-rated purchases',
  input_exempt: 'Exempt purchases',
  input_import: 'Imports',
  input_bad_debt: 'Bad debts written off (VAT claimed back, s22(1))',
};

/** The VAT201 boxes from the lines by code (all rates of a code together). */
export function vat201Of(lines: VatLine[]) {
  const of = (code: string, what: 'net' | 'vat') =>
    sum(lines.filter((l) => l.taxCode === code).map((l) => l[what]));
  const f4 = of('standard', 'vat');
  const f4A = of('standard_capital', 'vat');
  const f12 = of('bad_debt_recovered', 'vat');
  const f13 = f4.plus(f4A).plus(f12);
  const f14 = of('input_capital', 'vat');
  const f15 = of('input_standard', 'vat');
  const f15A = of('input_import', 'vat');
  const f17 = of('input_bad_debt', 'vat');
  const f19 = f14.plus(f15).plus(f15A).plus(f17);
  return {
    field1: of('standard', 'net').plus(f4),
    field1A: of('standard_capital', 'net').plus(f4A),
    field2: of('zero', 'net'),
    field2A: of('zero_export', 'net'),
    field3: of('exempt', 'net'),
    field4: f4,
    field4A: f4A,
    field12: f12,
    field13: f13,
    field14: f14,
    field15: f15,
    field15A: f15A,
    field17: f17,
    field19: f19,
    field20: f13.minus(f19),
  };
}

const BOX_LABELS: Record<keyof ReturnType<typeof vat201Of>, [string, string]> = {
  field1: ['1', 'Standard-rated supplies (VAT included)'],
  field1A: ['1A', 'Standard-rated supplies of capital goods (VAT included)'],
  field2: ['2', 'Zero-rated supplies'],
  field2A: ['2A', 'Zero-rated exports'],
  field3: ['3', 'Exempt supplies'],
  field4: ['4', 'Output tax on standard-rated supplies'],
  field4A: ['4A', 'Output tax on capital goods supplied'],
  field12: ['12', 'Other and imported services'],
  field13: ['13', 'Total output tax'],
  field14: ['14', 'Input tax on capital goods'],
  field15: ['15', 'Input tax on other goods and services'],
  field15A: ['15A', 'Input tax on imports'],
  field17: ['17', 'Bad debts'],
  field19: ['19', 'Total input tax'],
  field20: ['20', 'VAT payable (negative: refundable)'],
};

type VatJson = Static<typeof VatReport>;

export async function vatReport(
  rc: ReportCtx,
  period: { from: string; to: string },
): Promise<Report<VatJson>> {
  const lines = (await taxTotals(rc.ctx.db, rc.tenantId, rc.companyId, period))
    .map(vatLine)
    .filter((l) => !l.net.isZero() || !l.vat.isZero());
  const output = lines.filter((l) => OUTPUT_CODES.includes(l.taxCode));
  const input = lines.filter((l) => !OUTPUT_CODES.includes(l.taxCode));
  const boxes = vat201Of(lines);
  const side = (ls: VatLine[]) => ({
    lines: ls.map((l) => ({
      taxCode: l.taxCode,
      rate: l.rate.toNumber(),
      net: toNumber(l.net),
      vat: toNumber(l.vat),
    })),
    totalNet: toNumber(sum(ls.map((l) => l.net))),
    totalVat: toNumber(sum(ls.map((l) => l.vat))),
  });
  const sideRows = (heading: string, ls: VatLine[]): Row[] => [
    { cells: [heading, null, null, null], style: 'heading' },
    ...ls.map(
      (l): Row => ({
        cells: [`${LABELS[l.taxCode] ?? l.taxCode} (${l.taxCode})`, l.rate.toNumber(), l.net, l.vat],
        indent: 1,
      }),
    ),
    {
      cells: [`Total ${heading.toLowerCase()}`, null, sum(ls.map((l) => l.net)), sum(ls.map((l) => l.vat))],
      style: 'total',
    },
  ];
  return {
    json: {
      ...companyFields(rc),
      ...period,
      output: side(output),
      input: side(input),
      vat201: Object.fromEntries(
        Object.entries(boxes).map(([k, v]) => [k, toNumber(v)]),
      ) as VatJson['vat201'],
    },
    document: () =>
      documentOf(rc, {
        title: 'VAT report',
        period: periodText(period.from, period.to),
        filename: `vat_${period.from}_${period.to}`,
        notes: [
          'Output: net = credits − debits of the sales lines, VAT = credits − debits of the VAT lines; ' +
            'input the other way round. VAT201 fields 5–11, 16 and 18 are not derived from the ledger; field 12 holds only the VAT on bad debts recovered.',
        ],
        tables: [
          {
            title: 'VAT by code and rate',
            columns: [
              { label: 'Tax code', width: 4 },
              { label: 'Rate %', kind: 'number', width: 0.8 },
              { label: 'Net', kind: 'money', width: 1.3 },
              { label: 'VAT', kind: 'money', width: 1.3 },
            ],
            rows: [...sideRows('Output', output), ...sideRows('Input', input)],
          },
          {
            title: 'VAT201',
            columns: [
              { label: 'Field', width: 0.7 },
              { label: 'Description', width: 4.4 },
              { label: 'Amount', kind: 'money', width: 1.4 },
            ],
            rows: (Object.keys(BOX_LABELS) as Array<keyof typeof BOX_LABELS>).map(
              (k): Row => ({
                cells: [BOX_LABELS[k][0], BOX_LABELS[k][1], boxes[k]],
                ...(k === 'field13' || k === 'field19' ? { style: 'total' as const } : {}),
                ...(k === 'field20' ? { style: 'grand' as const } : {}),
              }),
            ),
          },
        ],
      }),
  };
}
