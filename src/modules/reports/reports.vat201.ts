// The VAT201 fields (SARS GEN-ELEC-04-G01, the VAT201 completion guide) from the VAT totals by
// tax code, rate and transition flag (vat-totals.ts), plus the adjustments of submitted periods.
//
//   1/4    standard at the rate of the return: consideration incl. VAT / its VAT
//   1A/4A  standard_capital, the same
//   2, 2A, 3   zero, zero_export, exempt: the net
//   5      accommodation_long: the value excl. VAT; 6 = 60% of 5 (s10(10)); 7 accommodation_short
//          excl. VAT; 8 = 6 + 7; 9 = the standard rate of 8, as SARS computes it (per rate; it
//          may differ from the VAT posted, rounded per line, by cents)
//   10/11  change_in_use (s18(1)): consideration incl. VAT / its VAT
//   12     imported_services VAT (s7(1)(c)) + bad_debt_recovered VAT (s22(2): SARS's placement of
//          recovered bad debts is taken as field 12) + output tax at an earlier rate and its
//          increases, decreases of input tax at an earlier rate, and increases of output tax
//          (decreases of input tax) from later postings in submitted periods
//   13     4 + 4A + 9 + 11 + 12
//   14, 14A, 15, 15A, 16, 17   input_capital, input_capital_import, input_standard, input_import,
//          input_change_in_use, input_bad_debt: the VAT
//   18     input_other VAT + input tax at an earlier rate and its increases, decreases of output
//          tax at an earlier rate, and the mirror adjustments of submitted periods
//   19     14 + 14A + 15 + 15A + 16 + 17 + 18;  20 = 13 − 19
//
// An earlier rate (issues 14 and 34): a standard-rated line at a rate that is not the rate of the
// return (the standard rate on the last day of its range) is kept out of its own fields. The
// VAT201 of a period ending from 2018-04-01 computes field 4 as field 1 × 15/115, so what was
// supplied or acquired at 14% (a March 2018 supply in a March-April return, or a credit or debit
// note against a 14% supply, s21) is declared by its VAT alone: output tax in field 12 "Other and
// imported services", input tax in field 18 "Other" (SARS's notice to category B, D and E vendors
// of 2018, as Moore South Africa, "Completing your VAT return for March and April where the VAT
// rate was amended from 14% to 15%", May 2018, repeats it; SARS's own completion guide could not
// be read here: to be confirmed against it). Each posting lands where it is positive (tax_balances
// keep debits and credits apart, per day): output tax charged or increased at 14% goes to 12 and
// a decrease of it (a credit note) to 18; input tax claimed at 14% goes to 18 and a decrease of
// it (a supplier's credit note) to 12. A 14% debit note and a 14% credit note are therefore not
// netted against each other; a reversal (a void, a reversed journal) shows as the opposite
// adjustment, in the other field, its effect on field 20 nil. Imports keep 14A/15A.
import type { Decimal } from 'decimal.js';
import { cents, sum, ZERO } from '../../platform/money/money.ts';
import { LONG_STAY_SHARE } from '../../platform/money/vat-rate.ts';
import { isOutputTaxCode, type TaxCode } from '../ledger/index.ts';
import type { VatTotal } from './vat-totals.ts';

export interface VatLine {
  taxCode: TaxCode;
  rate: Decimal;
  transition: boolean;
  /** Output: credits − debits; input: debits − credits. */
  net: Decimal;
  vat: Decimal;
  /** The VAT charged or claimed (output: its credits; input: its debits), and what reduced it. */
  vatRaised: Decimal;
  vatLowered: Decimal;
}

/** Output: net = base credit − base debit, VAT = tax credit − tax debit; input the other way round. */
export function vatLineOf(t: VatTotal): VatLine {
  const output = isOutputTaxCode(t.taxCode);
  const net = t.baseCredit.minus(t.baseDebit);
  const vat = t.taxCredit.minus(t.taxDebit);
  return {
    taxCode: t.taxCode,
    rate: t.taxRate,
    transition: t.transition,
    net: output ? net : net.negated(),
    vat: output ? vat : vat.negated(),
    vatRaised: output ? t.taxCredit : t.taxDebit,
    vatLowered: output ? t.taxDebit : t.taxCredit,
  };
}

/** What was posted later in a submitted period: its output and input tax, signed as on a return. */
export interface Adjustment {
  periodId: string;
  outputTax: Decimal;
  inputTax: Decimal;
}

export function adjustmentOf(periodId: string, totals: VatTotal[]): Adjustment {
  const lines = totals.map(vatLineOf);
  return {
    periodId,
    outputTax: sum(lines.filter((l) => isOutputTaxCode(l.taxCode)).map((l) => l.vat)),
    inputTax: sum(lines.filter((l) => !isOutputTaxCode(l.taxCode)).map((l) => l.vat)),
  };
}

