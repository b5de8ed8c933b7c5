// South African public holidays (Public Holidays Act 36 of 1994): the twelve named in its
// Schedule 1, Good Friday and Family Day from Easter, and s 2(1): "whenever any public holiday
// falls on a Sunday, the Monday following on it shall be a public holiday". A Monday that is
// already a holiday (Day of Goodwill after a Sunday Christmas) adds nothing. Days the President
// declares ad hoc (election days, 27 December 2022) are not here: leave on such a day counts as
// a working day until the day is added (a leave adjustment gives it back).
import { addDays } from '../../platform/dates/days.ts';

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const FIXED: Array<[string, string]> = [
  ['01-01', "New Year's Day"],
  ['03-21', 'Human Rights Day'],
  ['04-27', 'Freedom Day'],
  ['05-01', "Workers' Day"],
  ['06-16', 'Youth Day'],
  ['08-09', "National Women's Day"],
  ['09-24', 'Heritage Day'],
  ['12-16', 'Day of Reconciliation'],
  ['12-25', 'Christmas Day'],
  ['12-26', 'Day of Goodwill'],
];

const cache = new Map<number, Map<string, string>>();

/** The year's public holidays, day → name, the Sunday → Monday days included ("(observed)"). */
export function publicHolidays(year: number): Map<string, string> {
  const known = cache.get(year);
  if (known) return known;
  const easter = easterSunday(year);
  const named: Array<[string, string]> = [
    ...FIXED.map(([md, name]): [string, string] => [`${year}-${md}`, name]),
    [addDays(easter, -2), 'Good Friday'],
    [addDays(easter, 1), 'Family Day'],
  ];
  const out = new Map<string, string>(named);
  for (const [day, name] of named) {
    if (new Date(`${day}T00:00:00Z`).getUTCDay() !== 0) continue;
    const monday = addDays(day, 1);
    if (!out.has(monday)) out.set(monday, `${name} (observed)`);
  }
  const sorted = new Map([...out].sort(([x], [y]) => (x < y ? -1 : 1)));
  cache.set(year, sorted);
  return sorted;
}

export function isPublicHoliday(day: string): boolean {
  return publicHolidays(Number(day.slice(0, 4))).has(day);
}
