// PAYE for one pay period by SARS's annual-equivalent method (Fourth Schedule para 2 and 9;
// SARS "Guide for employers in respect of employees' tax", the annual equivalent calculation and
// the deduction to determine the balance of remuneration; "Guide for employers in respect of tax
// deduction tables" PAYE-GEN-01-G01, the statutory-rates alternative to the printed tables):
//   1. the period's regular taxable remuneration, annualised: × periods a year (12, 26, 52);
//   2. less the deductible retirement fund contributions (s11F): the period's contributions
//      annualised, at most rate × the annualised remuneration (27.5%) and the year's cap;
//   3. taxed on the year's brackets less the rebates by age at the end of the tax year (tax.ts);
//   4. de-annualised: ÷ periods a year;
//   5. annual payments (a bonus: IRP5 3605) by the difference method: tax on (the annual
//      equivalent + the payment) less tax on the annual equivalent, all of it in this period;
//   6. less the medical scheme fees tax credit for the period (s6A: the monthly credit × 12 ÷
//      periods a year), never below zero.
// Rounding: everything is exact (decimal.js) until the period's PAYE, which is rounded half-up to
// the cent once (SARS's statutory-rates method works in rand and cents; the printed tables are
// the same figures rounded to the table's steps). Checked against SARS's tables: see paye.test.ts.
//
// A part-period (an employee who starts, or leaves, during the period): SARS's employer guide
// requires the ANNUAL EQUIVALENT of what is earned for the time actually employed, so the pay for
// the part is grossed up by the share of the period employed (`periodFraction`, from prorata.ts):
//   annual equivalent = the period's remuneration × periods a year ÷ fraction
//   the period's tax   = the annual tax × fraction ÷ periods a year
// (SARS: "where an employee's tax period is shorter than a full tax year the annual equivalent
// must be determined"; payroll software applies it as fractional "periods worked", e.g.
// SimplePay's help "Why is tax calculated for 12 months if the employee has only been employed
// for a few months?"). A starter paid R10 800 for 12 of June's 30 days is taxed as earning
// R27 000 a month, for 0.4 of the month's tax: neither under-taxed on R10 800 × 12 nor taxed on
// a full month. The medical credit is the whole period's: s6A grants it for each month in
// which fees are paid, whatever day membership starts.
import type { Decimal } from 'decimal.js';
import { cents, type MoneyInput, money, ZERO } from '../../../platform/money/money.ts';
import type { PayFrequency } from '../payroll.tables.ts';
import { annualTax, type TaxYearTables } from './tax.ts';

export const PERIODS_PER_YEAR = { monthly: 12, fortnightly: 26, weekly: 52 } as const satisfies Record<
  PayFrequency,
  number
>;

/** Who a medical scheme covers: the employee as a member, and their dependants. */
export interface MedicalCover {
  member: boolean;
  dependants: number;
}

/** The medical scheme fees tax credit a MONTH: member, first dependant, each further one. */
export function medicalCreditMonthly(
  year: Pick<TaxYearTables, 'medicalCredit'>,
  cover?: MedicalCover,
): Decimal {
  if (!cover?.member) return ZERO;
  const c = year.medicalCredit;
  let credit = money(c.main);
  if (cover.dependants >= 1) credit = credit.plus(c.firstDependant);
  if (cover.dependants > 1) credit = credit.plus(c.additional.times(cover.dependants - 1));
  return credit;
}

/** The credit for one pay period: the monthly credit × 12 ÷ periods a year (exact). */
export function medicalCreditForPeriod(
  year: Pick<TaxYearTables, 'medicalCredit'>,
  frequency: PayFrequency,
  cover?: MedicalCover,
): Decimal {
  return medicalCreditMonthly(year, cover).times(12).dividedBy(PERIODS_PER_YEAR[frequency]);
}

export interface PayeInput {
  frequency: PayFrequency;
  /** The period's regular taxable remuneration (salary, overtime, commission, the taxable part
   *  of allowances, fringe benefits), before the retirement deduction. */
  regular: MoneyInput;
  /** Annual payments in the period (bonus, 13th cheque: IRP5 3605), taxed by the difference. */
  annualPayments?: MoneyInput;
  /** The period's retirement fund contributions deemed the employee's (the employee's own and
   *  the employer's, which is also a fringe benefit inside `regular`). */
  retirementContributions?: MoneyInput;
  /** Age on the last day of the tax year (ageAtYearEnd in tax.ts). */
  age: number;
  medical?: MedicalCover;
  /** The share of the period employed, (0, 1]; 1 unless the employee started or left in it. */
  periodFraction?: MoneyInput;
}

export interface PayeResult {
  /** The PAYE to deduct this period (IRP5 4102), rounded to the cent, never below zero. */
  paye: Decimal;
  /** The annualised regular remuneration, before the retirement deduction. */
  annualRemuneration: Decimal;
  /** The retirement deduction allowed, a year (s11F, 27.5% and the cap). */
  retirementDeduction: Decimal;
  /** The balance of remuneration a year the regular tax is worked on. */
  annualEquivalent: Decimal;
  /** This period's share of the year's tax on regular remuneration (exact, before the credit). */
  taxOnRegular: Decimal;
  /** The difference method's tax on the annual payments (exact, all in this period). */
  taxOnAnnualPayments: Decimal;
  /** The medical credit used this period (IRP5 4116): at most the tax it reduces. */
  medicalCredit: Decimal;
}

/** PAYE for one period: see the head of this file for the method and its source. */
export function paye(year: TaxYearTables, input: PayeInput): PayeResult {
  const periods = PERIODS_PER_YEAR[input.frequency];
  const fraction = money(input.periodFraction ?? 1);
  if (fraction.lte(0) || fraction.gt(1)) throw new RangeError('periodFraction must be in (0, 1]');
  const regular = money(input.regular);
  const grossUp = (amount: Decimal) => amount.times(periods).dividedBy(fraction);

  const annualRemuneration = grossUp(regular);
  const contributions = grossUp(money(input.retirementContributions));
  const limit = least(year.retirement.rate.times(annualRemuneration), year.retirement.cap);
  const retirementDeduction = greatest(ZERO, least(contributions, limit));
  const annualEquivalent = greatest(ZERO, annualRemuneration.minus(retirementDeduction));

  const yearTax = annualTax(year, annualEquivalent, input.age);
  const taxOnRegular = yearTax.times(fraction).dividedBy(periods);
  const annualPayments = money(input.annualPayments);
  const taxOnAnnualPayments = annualPayments.isZero()
    ? ZERO
    : annualTax(year, annualEquivalent.plus(annualPayments), input.age).minus(yearTax);

  const due = taxOnRegular.plus(taxOnAnnualPayments);
  const credit = least(medicalCreditForPeriod(year, input.frequency, input.medical), due);
  return {
    paye: cents(due.minus(credit)),
    annualRemuneration,
    retirementDeduction,
    annualEquivalent,
    taxOnRegular,
    taxOnAnnualPayments,
    medicalCredit: credit,
  };
}

function least(a: Decimal, b: Decimal): Decimal {
  return a.lt(b) ? a : b;
}

function greatest(a: Decimal, b: Decimal): Decimal {
  return a.gt(b) ? a : b;
}
