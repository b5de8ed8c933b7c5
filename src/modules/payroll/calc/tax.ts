// Income tax on a year's taxable income, from a tax year's brackets, less the rebates by age
// (Income Tax Act s5(2) and s6(2)): the primary rebate for everyone, the secondary from 65, the
// tertiary from 75, age taken on the LAST day of the tax year (s6(2)(b), (c): "a person who ...
// would, had he lived, have been 65 ... on the last day of the year of assessment"). Never below
// zero. Pure and exact (decimal.js, no rounding): the callers round what they pay.
// The figures come from payroll_tax_years / payroll_tax_brackets (migration 0052) through
// statutoryFor (../statutory.ts).
import type { Decimal } from 'decimal.js';
import { Money, type MoneyInput, money, ZERO } from '../../../platform/money/money.ts';

export interface TaxBracket {
  /** The income above which `rate` applies (SARS's "above 245 100"). */
  from: Decimal;
  /** The tax on everything up to `from`. */
  baseTax: Decimal;
  rate: Decimal;
}

export interface TaxYearTables {
  code: string;
  startsOn: string;
  endsOn: string;
  /** Ascending by `from`, the first from 0. */
  brackets: TaxBracket[];
  rebates: { primary: Decimal; secondary: Decimal; tertiary: Decimal };
  thresholds: { under65: Decimal; from65: Decimal; from75: Decimal };
  /** The medical scheme fees tax credit a month (s6A). */
  medicalCredit: { main: Decimal; firstDependant: Decimal; additional: Decimal };
  /** s11F: the share of remuneration deductible, and the cap a year. */
  retirement: { rate: Decimal; cap: Decimal };
}

/** Whole years of age on `on` (both ISO dates): a birthday on `on` counts. */
export function ageOn(dateOfBirth: string, on: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The age the rebates go by: on the last day of the tax year. */
export function ageAtYearEnd(year: Pick<TaxYearTables, 'endsOn'>, dateOfBirth: string): number {
  return ageOn(dateOfBirth, year.endsOn);
}

/** Tax before rebates: the bracket the income falls in, base + rate × the excess. */
export function taxBeforeRebates(brackets: readonly TaxBracket[], income: MoneyInput): Decimal {
  const amount = money(income);
  if (amount.lte(0)) return ZERO;
  let band: TaxBracket | undefined;
  for (const b of brackets) if (amount.gt(b.from)) band = b;
  if (!band) return ZERO;
  return band.baseTax.plus(band.rate.times(amount.minus(band.from)));
}

/** The rebates a person of `age` (at the end of the tax year) has. */
export function rebatesFor(year: Pick<TaxYearTables, 'rebates'>, age: number): Decimal {
  let total = new Money(year.rebates.primary);
  if (age >= 65) total = total.plus(year.rebates.secondary);
  if (age >= 75) total = total.plus(year.rebates.tertiary);
  return total;
}

/** The year's tax on `taxableIncome`: brackets less rebates by age, never below zero. */
export function annualTax(
  year: Pick<TaxYearTables, 'brackets' | 'rebates'>,
  taxableIncome: MoneyInput,
  age: number,
): Decimal {
  const tax = taxBeforeRebates(year.brackets, taxableIncome).minus(rebatesFor(year, age));
  return tax.isNegative() ? ZERO : tax;
}