/** Each VAT201 field: its key in the answer, its SARS number and its SARS label. */
export const VAT201_FIELDS = [
  [
    'field1',
    '1',
    'Standard rate (excluding capital goods and/or services and accommodation): consideration including VAT',
  ],
  ['field1A', '1A', 'Standard rate (only capital goods and/or services): consideration including VAT'],
  ['field2', '2', 'Zero rate (excluding goods exported)'],
  ['field2A', '2A', 'Zero rate (only exported goods)'],
  ['field3', '3', 'Exempt and non-supplies'],
  ['field4', '4', 'Output tax on field 1'],
  ['field4A', '4A', 'Output tax on field 1A'],
  ['field5', '5', 'Supply of accommodation exceeding 28 days (value excluding VAT)'],
  ['field6', '6', '60% of field 5 (s10(10))'],
  ['field7', '7', 'Supply of accommodation not exceeding 28 days (value excluding VAT)'],
  ['field8', '8', 'Total accommodation (6 + 7)'],
  ['field9', '9', 'Output tax on field 8'],
  ['field10', '10', 'Change in use and export of second-hand goods: consideration including VAT'],
  ['field11', '11', 'Output tax on field 10'],
  ['field12', '12', 'Other and imported services'],
  ['field13', '13', 'Total output tax (4 + 4A + 9 + 11 + 12)'],
  ['field14', '14', 'Capital goods and/or services supplied to you'],
  ['field14A', '14A', 'Capital goods imported'],
  ['field15', '15', 'Other goods and/or services supplied to you (not capital goods)'],
  ['field15A', '15A', 'Other goods imported (not capital goods)'],
  ['field16', '16', 'Change in use'],
  ['field17', '17', 'Bad debts'],
  ['field18', '18', 'Other'],
  ['field19', '19', 'Total input tax (14 + 14A + 15 + 15A + 16 + 17 + 18)'],
  ['field20', '20', 'VAT payable/refundable (13 − 19; negative: refundable)'],
] as const;

export type Vat201Key = (typeof VAT201_FIELDS)[number][0];
export type Vat201 = Record<Vat201Key, Decimal>;

const positive = (d: Decimal) => (d.isPositive() && !d.isZero() ? d : ZERO);
const negativePart = (d: Decimal) => (d.isNegative() && !d.isZero() ? d.negated() : ZERO);

/** The VAT201 fields from the lines (all rates of a code together) and the adjustments. */
export function vat201Of(lines: VatLine[], adjustments: Adjustment[] = []): Vat201 {
  const own = lines.filter((l) => !l.transition);
  const of = (code: TaxCode, what: 'net' | 'vat') =>
    sum(own.filter((l) => l.taxCode === code).map((l) => l[what]));

  // Accommodation per rate: 60% of the long stays, plus the short ones, taxed at that rate.
  const rates = [
    ...new Set(
      own
        .filter((l) => l.taxCode === 'accommodation_long' || l.taxCode === 'accommodation_short')
        .map((l) => l.rate.toString()),
    ),
  ];
  let f6 = ZERO;
  let f9 = ZERO;
  for (const r of rates) {
    const at = (code: TaxCode) =>
      sum(own.filter((l) => l.taxCode === code && l.rate.toString() === r).map((l) => l.net));
    const sixty = cents(at('accommodation_long').times(LONG_STAY_SHARE));
    f6 = f6.plus(sixty);
    f9 = f9.plus(cents(sixty.plus(at('accommodation_short')).times(r).dividedBy(100)));
  }
  const f5 = of('accommodation_long', 'net');
  const f7 = of('accommodation_short', 'net');

  // At an earlier rate: output tax raised and input tax lowered in 12, the rest in 18, gross
  // (not netted). The adjustments of submitted periods, each where its sign makes it positive.
  const moved = lines.filter((l) => l.transition);
  const movedOut = moved.filter((l) => isOutputTaxCode(l.taxCode));
  const movedIn = moved.filter((l) => !isOutputTaxCode(l.taxCode));
  const to12 = sum([
    ...movedOut.map((l) => l.vatRaised),
    ...movedIn.map((l) => l.vatLowered),
    ...adjustments.map((a) => positive(a.outputTax)),
    ...adjustments.map((a) => negativePart(a.inputTax)),
  ]);
  const to18 = sum([
    ...movedOut.map((l) => l.vatLowered),
    ...movedIn.map((l) => l.vatRaised),
    ...adjustments.map((a) => negativePart(a.outputTax)),
    ...adjustments.map((a) => positive(a.inputTax)),
  ]);

  const f4 = of('standard', 'vat');
  const f4A = of('standard_capital', 'vat');
  const f11 = of('change_in_use', 'vat');
  const f12 = of('imported_services', 'vat').plus(of('bad_debt_recovered', 'vat')).plus(to12);
  const f13 = f4.plus(f4A).plus(f9).plus(f11).plus(f12);
  const f14 = of('input_capital', 'vat');
  const f14A = of('input_capital_import', 'vat');
  const f15 = of('input_standard', 'vat');
  const f15A = of('input_import', 'vat');
  const f16 = of('input_change_in_use', 'vat');
  const f17 = of('input_bad_debt', 'vat');
  const f18 = of('input_other', 'vat').plus(to18);
  const f19 = sum([f14, f14A, f15, f15A, f16, f17, f18]);
  return {
    field1: of('standard', 'net').plus(f4),
    field1A: of('standard_capital', 'net').plus(f4A),
    field2: of('zero', 'net'),
    field2A: of('zero_export', 'net'),
    field3: of('exempt', 'net'),
    field4: f4,
    field4A: f4A,
    field5: f5,
    field6: f6,
    field7: f7,
    field8: f6.plus(f7),
    field9: f9,
    field10: of('change_in_use', 'net').plus(f11),
    field11: f11,
    field12: f12,
    field13: f13,
    field14: f14,
    field14A: f14A,
    field15: f15,
    field15A: f15A,
    field16: f16,
    field17: f17,
    field18: f18,
    field19: f19,
    field20: f13.minus(f19),
  };
}
