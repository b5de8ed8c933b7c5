// The answer of an import (and the statement's stored report): what was, or would be, done, per
// statement of the file and in all. Lists of rows (duplicates, identical rows kept, row errors)
// show their first 100 beside their counts: a file of 260,000 rows answers its counts, not 25 MB
// of notes.
import { money } from '../../platform/money/money.ts';
import type { Sorted } from './bank-statements.accounts.ts';
import type { IngestPlan, PlannedLine } from './ingest.ts';
import { checkBalances } from './statements/balance.ts';
import type { Parsed } from './statements/detect.ts';
import type { ParsedStatement } from './statements/types.ts';

/** Rows a list shows; its count says how many there are. */
export const SHOWN = 100;

export interface FileFacts {
  name: string | null;
  sha256: string;
  size: number;
  /** The CSV's bank profile, or mapping:<id>. */
  profile: string | null;
}

const amountOf = (p: PlannedLine) => money(p.line.amount).toFixed(2);

function statementBalance(s: ParsedStatement) {
  return checkBalances(s.lines, s.openingBalance, s.closingBalance, s.derivedBalance);
}

/** The balances of the account's statements together: the first's opening to the last's closing. */
function overallBalance(mine: readonly ParsedStatement[]) {
  if (mine.length === 1) return statementBalance(mine[0]!);
  const first = mine[0]!;
  const last = mine.at(-1)!;
  const derived =
    first.derivedBalance === 'opening'
      ? 'opening'
      : last.derivedBalance === 'closing'
        ? 'closing'
        : undefined;
  return checkBalances(
    mine.flatMap((s) => s.lines),
    first.openingBalance,
    last.closingBalance,
    derived,
  );
}

const earliest = (days: (string | undefined)[]) =>
  days.filter((d): d is string => Boolean(d)).sort()[0] ?? null;
const latest = (days: (string | undefined)[]) =>
  days
    .filter((d): d is string => Boolean(d))
    .sort()
    .at(-1) ?? null;

export function report(parsed: Parsed, sorted: Sorted, plan: IngestPlan, file: FileFacts) {
  const mine = sorted.mine;
  // The plan is of the account's statements' lines in mine's order: each statement's own part.
  const counts = new Map<ParsedStatement, { rowsNew: number; rowsDuplicate: number }>();
  let offset = 0;
  for (const s of mine) {
    const planned = plan.lines.slice(offset, offset + s.lines.length);
    offset += s.lines.length;
    const rowsNew = planned.filter((p) => p.outcome === 'new').length;
    counts.set(s, { rowsNew, rowsDuplicate: planned.length - rowsNew });
  }
  const statements = sorted.all.map(({ statement: s, outcome, reason }, i) => {
    const { rowsNew, rowsDuplicate } = counts.get(s) ?? { rowsNew: 0, rowsDuplicate: 0 };
    const notes = s.notes ?? [];
    return {
      index: i + 1,
      reference: s.reference ?? null,
      accountHint: s.accountHint ?? null,
      currency: s.currency ?? null,
      periodFrom: s.periodFrom ?? null,
      periodTo: s.periodTo ?? null,
      outcome,
      reason,
      rowsRead: s.lines.length + s.errors.length,
      rowsNew,
      rowsDuplicate,
      rowsError: s.errors.length,
      balance: statementBalance(s),
      notes:
        notes.length > SHOWN
          ? [...notes.slice(0, SHOWN), `and ${notes.length - SHOWN} more note(s) like these`]
          : notes,
    };
  });
  const balance = overallBalance(mine);
  const errors = mine.flatMap((s) => s.errors);
  const duplicated = plan.lines.filter((p) => p.outcome === 'duplicate');
  const identical = plan.lines.filter((p) => p.note);
  const read = plan.lines.length + errors.length;
  const parts = [
    `${plan.newCount} new`,
    `${plan.duplicateCount} already held (skipped: each with its reason)`,
  ];
  if (errors.length) parts.push(`${errors.length} row(s) with errors not written; the rest are`);
  if (balance.status === 'gap') parts.push('the balances do not tie out (see balance)');
  const others = statements.filter((s) => s.outcome === 'other_account').length;
  if (others)
    parts.push(`${others} statement(s) of other accounts in the file not imported (see statements)`);
  return {
    format: parsed.format,
    profile: file.profile,
    layout: parsed.layout ?? null,
    fileName: file.name,
    fileSha256: file.sha256,
    fileSize: file.size,
    periodFrom: earliest(mine.map((s) => s.periodFrom)),
    periodTo: latest(mine.map((s) => s.periodTo)),
    currency: mine.find((s) => s.currency)?.currency ?? null,
    accountHint: mine.find((s) => s.accountHint)?.accountHint ?? null,
    rowsRead: read,
    rowsNew: plan.newCount,
    rowsDuplicate: plan.duplicateCount,
    rowsIdentical: identical.length,
    rowsError: errors.length,
    balance,
    statements,
    duplicates: duplicated.slice(0, SHOWN).map((p) => ({
      line: p.line.line ?? null,
      date: p.line.date,
      amount: amountOf(p),
      description: p.line.description,
      reason: p.reason!,
      duplicateOfId: p.duplicateOf!.id,
    })),
    identical: identical.slice(0, SHOWN).map((p) => ({
      line: p.line.line ?? null,
      date: p.line.date,
      amount: amountOf(p),
      note: p.note!,
    })),
    errors: errors.slice(0, SHOWN),
    message: parts.join('; '),
  };
}

export type Report = ReturnType<typeof report>;
