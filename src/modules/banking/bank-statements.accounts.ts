// Which statements of a file are the bank account's. A file may hold several (an OFX of two
// accounts, a CAMT of several days or accounts): each goes to the account it names, never into
// another. The account named is matched against the bank account's number; a file naming none of
// its statements is refused with the accounts it does name, and a statement of the account in
// another currency is refused (as Odoo's import refuses it): its amounts are not this account's
// money.
import { HttpError, unprocessable } from '../../platform/http/problem.ts';
import type { ParsedStatement } from './statements/types.ts';

export type StatementOutcome = 'imported' | 'other_account' | 'repeated';

export interface Sorted {
  /** Each statement of the file with what becomes of it, in the file's order. */
  all: Array<{ statement: ParsedStatement; outcome: StatementOutcome; reason: string | null }>;
  /** The account's, to import. */
  mine: ParsedStatement[];
  warnings: string[];
}

export interface AccountFacts {
  /** The bank account's number as recorded, or null. */
  number: string | null;
  currency: string;
  /** How the bank account is named in messages: "Bank 1000 (••••5678)". */
  label: string;
}

const plain = (s: string) => s.toUpperCase().replace(/[\s\-./]/g, '');
const MASK = /[*X•]/;

/**
 * Whether an account named in a file (an account number, an IBAN, a masked card number) is this
 * number: equal, or one ending with the other (an IBAN or a branch-prefixed number ends with the
 * account number; leading zeros differ), or, masked, the same last digits.
 */
export function sameAccount(hint: string, number: string): boolean {
  const h = plain(hint);
  const n = plain(number).replace(/^0+/, '');
  if (!h || !n) return false;
  if (MASK.test(h)) {
    const tail = /\d{4,}$/.exec(h)?.[0];
    return tail != null && n.endsWith(tail);
  }
  const hh = h.replace(/^0+/, '');
  const shorter = Math.min(hh.length, n.length);
  return shorter >= 6 ? hh.endsWith(n) || n.endsWith(hh) : hh === n;
}

export function sortStatements(statements: readonly ParsedStatement[], account: AccountFacts): Sorted {
  const hints = [...new Set(statements.map((s) => s.accountHint).filter((h): h is string => Boolean(h)))];
  const warnings: string[] = [];
  let isMine: (s: ParsedStatement) => boolean;
  if (account.number) {
    const number = account.number;
    isMine = (s) => !s.accountHint || sameAccount(s.accountHint, number);
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
    const s = statement;
    const key =
      s.reference &&
      [
        s.accountHint,
        s.reference,
        s.periodFrom,
        s.periodTo,
        s.openingBalance,
        s.closingBalance,
        s.lines.length,
      ].join('|');
    if (key && seen.has(key))
      return {
        statement,
        outcome: 'repeated',
        reason: `statement ${statement.reference} is in the file twice`,
      };
    if (key) seen.add(key);
    return { statement, outcome: 'imported', reason: null };
  });
  const mine = all.filter((a) => a.outcome === 'imported').map((a) => a.statement);
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
