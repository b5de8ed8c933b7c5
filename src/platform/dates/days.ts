// Calendar days as the API writes them (YYYY-MM-DD), in UTC, with the little arithmetic the
// ledger and the reports need: months and financial years. Plain strings compare in date order,
// so days are compared as strings, never as local-time Dates. The one dates module with
// zone.ts (issue 35: src/platform/dates.ts was a second one).
import { badRequest } from '../http/problem.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(day: string): [number, number, number] {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function format(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** A real calendar day in YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1) return false;
  return format(year, Number(m[2]), Number(m[3])) === value;
}

/** The value if it is a real calendar day, else a 400 naming the field. */
export function calendarDay(value: string, field: string): string {
  if (!isCalendarDay(value)) throw badRequest(field, 'must be a date (YYYY-MM-DD)');
  return value;
}

/** The UTC day of a moment. */
export function dayOf(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** Today in UTC: the day of `now`. */
export function todayOf(now: Date): string {
  return dayOf(now);
}

/** The day `n` days after `day` (before, for negative n). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return format(y, m, d + n);
}

/** The first day of the day's month. */
export function monthStart(day: string): string {
  const [y, m] = parts(day);
  return format(y, m, 1);
}

/** The first day of the month after the day's. */
export function nextMonthStart(day: string): string {
  const [y, m] = parts(day);
  return format(y, m + 1, 1);
}

export function isMonthStart(day: string): boolean {
  return parts(day)[2] === 1;
}

export function isMonthEnd(day: string): boolean {
  return addDays(day, 1).endsWith('-01');
}

/**
 * The first day of the financial year that contains the day, for a year that ends with the
 * month `yearEndMonth` (1-12; 2 = February, as most South African companies): with February,
 * 2026-02-10 is in the year that began on 2025-03-01, and 2026-03-01 starts the next one.
 */
export function financialYearStart(day: string, yearEndMonth: number): string {
  const [y, m] = parts(day);
  const startMonth = (yearEndMonth % 12) + 1;
  return format(m >= startMonth ? y : y - 1, startMonth, 1);
}

/** The last day of the financial year that contains the day. */
export function financialYearEnd(day: string, yearEndMonth: number): string {
  const start = financialYearStart(day, yearEndMonth);
  const [y, m] = parts(start);
  return format(y + 1, m, 0);
}

/** The latest of the days. */
export function latestDay(first: string, ...rest: string[]): string {
  return [first, ...rest].sort().at(-1)!;
}
