// VAT periods by VAT category (VAT Act s27; SARS VAT 404 "Guide for Vendors", tax periods):
//   A  two months, ending in the odd months (December-January, February-March, ...)
//   B  two months, ending in the even months (January-February, March-April, ...)
//   C  one month
//   D  six months, ending at the end of February and of August
//   E  twelve months, ending at the end of the financial year
// A period's id is its end month, YYYY-MM: stable, and what SARS prints on the return.
import { badRequest } from '../../platform/http/problem.ts';
import type { VatCategory } from '../companies/index.ts';

export interface VatPeriod {
  id: string;
  from: string;
  to: string;
}

/** Months per period, and the end months (1-12) of a category. */
function shapeOf(category: VatCategory, yearEndMonth: number): { months: number; ends: number[] } {
  switch (category) {
    case 'A':
      return { months: 2, ends: [1, 3, 5, 7, 9, 11] };
    case 'B':
      return { months: 2, ends: [2, 4, 6, 8, 10, 12] };
    case 'C':
      return { months: 1, ends: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] };
    case 'D':
      return { months: 6, ends: [2, 8] };
    case 'E':
      return { months: 12, ends: [yearEndMonth] };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Months counted from year 0 (so arithmetic across years is plain subtraction). */
const monthIndex = (y: number, m: number) => y * 12 + (m - 1);
const yearOf = (i: number) => Math.floor(i / 12);
const monthOf = (i: number) => (i % 12) + 1;

function periodEndingAt(endIndex: number, months: number): VatPeriod {
  const startIndex = endIndex - months + 1;
  const y = yearOf(endIndex);
  const m = monthOf(endIndex);
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return {
    id: `${y}-${pad(m)}`,
    from: `${yearOf(startIndex)}-${pad(monthOf(startIndex))}-01`,
    to: `${y}-${pad(m)}-${pad(lastDay)}`,
  };
}

/** The period of the category that contains the day. */
export function periodContaining(category: VatCategory, yearEndMonth: number, day: string): VatPeriod {
  const { months, ends } = shapeOf(category, yearEndMonth);
  let i = monthIndex(Number(day.slice(0, 4)), Number(day.slice(5, 7)));
  while (!ends.includes(monthOf(i))) i++;
  return periodEndingAt(i, months);
}

/** The period with this id (its end month), or undefined when no period of the category ends then. */
export function periodById(category: VatCategory, yearEndMonth: number, id: string): VatPeriod | undefined {
  const { months, ends } = shapeOf(category, yearEndMonth);
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(id);
  if (!m || !ends.includes(Number(m[2]))) return undefined;
  return periodEndingAt(monthIndex(Number(m[1]), Number(m[2])), months);
}

/** Why an id is not a period of the category, for a 400 or 404 message. */
export function periodIdHint(category: VatCategory, yearEndMonth: number): string {
  const { ends } = shapeOf(category, yearEndMonth);
  return `a VAT period of category ${category} is named by its end month, YYYY-MM, one of months ${ends.map(pad).join(', ')}`;
}

/** At most this many periods in one list (ten years of monthly periods). */
export const MAX_PERIODS = 120;

/** The periods of the category that overlap [from, to], in order. */
export function periodsOverlapping(
  category: VatCategory,
  yearEndMonth: number,
  range: { from: string; to: string },
): VatPeriod[] {
  const out: VatPeriod[] = [];
  let p = periodContaining(category, yearEndMonth, range.from);
  while (p.from <= range.to) {
    if (out.length === MAX_PERIODS)
      throw badRequest('to', `the range holds more than ${MAX_PERIODS} VAT periods: ask for a shorter one`);
    out.push(p);
    // The calendar ends with the last date the service accepts (9999-12-30): no period after.
    if (p.to.length !== 10 || p.to >= '9999-12-30') break;
    const next = new Date(`${p.to}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    p = periodContaining(category, yearEndMonth, next.toISOString().slice(0, 10));
  }
  return out;
}
