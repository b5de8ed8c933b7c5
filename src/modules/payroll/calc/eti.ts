// The employment tax incentive for one employee and one month (Employment Tax Incentive Act 26 of
// 2013: s6 qualifying employees, s7 the amounts; the bands are data, payroll_eti_rules/_bands,
// migration 0052). The employer claims it against the month's PAYE (EMP201); the employee's pay
// is untouched. It is 0, with the rule that stops it named in `reason`, when:
//   * no rules are in effect for the month (the scheme ended: s12, 28 February 2029);
//   * the employee is younger than 18 or older than 29 at the END of the month (s6(b));
//   * the month is before the ETI start date or after the 24 months from it (s7(2), (3));
//   * the month's remuneration (grossed up to 160 hours) is at or above R7 500 (from 1 April 2025);
//   * the wage is below the minimum wage (s4(1)): held to `hourlyMinimum` × its ordinary hours, the
//     higher of the National Minimum Wage (NMW Act s4(1)) and a wage-regulating measure's hourly
//     minimum (s4(1)(a)); only a wage bound by neither, or exempt from the NMW (NMW Act s15), is
//     held to the rules' fixed R2 500 for 160 hours (or the caller's `minimumWage`), pro rata below
//     160 hours (s4(1)(b)). Claiming it where s4 fails is penalised at 100% (s4(2)).
// Months 1–12 use the 'first' bands, months 13–24 the 'second'. The month's number is counted in
// calendar months from the ETI start date's month, unless the caller passes how many qualifying
// months came before (SARS counts only months in which the employee qualified: a gap does not use
// up the 24). An employee employed and paid for fewer than 160 hours in the month: the
// remuneration is grossed up to 160 hours (× 160 ÷ hours) for the R7 500 test and the band, and
// the incentive grossed down in the same ratio (s1 "monthly remuneration" (b), which points to
// s7(5) for it; SARS "How does the ETI work", step 4; SimplePay "Calculating ETI": 80 hours at
// R1 500 → R3 000 → R1 500 ÷ 2). Not confirmed: s7(5)'s own wording (no copy of it could be
// read for issue 34); the rule above is SARS's reading of it. Rounded half-up to the cent.
import type { Decimal } from 'decimal.js';
import { cents, type MoneyInput, money, ZERO } from '../../../platform/money/money.ts';
import type { EtiBandKind, EtiPeriod } from '../statutory.tables.ts';
import { ageOn } from './tax.ts';

export interface EtiBand {
  period: EtiPeriod;
  from: Decimal;
  /** Exclusive. */
  to: Decimal;
  kind: EtiBandKind;
  rate: Decimal | null;
  amount: Decimal | null;
}

export interface EtiRules {
  effectiveFrom: string;
  effectiveTo: string;
  minAge: number;
  maxAge: number;
  months: number;
  firstPeriodMonths: number;
  maxRemuneration: Decimal;
  minimumWage: Decimal;
  minimumWageHours: Decimal;
  bands: EtiBand[];
}

export type EtiStop =
  | 'no_rules'
  | 'age'
  | 'not_started'
  | 'months_used'
  | 'remuneration_too_high'
  | 'below_minimum_wage';

export interface EtiInput {
  /** The month's remuneration for ETI (what PAYE calls remuneration, excluding annual payments). */
  remuneration: MoneyInput;
  /** The wage for the month's ordinary hours, for the minimum-wage test (SARS tells the wage
   *  from the remuneration the incentive is worked on); `remuneration` when left out. */
  wage?: MoneyInput;
  /** Hours employed and paid in the month; 160 or more (or left out) is a full month. */
  hours?: MoneyInput;
  dateOfBirth: string;
  /** The date the 24 months count from (the employment start unless told otherwise). */
  etiStartDate: string;
  /** The last day of the month claimed for. */
  monthEnd: string;
  /** The fixed floor for minimumWageHours in place of the rules' (s4(1)(b)), for a wage not bound
   *  by the NMW; used when `hourlyMinimum` is left out, or with `exemptFromMinimumWage`. */
  minimumWage?: MoneyInput;
  /** The hourly minimum the wage must reach for its ordinary hours: the higher of the NMW and a
   *  wage-regulating measure's, whichever bind it (s4(1)(a)). Left out: the fixed floor. */
  hourlyMinimum?: MoneyInput;
  /** The ordinary hours the wage pays, for `hourlyMinimum` (`hours`, or a full month, when left out). */
  ordinaryHours?: MoneyInput;
  /** The NMW does not bind the wage (exempt under NMW Act s15, or outside it): the fixed floor
   *  applies too (s4(1)(b)), and `hourlyMinimum` is a wage-regulating measure's alone. */
  exemptFromMinimumWage?: boolean;
  /** Months in which the employee qualified before this one (counts the 24 instead of the calendar). */
  qualifyingMonthsBefore?: number;
}

