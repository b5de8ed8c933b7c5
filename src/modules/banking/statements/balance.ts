// The statement's balances checked, not trusted: opening + the lines = closing, and each row's
// running balance following from the one before (a gap says at which row and by how much: a row
// the file left out, or one that could not be read).
import { money } from '../../../platform/money/money.ts';
import type { StatementLine } from '../ingest.ts';

export interface RunningGap {
  /** The row whose balance does not follow from the one before. */
  line: number | null;
  date: string;
  expected: string;
  found: string;
  /** found - expected. */
  difference: string;
}

export interface BalanceCheck {
  status: 'ok' | 'gap' | 'not_given';
  openingBalance: string | null;
  closingBalance: string | null;
  linesTotal: string;
  /** closing - (opening + lines), when both are given. */
  gap: string | null;
  runningGaps: RunningGap[];
}

export function checkBalances(
  lines: readonly StatementLine[],
  opening: string | undefined,
  closing: string | undefined,
): BalanceCheck {
  let total = money(0);
  for (const l of lines) total = total.plus(l.amount);
  const runningGaps: RunningGap[] = [];
  let prev: StatementLine | undefined;
  for (const l of lines) {
    if (prev?.runningBalance != null && l.runningBalance != null) {
      const expected = money(prev.runningBalance).plus(l.amount);
      const found = money(l.runningBalance);
      if (!expected.equals(found))
        runningGaps.push({
          line: l.line ?? null,
          date: l.date,
          expected: expected.toFixed(2),
          found: found.toFixed(2),
          difference: found.minus(expected).toFixed(2),
        });
    }
    prev = l;
  }
  const gap =
    opening != null && closing != null ? money(closing).minus(money(opening).plus(total)).toFixed(2) : null;
  const status =
    gap == null && !lines.some((l) => l.runningBalance != null)
      ? 'not_given'
      : (gap != null && !money(gap).isZero()) || runningGaps.length
        ? 'gap'
        : 'ok';
  return {
    status,
    openingBalance: opening ?? null,
    closingBalance: closing ?? null,
    linesTotal: total.toFixed(2),
    gap,
    runningGaps,
  };
}
