// The VAT report: output and input VAT by code and rate (from tax_balances, or a submitted
// period's snapshot), the adjustments of submitted periods, and every VAT201 field with its SARS
// number and label (reports.vat201.ts), as JSON, CSV and PDF.
import type { Static } from 'typebox';
import type { Row } from '../../platform/files/table.ts';
import { sum, toNumber } from '../../platform/money/money.ts';
import { isOutputTaxCode } from '../ledger/index.ts';
import { companyFields, documentOf, periodText, type Report, type ReportCtx } from './reports.context.ts';
import type { VatReport } from './reports.vat.schemas.ts';
import { adjustmentOf, VAT201_FIELDS, type VatLine, vat201Of, vatLineOf } from './reports.vat201.ts';
import { type PeriodState, vatFigures } from './vat-state.ts';

const LABELS: Record<string, string> = {
  standard: 'Standard-rated supplies',
  standard_capital: 'Standard-rated supplies of capital goods',
  zero: 'Zero-rated supplies',
  zero_export: 'Zero-rated exports',
  exempt: 'Exempt supplies',
  bad_debt_recovered: 'Bad debts recovered (VAT declared again, s22(2))',
  accommodation_long: 'Commercial accommodation exceeding 28 days (s10(10))',
  accommodation_short: 'Commercial accommodation not exceeding 28 days',
  change_in_use: 'Change in use and second-hand goods exported (s18(1))',
  imported_services: 'Imported services (s7(1)(c))',
  input_standard: 'Purchases of goods and services',
  input_capital: 'Purchases of capital goods',
  input_zero: 'Zero-rated purchases',
  input_exempt: 'Exempt purchases',
  input_import: 'Imports',
  input_capital_import: 'Capital goods imported',
  input_change_in_use: 'Change in use (s18(4))',
  input_other: 'Other input tax adjustments',
  input_bad_debt: 'Bad debts written off (VAT claimed back, s22(1))',
};

type VatJson = Static<typeof VatReport>;

const periodJson = (p: PeriodState) => ({
  id: p.id,
  from: p.from,
  to: p.to,
  status: p.status,
  submittedAt: p.submittedAt ? p.submittedAt.toISOString() : null,
});

/** The report of [from, to]; `period` when those are exactly a VAT period of the company. */
export async function vatReport(
  rc: ReportCtx,
  range: { from: string; to: string },
  period: PeriodState | undefined,
): Promise<Report<VatJson>> {
  const figures = await vatFigures(rc, range, period);
  const all = figures.totals.map(vatLineOf);
  // A line that nets to nothing is not listed, but its fields still see it: at an earlier rate a
  // 14% debit note and a 14% credit note of the same amounts land in 12 and 18, not netted.
  const lines = all.filter((l) => !l.net.isZero() || !l.vat.isZero());
  const adjustments = figures.adjustments.map((a) => adjustmentOf(a.periodId, a.totals));
  const output = lines.filter((l) => isOutputTaxCode(l.taxCode));
  const input = lines.filter((l) => !isOutputTaxCode(l.taxCode));
  const boxes = vat201Of(all, adjustments);
  const side = (ls: VatLine[]) => ({
    lines: ls.map((l) => ({
      taxCode: l.taxCode,
      rate: l.rate.toNumber(),
      ...(l.transition ? { transition: true as const } : {}),
      net: toNumber(l.net),
      vat: toNumber(l.vat),
    })),
    totalNet: toNumber(sum(ls.map((l) => l.net))),
    totalVat: toNumber(sum(ls.map((l) => l.vat))),
  });
  const lineLabel = (l: VatLine) =>
    `${LABELS[l.taxCode] ?? l.taxCode} (${l.taxCode})${l.transition ? ', at an earlier rate (fields 12 and 18)' : ''}`;
  const sideRows = (heading: string, ls: VatLine[]): Row[] => [
    { cells: [heading, null, null, null], style: 'heading' },
    ...ls.map((l): Row => ({ cells: [lineLabel(l), l.rate.toNumber(), l.net, l.vat], indent: 1 })),
    {
      cells: [`Total ${heading.toLowerCase()}`, null, sum(ls.map((l) => l.net)), sum(ls.map((l) => l.vat))],
      style: 'total',
    },
  ];
  const title = period
    ? `VAT report, period ${period.id}${period.status === 'submitted' ? ' (submitted)' : ''}`
    : 'VAT report';
  return {
    json: {
      ...companyFields(rc),
      ...range,
      period: period ? periodJson(period) : null,
      output: side(output),
      input: side(input),
      adjustments: adjustments.map((a) => ({
        periodId: a.periodId,
        outputTax: toNumber(a.outputTax),
        inputTax: toNumber(a.inputTax),
      })),
      vat201: Object.fromEntries(
        Object.entries(boxes).map(([k, v]) => [k, toNumber(v)]),
      ) as VatJson['vat201'],
      fields: VAT201_FIELDS.map(([key, field, label]) => ({ field, label, amount: toNumber(boxes[key]) })),
    },
    document: () =>
      documentOf(rc, {
        title,
        period: periodText(range.from, range.to),
        filename: period ? `vat_${period.id}` : `vat_${range.from}_${range.to}`,
        notes: [
          'Output: net = credits − debits of the sales lines, VAT = credits − debits of the VAT lines; ' +
            'input the other way round. A line at a rate other than the rate of the return (14% in a return ' +
            'ending from 2018-04-01: a March 2018 supply, a credit or debit note against a 14% supply) is kept ' +
            'out of its field and declared by its VAT: output tax charged or increased in field 12, decreased ' +
            'in 18; input tax claimed or increased in 18, decreased in 12, each posting apart (not netted).',
          ...(period?.status === 'submitted'
            ? [`Submitted ${period.submittedAt!.toISOString().slice(0, 10)}: the figures as submitted.`]
            : []),
          ...adjustments.map(
            (a) =>
              `Posted after period ${a.periodId} was submitted: output tax ${a.outputTax.toFixed(2)}, input tax ` +
              `${a.inputTax.toFixed(2)} (in fields 12 and 18).`,
          ),
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
            rows: VAT201_FIELDS.map(
              ([key, field, label]): Row => ({
                cells: [field, label, boxes[key]],
                ...(key === 'field13' || key === 'field19' ? { style: 'total' as const } : {}),
                ...(key === 'field20' ? { style: 'grand' as const } : {}),
              }),
            ),
          },
        ],
      }),
  };
}
