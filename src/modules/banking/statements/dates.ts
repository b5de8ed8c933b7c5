// Which date format a file writes, decided from all of its dates: "03/04/2026" alone is the 3rd
// of April or the 4th of March, a month of rows is not. The format that reads every date wins;
// between formats that all read them (every day 12 or less), the one whose dates run in order,
// then the one whose dates span a month or less where the other's span over two (a statement
// covers days, not months), then the bank's usual one.
import { type DateFormat, dateText } from './types.ts';

const DAY_MS = 86_400_000;

interface Tally {
  format: DateFormat;
  read: number;
  first?: string;
  last?: string;
  min?: string;
  max?: string;
  rising: boolean;
  falling: boolean;
}

/** The candidate (in order of preference) that reads the file's date cells best. */
export function decideDateFormat(
  cells: readonly (string | undefined)[],
  candidates: readonly DateFormat[],
): DateFormat {
  if (candidates.length < 2) return candidates[0]!;
  const tallies: Tally[] = candidates.map((format) => ({ format, read: 0, rising: true, falling: true }));
  for (const raw of cells) {
    if (!raw) continue;
    for (const t of tallies) {
      const d = dateText(raw, t.format);
      if (!d) continue;
      t.read++;
      if (t.last != null) {
        if (d < t.last) t.rising = false;
        if (d > t.last) t.falling = false;
      }
      t.first ??= d;
      t.last = d;
      if (t.min == null || d < t.min) t.min = d;
      if (t.max == null || d > t.max) t.max = d;
    }
  }
  const span = (t: Tally) => (t.min && t.max ? (Date.parse(t.max) - Date.parse(t.min)) / DAY_MS : 0);
  const ordered = (t: Tally) => (t.rising || t.falling ? 1 : 0);
  // The span decides only when it is plain: a month or less one way, over two months the other
  // (a quarter of interest on the 1st, 01/03 01/04 01/05, is not turned into 3-5 January).
  const plainlyShorter = (a: Tally, b: Tally) => span(a) <= 31 && span(b) > 62;
  return tallies.reduce((best, t) => {
    if (t.read !== best.read) return t.read > best.read ? t : best;
    if (ordered(t) !== ordered(best)) return ordered(t) > ordered(best) ? t : best;
    return plainlyShorter(t, best) ? t : best;
  }).format;
}
