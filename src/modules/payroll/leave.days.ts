// Working days of an employee between two dates (pure). The working week comes from
// days_per_week, as the database keeps no list of which days someone works:
//   up to 5 → Monday to Friday; more than 5, up to 6 → Monday to Saturday; more than 6 → every
//   day. (A part-timer on fewer than five days is taken to work Monday to Friday: the leave a
//   request takes is then the weekdays in it, and the balance is in those days.)
// Public holidays are never working days (BCEA s 21: a public holiday in annual leave adds a
// day; the same count serves sick and the other types).
import { Decimal } from 'decimal.js';
import { addDays } from '../../platform/dates/days.ts';
import { isPublicHoliday } from './za-public-holidays.ts';

/** Whether the weekday (0 Sunday … 6 Saturday) is in the working week of days_per_week. */
export function worksOn(weekday: number, daysPerWeek: Decimal.Value): boolean {
  const d = new Decimal(daysPerWeek);
  if (d.gt(6)) return true;
  if (weekday === 0) return false;
  if (weekday === 6) return d.gt(5);
  return true;
}

export function isWorkingDay(day: string, daysPerWeek: Decimal.Value): boolean {
  return worksOn(new Date(`${day}T00:00:00Z`).getUTCDay(), daysPerWeek) && !isPublicHoliday(day);
}

/** The working days from `from` to `to`, both included (0 when to is before from). */
export function workingDays(from: string, to: string, daysPerWeek: Decimal.Value): number {
  let n = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) if (isWorkingDay(day, daysPerWeek)) n++;
  return n;
}

/** The day `n` months after `day`, on the same day of the month or the month's last (31 Jan + 1 → 28/29 Feb). */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Calendar days from `from` to `to`, both included. */
export function calendarDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}
