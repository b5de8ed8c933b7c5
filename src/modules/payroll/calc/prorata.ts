// Pay for part of a period: an employee who starts (or leaves) during it is paid for the days
// employed, pro rata. Two bases, the employer's choice (stated in the contract):
//   calendar: days employed in the period ÷ days in the period (June 12–30: 19 ÷ 30);
//   working:  working days employed ÷ working days in the period (the employee's working week,
//             Monday to Friday unless told).
// The same fraction is the `periodFraction` PAYE annualises by (paye.ts). The amount is rounded
// half-up to the cent.
import type { Decimal } from 'decimal.js';
import { cents, Money, type MoneyInput, money } from '../../../platform/money/money.ts';

/** A pay period, both ends inclusive, ISO dates. */
export interface PayPeriod {
  start: string;
  end: string;
}

export type ProRataBasis = 'calendar' | 'working';

const DAY = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;

/** Days from a to b inclusive that count (every day, or the working days by weekday 0–6). */
function countDays(from: number, to: number, weekdays: ReadonlySet<number> | null): number {
  let n = 0;
  for (let d = from; d <= to; d++) if (!weekdays || weekdays.has((d + 4) % 7)) n++; // 1970-01-01 was a Thursday
  return n;
}

/**
 * The share of `period` employed from `start` to `end` (null: still employed), in [0, 1]:
 * by calendar days or by working days (`workingDays`: weekdays 0 Sunday … 6 Saturday).
 */
export function periodFraction(
  period: PayPeriod,
  start: string,
  end: string | null = null,
  basis: ProRataBasis = 'calendar',
  workingDays: readonly number[] = [1, 2, 3, 4, 5],
): Decimal {
  const p0 = dayOf(period.start);
  const p1 = dayOf(period.end);
  if (p1 < p0) throw new RangeError('the period ends before it starts');
  const from = Math.max(p0, dayOf(start));
  const to = Math.min(p1, end === null ? p1 : dayOf(end));
  if (to < from) return new Money(0);
  const weekdays = basis === 'working' ? new Set(workingDays) : null;
  const whole = countDays(p0, p1, weekdays);
  if (whole === 0) return new Money(0);
  return new Money(countDays(from, to, weekdays)).dividedBy(whole);
}

/** The pay for the part of `period` employed: `rate` (a full period's pay) × the fraction, to the cent. */
export function proRata(
  rate: MoneyInput,
  period: PayPeriod,
  start: string,
  end: string | null = null,
  basis: ProRataBasis = 'calendar',
  workingDays?: readonly number[],
): Decimal {
  return cents(money(rate).times(periodFraction(period, start, end, basis, workingDays)));
}
