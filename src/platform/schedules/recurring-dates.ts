// The run dates of a recurring schedule (recurring invoices, recurring bills, the next module's): a series counted from its anchor date, every n weeks,
// fortnights, months, quarters or years. Month steps keep the anchor's day of the month where the
// month has it and take the month's last day where it does not: an anchor on the 31st runs on the
// 30th in April, the 28th (29th) in February, and the 31st again in May. Each date is counted from
// the anchor, never from the date before it, so a short month does not pull the later ones back.
import { addDays } from '../dates/days.ts';

export const FREQUENCIES = ['weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export function isFrequency(value: string): value is Frequency {
  return (FREQUENCIES as readonly string[]).includes(value);
}

export interface Series {
  anchor: string;
  frequency: Frequency;
  /** Every n periods (1: every period). */
  interval: number;
}

const DAY_MS = 86_400_000;

function parts(day: string): [number, number, number] {
  return [Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `day` moved by `n` calendar months, its day of the month kept or cut to the month's last. */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = parts(day);
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const dd = Math.min(d, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/** Days or months per step. */
function step(s: Series): { unit: 'days' | 'months'; size: number } {
  switch (s.frequency) {
    case 'weekly':
      return { unit: 'days', size: 7 * s.interval };
    case 'fortnightly':
      return { unit: 'days', size: 14 * s.interval };
    case 'monthly':
      return { unit: 'months', size: s.interval };
    case 'quarterly':
      return { unit: 'months', size: 3 * s.interval };
    case 'yearly':
      return { unit: 'months', size: 12 * s.interval };
  }
}

/** The k-th run date of the series (k = 0 is the anchor). */
export function runDate(s: Series, k: number): string {
  const { unit, size } = step(s);
  return unit === 'days' ? addDays(s.anchor, size * k) : addMonths(s.anchor, size * k);
}

/** A k at or below the index of the first run date after `day` (a cheap start for the search). */
function lowerIndex(s: Series, day: string): number {
  const { unit, size } = step(s);
  if (unit === 'days') {
    const days = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${s.anchor}T00:00:00Z`)) / DAY_MS);
    return Math.max(0, Math.floor(days / size));
  }
  const [ay, am] = parts(s.anchor);
  const [dy, dm] = parts(day);
  const months = dy * 12 + dm - (ay * 12 + am);
  return Math.max(0, Math.floor(months / size) - 1);
}

/** The first run date of the series strictly after `day`. */
export function runAfter(s: Series, day: string): string {
  let k = lowerIndex(s, day);
  while (runDate(s, k) <= day) k++;
  return runDate(s, k);
}

/** The first run date of the series on or after `day`. */
export function runOnOrAfter(s: Series, day: string): string {
  return runAfter(s, addDays(day, -1));
}
