// What every statement parser answers: the lines it read (as ingest takes them), the rows it could
// not read (each with its row and field, so the preview can say which), and the statement's own
// figures when the file gives them.
import type { StatementLine } from '../ingest.ts';

export interface RowError {
  /** The row (CSV) or entry (OFX, CAMT) in the file, 1-based. */
  line: number;
  field?: string;
  message: string;
}

/**
 * One statement of a file: an OFX STMTRS or CCSTMTRS, a CAMT Stmt, or a whole CSV. A file may
 * hold several (several accounts, several days), and each goes to the account it names.
 */
export interface ParsedStatement {
  lines: StatementLine[];
  errors: RowError[];
  openingBalance?: string;
  closingBalance?: string;
  /** Which balance the reader worked out (closing less the lines, or opening plus them) rather than read. */
  derivedBalance?: 'opening' | 'closing';
  periodFrom?: string;
  periodTo?: string;
  currency?: string;
  /** The account the statement names (an account number, an IBAN), matched against the bank account's. */
  accountHint?: string;
  /** The statement's own id in the file (CAMT Stmt/Id), when it has one. */
  reference?: string;
  /** What the reader did that the user should know (a batch kept whole, a time zone applied). */
  notes?: string[];
}

/** How a reader is told the company's circumstances: the day of an instant is the company's. */
export interface ReadOptions {
  /** The IANA zone whose calendar day a booking time with a zone falls on. */
  timeZone: string;
}

/**
 * A file that cannot be read at all (not OFX, not XML, no header row, a ZIP): the route's 422.
 * `details` are members the problem carries beside the reasons (the columns a CSV header has, a
 * mapping that would read it).
 */
export class UnreadableStatement extends Error {
  readonly reasons: string[];
  readonly details: Record<string, unknown>;
  constructor(message: string, reasons: string[] = [], details: Record<string, unknown> = {}) {
    super(message);
    this.reasons = reasons;
    this.details = details;
  }
}

/** Whether a normalised amount (readMoney's) is zero. */
export const isZeroAmount = (a: string) => /^-?0\.00$/.test(a);

/** A normalised amount in cents, exactly (BigInt: never a float). */
export const centsOf = (a: string): bigint => BigInt(a.replace('.', ''));

/** Cents back as an amount text with two decimals. */
export function amountOf(cents: bigint): string {
  const neg = cents < 0n;
  const digits = (neg ? -cents : cents).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYYMMDD',
  'DD/MM/YYYY',
  'DD-MM-YYYY',
  'MM/DD/YYYY',
  'DD MMM YYYY',
  'DD/MM/YY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

function valid(y: number, m: number, d: number): string | null {
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const TIME = /[ T]\d{1,2}:.*$/;

/** A date in the given format (a time after it ignored) as YYYY-MM-DD, or null. */
export function dateText(raw: string | undefined, format: DateFormat): string | null {
  if (!raw) return null;
  const s = TIME.test(raw) ? raw.replace(TIME, '').trim() : raw.trim();
  let m: RegExpExecArray | null;
  switch (format) {
    case 'YYYY-MM-DD':
    case 'YYYY/MM/DD':
      m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s);
      return m ? valid(+m[1]!, +m[2]!, +m[3]!) : null;
    case 'YYYYMMDD':
      m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
      return m ? valid(+m[1]!, +m[2]!, +m[3]!) : null;
    case 'DD/MM/YYYY':
    case 'DD-MM-YYYY':
      m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(s);
      return m ? valid(+m[3]!, +m[2]!, +m[1]!) : null;
    case 'DD/MM/YY':
      // Two-digit years are this century's: bank exports cover recent days.
      m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2})$/.exec(s);
      return m ? valid(2000 + +m[3]!, +m[2]!, +m[1]!) : null;
    case 'MM/DD/YYYY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      return m ? valid(+m[3]!, +m[1]!, +m[2]!) : null;
    case 'DD MMM YYYY': {
      m = /^(\d{1,2})[\s-]([A-Za-z]{3})[A-Za-z]*[\s-](\d{4})$/.exec(s);
      const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) + 1 : 0;
      return m && month ? valid(+m[3]!, month, +m[1]!) : null;
    }
  }
}
