// UIF (Unemployment Insurance Contributions Act s6): the employee and the employer each pay a
// rate (1%) of the employee's remuneration, on at most the ceiling. The ceiling is set a month
// (R17 712 from 1 June 2021); for weekly and fortnightly pay it is the monthly ceiling × 12 ÷ 52
// a week (R4 087.38) and twice that a fortnight (R8 174.77), each rounded to the cent (the UIF's
// "R212 544 a year" ÷ 52 or ÷ 26). None when UIF does not apply to the employee (the caller's
// flag: fewer than 24 hours a month, certain learnerships, foreign nationals leaving at the end of
// their contract, and the like). Each contribution is rounded half-up to the cent.
import type { Decimal } from 'decimal.js';
import { cents, type MoneyInput, money, ZERO } from '../../../platform/money/money.ts';
import type { PayFrequency } from '../payroll.tables.ts';

export interface UifRates {
  effectiveFrom: string;
  employeeRate: Decimal;
  employerRate: Decimal;
  monthlyCeiling: Decimal;
}

/** The remuneration a period's contributions are worked on at most. */
export function uifCeiling(rates: Pick<UifRates, 'monthlyCeiling'>, frequency: PayFrequency): Decimal {
  if (frequency === 'monthly') return rates.monthlyCeiling;
  const weeks = frequency === 'weekly' ? 1 : 2;
  return cents(rates.monthlyCeiling.times(12).times(weeks).dividedBy(52));
}

export interface UifResult {
  /** The remuneration the contributions are on: at most the ceiling. */
  base: Decimal;
  /** Deducted from the employee (IRP5 4141 with the employer's). */
  employee: Decimal;
  /** The employer's own contribution. */
  employer: Decimal;
}

export function uif(
  rates: UifRates,
  input: { frequency: PayFrequency; remuneration: MoneyInput; applies: boolean },
): UifResult {
  const remuneration = money(input.remuneration);
  if (!input.applies || remuneration.lte(0)) return { base: ZERO, employee: ZERO, employer: ZERO };
  const ceiling = uifCeiling(rates, input.frequency);
  const base = remuneration.gt(ceiling) ? ceiling : remuneration;
  return {
    base,
    employee: cents(base.times(rates.employeeRate)),
    employer: cents(base.times(rates.employerRate)),
  };
}
