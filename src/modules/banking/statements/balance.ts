// The statement's balances checked, not trusted: opening + the lines = closing, and each row's
// running balance following from the one before (a gap says at which row and by how much: a row
// the file left out, or one that could not be read).
import { money } from '../../../platform/money/money.ts';
import type { StatementLine } from '../ingest.ts';
import { amountOf, centsOf } from './types.ts';

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
  /**
   * The balance the file did not give, worked out from the other and the lines (an OFX gives only
   * its closing balance): opening + lines = closing then holds by construction, so only the running
   * balances are checked.
   */
  derived: 'opening' | 'closing' | null;
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
  derived: 'opening' | 'closing' | undefined = undefined,
): BalanceCheck {
  // In cents, exactly (BigInt): a statement of 50,000 lines is read row by row.
  const cents = (a: string) => (/^-?\d+\.\d\d$/.test(a) ? centsOf(a) : centsOf(money(a).toFixed(2)));
  let total = 0n;
  const runningGaps: RunningGap[] = [];
  let prevBalance: bigint | null = null;
  for (const l of lines) {
    const amount = cents(l.amount);
    total += amount;
    const balance = l.runningBalance == null ? null : cents(l.runningBalance);
    if (prevBalance != null && balance != null && prevBalance + amount !== balance)
      runningGaps.push({
        line: l.line ?? null,
        date: l.date,
        expected: amountOf(prevBalance + amount),
        found: amountOf(balance),
        difference: amountOf(balance - prevBalance - amount),
      });
    // A row without a balance carries the one before forward: the next row's is checked against it.
    prevBalance = balance ?? (prevBalance == null ? null : prevBalance + amount);
  }
  const gap = opening != null && closing != null ? amountOf(cents(closing) - cents(opening) - total) : null;
  const status =
    gap == null && !lines.some((l) => l.runningBalance != null)
      ? 'not_given'
      : (gap != null && !money(gap).isZero()) || runningGaps.length
        ? 'gap'
        : 'ok';
  return {
    status,
    openingBalance: opening ?? null,
    derived: derived ?? null,
    closingBalance: closing ?? null,
    linesTotal: amountOf(total),
    gap,
    runningGaps,
  };
}
