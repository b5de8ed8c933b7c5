// Calendar days as the API writes them: 'YYYY-MM-DD' strings, compared as strings (which
// orders them correctly), never as local-time Dates.

/** The UTC day of a moment. */
export function dayOf(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before, for negative n). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return dayOf(d);
}

/** The latest of the days. */
export function latestDay(first: string, ...rest: string[]): string {
  return [first, ...rest].sort().at(-1)!;
}
