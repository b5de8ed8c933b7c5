// Which statements of a file are the bank account's. A file may hold several (an OFX of two
// accounts, a CAMT of several days or accounts): each goes to the account it names, never into
// another. The account named is matched against the bank account's number; a file naming none of
// its statements is refused with the accounts it does name, and a statement of the account in
// another currency is refused (as Odoo's import refuses it): its amounts are not this account's
// money.
import { createHash } from 'node:crypto';
import { HttpError, unprocessable } from '../../platform/http/problem.ts';
import type { ParsedStatement } from './statements/types.ts';

export type StatementOutcome = 'imported' | 'other_account' | 'repeated';

export interface Sorted {
  /** Each statement of the file with what becomes of it, in the file's order. */
  all: Array<{ statement: ParsedStatement; outcome: StatementOutcome; reason: string | null }>;
  /** The account's, to import, in the order of their days. */
  mine: ParsedStatement[];
  warnings: string[];
}

export interface AccountFacts {
  /** The bank account's number as recorded, or null. */
  number: string | null;
  /** The numbers of the company's other bank accounts: a statement goes to the one it names best. */
  others: readonly string[];
  currency: string;
  /** How the bank account is named in messages: "Bank 1000 (••••5678)". */
  label: string;
}

// Spaces, dashes, dots, slashes, a '~' (an OFX ACCTID like 1452687~7): not part of the number.
const plain = (s: string) => s.toUpperCase().replace(/[^A-Z0-9*X•]/g, '');
const MASK = /[*X•]/;

/**
 * How well an account named in a file (an account number, an IBAN, a masked card number) is this
 * number: 0 not at all; the same number (leading zeros aside) best; else one ending with the
 * other (an IBAN or a branch-prefixed number ends with the account number), by the length they
 * share; a masked number by its last digits.
 */
export function accountMatch(hint: string, number: string): number {
  const h = plain(hint).replace(/^0+/, '');
  const n = plain(number).replace(/^0+/, '');
  if (!h || !n) return 0;
  if (MASK.test(h)) {
    const tail = /\d{4,}$/.exec(h)?.[0];
    return tail != null && n.endsWith(tail) ? tail.length : 0;
  }
  if (h === n) return Number.MAX_SAFE_INTEGER;
  const shorter = Math.min(h.length, n.length);
  return shorter >= 6 && (h.endsWith(n) || n.endsWith(h)) ? shorter : 0;
}

export const sameAccount = (hint: string, number: string) => accountMatch(hint, number) > 0;

export function sortStatements(statements: readonly ParsedStatement[], account: AccountFacts): Sorted {
  const hints = [...new Set(statements.map((s) => s.accountHint).filter((h): h is string => Boolean(h)))];
  const warnings: string[] = [];
  let isMine: (s: ParsedStatement) => boolean;
  if (account.number) {
    const number = account.number;
    // This account's when it names this number, and no other account's number better (a file of
    // 12345678 is not account 2345678's because one ends with the other).
    isMine = (s) => {
      if (!s.accountHint) return true;
      const mine = accountMatch(s.accountHint, number);
      return mine > 0 && account.others.every((o) => accountMatch(s.accountHint!, o) <= mine);
    };
  } else if (hints.length > 1)
    throw unprocessable(`file: it holds statements of ${hints.length} accounts`, [
      `the accounts in the file: ${hints.join(', ')}`,
      `${account.label} has no account number recorded to choose its statements by: record it ` +
        '(PATCH /api/bank-accounts/{id}, accountNumber) and upload again',
    ]);
  else {
    isMine = () => true;
    if (hints.length)
      warnings.push(
        `the file names account ${hints[0]}; ${account.label} has no account number recorded, so that ` +
          'could not be checked (record it to have statements of other accounts refused)',
      );
  }
  const seen = new Set<string>();
  const all: Sorted['all'] = statements.map((statement) => {
    if (!isMine(statement))
      return {
        statement,
        outcome: 'other_account',
        reason: `of account ${statement.accountHint}, not this one`,
      };
    // The same statement twice in one file (a resend pasted in): its lines once.
    const key = fingerprint(statement);
    if (seen.has(key))
      return {
        statement,
        outcome: 'repeated',
        reason: `the same statement${statement.reference ? ` (${statement.reference})` : ''} is in the file twice`,
      };
    seen.add(key);
    return { statement, outcome: 'imported', reason: null };
  });
  // In the order of their days, whatever the file's (a CAMT may list the later day first): the
  // balances run from the earliest opening to the latest closing.
  const mine = all
    .filter((a) => a.outcome === 'imported')
    .map((a) => a.statement)
    .sort((a, b) => dayOf(a).localeCompare(dayOf(b)));
  if (!mine.length)
    throw new HttpError(422, `file: no statement in it is of ${account.label}`, {
      reasons: [
        `the accounts in the file: ${hints.join(', ')}`,
        `${account.label} is account ${account.number}: upload the file to the bank account each statement is of`,
      ],
      accountsFound: hints,
    });
  for (const s of mine)
    if (s.currency && s.currency.toUpperCase() !== account.currency.toUpperCase())
      throw unprocessable(
        `file: the statement is in ${s.currency}; ${account.label} is in ${account.currency}`,
        [
          `the statement${s.accountHint ? ` of account ${s.accountHint}` : ''} is in ${s.currency}`,
          `import it into a bank account in ${s.currency}`,
        ],
      );
  return { all, mine, warnings };
}

/** A statement's first day: its period's start, else its first line's (none: first). */
function dayOf(s: ParsedStatement): string {
  if (s.periodFrom) return s.periodFrom;
  let first = s.periodTo ?? '9999-12-31';
  for (const l of s.lines) if (l.date < first) first = l.date;
  return first;
}

/** What makes two statements of a file the same one pasted twice: every figure and every line. */
function fingerprint(s: ParsedStatement): string {
  const head = [s.accountHint, s.reference, s.periodFrom, s.periodTo, s.openingBalance, s.closingBalance];
  const lines = s.lines.map((l) => [l.date, l.amount, l.externalId, l.description].join('\u0001'));
  return createHash('sha256')
    .update([...head, ...lines].join('\u0002'))
    .digest('hex');
}
