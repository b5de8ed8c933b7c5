// Leave entitlement per the Basic Conditions of Employment Act 75 of 1997, ss 20–27 (pure and
// exact: decimal.js). Each type has a cycle counted from the employee's start date; the balance
// is the entitlement of the cycle that holds the date, less the approved days of that cycle,
// plus adjustments (leave.balances.ts).
//
//   annual (s 20): 21 consecutive days a 12-month cycle = days_per_week × 3 working days (15 on
//     a five-day week). Accrued PRO RATA by calendar days employed in the cycle, up to and
//     including the date, rounded down to 2 decimals. Chosen over "one day per 17 days worked"
//     (s 20(2)(b), by agreement) because the days actually worked are not recorded here: the
//     17-day rule would have to assume them from the calendar, which is this rule in other
//     units. Not offered as a setting (it needs a column and the attendance it is based on).
//     Untaken leave of the last cycle (grantable for six months after it, s 20(4)) is not
//     carried on by itself: an adjustment brings it into the new cycle.
//   sick (s 22): days_per_week × 6 working days (30 on five days) a 36-month cycle; during the
//     first six months, one day for every 26 days worked (s 22(3)), the days worked taken as
//     the working days (leave.days.ts) from the start date to the date. From six months on, the
//     whole cycle's days (the days taken in the first six months are in the cycle's taken).
//   family_responsibility (s 27): 3 days in each year of employment (cycle of 12 months from
//     the start), once employed four months (from the day four months after the start date)
//     and only when working at least four days a week; else 0.
//   parental: one entitlement per birth or adoption (four months and ten days shared between
//     the parents since Van Wyk, 3 October 2025): no accrual and no balance kept; approved days
//     are recorded (taken, over the employment).
//   unpaid: no balance; taken over the employment.
import { Decimal } from 'decimal.js';
import { addDays } from '../../platform/dates/days.ts';
import { addMonths, calendarDays, workingDays } from './leave.days.ts';
import type { LeaveType } from './payroll.tables.ts';

export interface EmployeeTerms {
  startDate: string;
  endDate: string | null;
  daysPerWeek: Decimal.Value;
}

export interface Entitlement {
  /** null: the type has no entitlement (parental, unpaid): only days taken are counted. */
  entitled: Decimal | null;
  cycleStart: string;
  /** null: the cycle is the whole employment (parental, unpaid). */
  cycleEnd: string | null;
}

/** The cycle of `months` months from the start date that holds `asOf` (asOf on or after start). */
export function cycleOf(startDate: string, months: number, asOf: string): { start: string; end: string } {
  let k = 0;
  while (addMonths(startDate, (k + 1) * months) <= asOf) k++;
  const start = addMonths(startDate, k * months);
  return { start, end: addDays(addMonths(startDate, (k + 1) * months), -1) };
}

/** The last day counted: asOf, or the end of employment when that is earlier. */
function lastDay(e: EmployeeTerms, asOf: string): string {
  return e.endDate && e.endDate < asOf ? e.endDate : asOf;
}

export function annual(e: EmployeeTerms, asOf: string): Entitlement {
  const c = cycleOf(e.startDate, 12, asOf);
  const full = new Decimal(e.daysPerWeek).times(3);
  const employed = Math.max(0, calendarDays(c.start, lastDay(e, asOf)));
  const entitled = full
    .times(employed)
    .div(calendarDays(c.start, c.end))
    .toDecimalPlaces(2, Decimal.ROUND_DOWN);
  return { entitled, cycleStart: c.start, cycleEnd: c.end };
}

export function sick(e: EmployeeTerms, asOf: string): Entitlement {
  const c = cycleOf(e.startDate, 36, asOf);
  if (asOf < addMonths(e.startDate, 6)) {
    const worked = workingDays(e.startDate, lastDay(e, asOf), e.daysPerWeek);
    return { entitled: new Decimal(Math.floor(worked / 26)), cycleStart: c.start, cycleEnd: c.end };
  }
  return { entitled: new Decimal(e.daysPerWeek).times(6), cycleStart: c.start, cycleEnd: c.end };
}

export function familyResponsibility(e: EmployeeTerms, asOf: string): Entitlement {
  const c = cycleOf(e.startDate, 12, asOf);
  const eligible = asOf >= addMonths(e.startDate, 4) && new Decimal(e.daysPerWeek).gte(4);
  return { entitled: new Decimal(eligible ? 3 : 0), cycleStart: c.start, cycleEnd: c.end };
}

/** The entitlement of each type as of a date on or after the start date. */
export function entitlement(type: LeaveType, e: EmployeeTerms, asOf: string): Entitlement {
  switch (type) {
    case 'annual':
      return annual(e, asOf);
    case 'sick':
      return sick(e, asOf);
    case 'family_responsibility':
      return familyResponsibility(e, asOf);
    case 'parental':
    case 'unpaid':
      return { entitled: null, cycleStart: e.startDate, cycleEnd: e.endDate };
  }
}