export interface EtiResult {
  amount: Decimal;
  /** The month of the 24 (1 = the ETI start date's month), when it could be counted. */
  month: number | null;
  period: EtiPeriod | null;
  /** Why there is none: null when the incentive is claimed. */
  reason: EtiStop | null;
  /** The wage test, once it was reached: the wage and the least it had to be (exact). */
  wageTest?: { wage: Decimal; minimum: Decimal };
}

/** Calendar months from `start`'s month to `on`'s, the first being 1. */
export function etiMonth(start: string, on: string): number {
  const [sy, sm] = start.split('-').map(Number) as [number, number];
  const [y, m] = on.split('-').map(Number) as [number, number];
  return (y - sy) * 12 + (m - sm) + 1;
}

const none = (reason: EtiStop, month: number | null = null, period: EtiPeriod | null = null): EtiResult => ({
  amount: ZERO,
  month,
  period,
  reason,
});

export function eti(rules: EtiRules | null, input: EtiInput): EtiResult {
  if (!rules || input.monthEnd > rules.effectiveTo || input.monthEnd < rules.effectiveFrom)
    return none('no_rules');
  const age = ageOn(input.dateOfBirth, input.monthEnd);
  if (age < rules.minAge || age > rules.maxAge) return none('age');
  const month =
    input.qualifyingMonthsBefore === undefined
      ? etiMonth(input.etiStartDate, input.monthEnd)
      : input.etiStartDate.slice(0, 7) > input.monthEnd.slice(0, 7)
        ? 0
        : input.qualifyingMonthsBefore + 1;
  if (month < 1) return none('not_started', month);
  if (month > rules.months) return none('months_used', month);
  const period: EtiPeriod = month <= rules.firstPeriodMonths ? 'first' : 'second';
  const remuneration = money(input.remuneration);
  const full = rules.minimumWageHours;
  const hours = input.hours === undefined ? full : money(input.hours);
  const share = hours.gte(full) ? money(1) : hours.dividedBy(full);
  const paid = input.wage === undefined ? remuneration : money(input.wage);
  const fixed = (input.minimumWage === undefined ? rules.minimumWage : money(input.minimumWage)).times(share);
  let minimum = input.hourlyMinimum === undefined || input.exemptFromMinimumWage ? fixed : ZERO;
  if (input.hourlyMinimum !== undefined) {
    const ordinary = input.ordinaryHours === undefined ? hours : money(input.ordinaryHours);
    const hourly = money(input.hourlyMinimum).times(ordinary);
    if (hourly.gt(minimum)) minimum = hourly;
  }
  const wageTest = { wage: paid, minimum };
  if (share.lte(0) || paid.lt(minimum)) return { ...none('below_minimum_wage', month, period), wageTest };

  const grossed = remuneration.dividedBy(share);
  if (grossed.gte(rules.maxRemuneration))
    return { ...none('remuneration_too_high', month, period), wageTest };
  const band = rules.bands.find((b) => b.period === period && grossed.gte(b.from) && grossed.lt(b.to));
  if (!band) return { ...none('remuneration_too_high', month, period), wageTest };
  let amount: Decimal;
  if (band.kind === 'rate') amount = band.rate!.times(grossed);
  else if (band.kind === 'fixed') amount = band.amount!;
  else amount = band.amount!.minus(band.rate!.times(grossed.minus(band.from)));
  return { amount: cents(amount.times(share)), month, period, reason: null, wageTest };
}
