// OFX/QFX bank and card statements, as banks really write them.
//
// The file is read into a tree first (ofx-tree.ts: 1.x SGML, 2.x XML and the two mixed; comments,
// CDATA, the declared character set; a file that does not close refused).
//
// Each STMTRS (bank) and CCSTMTRS (card) is a statement of its own, wherever it sits under <OFX>:
// its account (ACCTID), currency (CURDEF), every BANKTRANLIST's STMTTRN as lines, LEDGERBAL as the
// closing balance. OFX gives no opening balance: it is the closing less the lines. FITID is the
// line's externalId (shown, never merged on).
//
// A bank's error status refuses the whole file (see refuseErrors): a signon error means no
// statement at all, and a statement response in error means an account's statement is missing,
// which importing the rest would hide.
import { dayInZone } from '../../../platform/dates/zone.ts';
import type { StatementLine } from '../ingest.ts';
import {
  type DecimalMark,
  decideDecimalMark,
  markProblem,
  PLAIN_AMOUNT,
  readMoney,
  scanMoney,
} from './amounts.ts';
import { child, type Element, ofxTree, textIn } from './ofx-tree.ts';
import {
  amountOf,
  centsOf,
  isZeroAmount,
  type ParsedStatement,
  type ReadOptions,
  type RowError,
  UnreadableStatement,
} from './types.ts';

/** The OFX statements of the file: one per STMTRS and CCSTMTRS, in the file's order. */
export function parseOfx(bytes: Uint8Array, options: ReadOptions): ParsedStatement[] {
  const ofx = ofxTree(bytes);
  const found = survey(ofx);
  refuseErrors(found.failures);
  if (!found.statements.length) throw noStatement(ofx);
  const context: Context = { ...amountReader(found.money), date: dateReader(options.timeZone), line: 0 };
  return found.statements.map((s) => readStatement(s.node, s.status, context));
}

// ---------------------------------------------------------------------------------------------
// The tree read: statements, the bank's statuses, and every amount (for the file's decimal mark).

interface Status {
  /** The response it answers for: SONRS (signon), STMTTRNRS, CCSTMTTRNRS… */
  of: string;
  code: string | undefined;
  severity: string | undefined;
  message: string | undefined;
}

interface Survey {
  statements: Array<{ node: Element; status: Status | undefined }>;
  failures: Status[];
  /** Every TRNAMT and BALAMT of the file. */
  money: Element[];
}

const STATEMENTS = new Set(['STMTRS', 'CCSTMTRS']);
const isResponse = (name: string) => name === 'SONRS' || name.endsWith('TRNRS');

/** One walk of the tree (iterative: no recursion, however deep or long the file). */
function survey(ofx: Element): Survey {
  const out: Survey = { statements: [], failures: [], money: [] };
  const todo: Array<[Element, Status | undefined]> = [[ofx, undefined]];
  while (todo.length) {
    const [el, status] = todo.pop()!;
    if (STATEMENTS.has(el.name)) out.statements.push({ node: el, status });
    const own = isResponse(el.name) ? statusOf(el) : undefined;
    if (own?.severity === 'ERROR') out.failures.push(own);
    const kids = el.children ?? [];
    for (const k of kids) if (!k.children && (k.name === 'TRNAMT' || k.name === 'BALAMT')) out.money.push(k);
    // Reversed onto the stack: taken off in the file's order. A response's status goes to its statement.
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i]!.children) todo.push([kids[i]!, own]);
  }
  return out;
}

function statusOf(response: Element): Status | undefined {
  const s = child(response, 'STATUS');
  if (!s) return undefined;
  return {
    of: response.name,
    code: textIn(s, 'CODE'),
    severity: textIn(s, 'SEVERITY')?.toUpperCase(),
    message: textIn(s, 'MESSAGE'),
  };
}

const describe = (s: Status) => `code ${s.code ?? '?'}${s.message ? `: ${s.message}` : ''}`;

/**
 * A status whose SEVERITY is ERROR refuses the whole file: at signon (SONRS) the bank sent no
 * statement at all; on a statement response (STMTTRNRS, CCSTMTTRNRS) that account's statement is
 * missing, and reading the others would leave a gap nobody sees. The user asks the bank again.
 */
function refuseErrors(failures: Status[]): void {
  if (!failures.length) return;
  const first = failures[0]!;
  const what =
    first.of === 'SONRS' ? 'the bank refused the sign-on' : `the bank answered ${first.of} with an error`;
  throw new UnreadableStatement(
    `${what} (${describe(first)}): the file holds no statement to read`,
    failures.map((f) => `${f.of}: ${describe(f)}`),
    { statuses: failures },
  );
}

/** A file of other things (investments, an account list): said what it holds. */
function noStatement(ofx: Element): UnreadableStatement {
  const holds: string[] = [];
  for (const set of ofx.children ?? []) {
    if (set.name === 'SIGNONMSGSRSV1') continue;
    for (const r of set.children ?? []) {
      if (!r.name.endsWith('TRNRS')) holds.push(r.name);
      else
        for (const k of r.children ?? [])
          if (k.name !== 'STATUS' && k.name !== 'TRNUID' && k.name !== 'CLTCOOKIE' && k.text === undefined)
            holds.push(k.name);
    }
  }
  const unique = [...new Set(holds)];
  return new UnreadableStatement(
    `the OFX holds no bank or card statement (STMTRS, CCSTMTRS)${unique.length ? `: it holds ${unique.join(', ')}` : ''}`,
    unique.map((h) => `holds ${h}`),
    { holds: unique },
  );
}

// ---------------------------------------------------------------------------------------------
// Amounts: read with the decimal mark the file's amounts decide, once for all of them.

interface Context {
  /** The amount ("-1234.50") of a TRNAMT or BALAMT, or null. */
  amount: (raw: string) => string | null;
  /** Said with an amount that could not be read, when the file's mark was not decided by its amounts. */
  hint: string;
  /** ofxDate in the company's zone. */
  date: (raw: string | undefined) => string | null;
  /** The last STMTTRN's number in the file. */
  line: number;
}

// No amount is longer ("-R 1 234 567 890 123,45 Dr" is 26): a longer text is not scanned at all.
const LONGEST = 40;

/**
 * The file's amount reader. OFX writes "a decimal point or comma" and no thousands separators
 * (OFX 2.x 3.2.9.1, 1.x 3.2.9): where the amounts cannot decide the mark (only "1,234"-like ones),
 * each lone mark is the amount's decimal, and "1,234" is three decimals (an error), never 1234.
 */
function amountReader(money: Element[]): Pick<Context, 'amount' | 'hint'> {
  const bodies = function* () {
    for (const m of money) {
      const text = m.text?.trim();
      // Most amounts of most files: "-123.45" needs no scan to say "decimal point".
      if (!text || text.length > LONGEST) continue;
      if (PLAIN_AMOUNT.test(text)) yield text.charCodeAt(0) === 0x2d ? text.slice(1) : text;
      else {
        const cell = scanMoney(text);
        if (cell) yield cell.body;
      }
    }
  };
  const decision = decideDecimalMark(bodies());
  if ('conflicting' in decision) {
    const problem = markProblem(decision);
    throw new UnreadableStatement(`the OFX's amounts cannot be read: ${problem}`, [problem]);
  }
  const fixed: DecimalMark | undefined = 'mark' in decision ? decision.mark : undefined;
  return {
    amount: (raw) => {
      if (raw.length > LONGEST) return null;
      if (fixed === '.' && PLAIN_AMOUNT.test(raw)) return raw;
      const cell = scanMoney(raw);
      return cell && readMoney(cell, fixed ?? (cell.body.includes(',') ? ',' : '.'));
    },
    hint: fixed ? '' : ' (OFX writes no thousands separator: its one mark is the decimal mark)',
  };
}

// ---------------------------------------------------------------------------------------------
// Statements and their lines.

function readStatement(st: Element, status: Status | undefined, context: Context): ParsedStatement {
  const lines: StatementLine[] = [];
  const errors: RowError[] = [];
  let from: string | undefined;
  let to: string | undefined;
  for (const list of st.children ?? []) {
    if (list.name !== 'BANKTRANLIST') continue;
    const start = context.date(textIn(list, 'DTSTART'));
    const end = context.date(textIn(list, 'DTEND'));
    if (start && (!from || start < from)) from = start;
    if (end && (!to || end > to)) to = end;
    for (const t of list.children ?? []) {
      if (t.name !== 'STMTTRN') continue;
      const row = readLine(t, ++context.line, context);
      if ('message' in row) errors.push(row);
      else lines.push(row);
    }
  }
  const out: ParsedStatement = { lines, errors };
  const notes: string[] = [];
  readBalances(st, out, context, notes);
  if (from) out.periodFrom = from;
  if (to) out.periodTo = to;
  const currency = textIn(st, 'CURDEF');
  if (currency) out.currency = currency;
  const hint = textIn(child(st, 'BANKACCTFROM') ?? child(st, 'CCACCTFROM'), 'ACCTID');
  if (hint) out.accountHint = hint;
  if (status?.severity === 'WARN') notes.push(`the bank warned with this statement (${describe(status)})`);
  if (notes.length) out.notes = notes;
  return out;
}

/** LEDGERBAL is the closing balance; the opening is worked out: the closing less the lines. */
function readBalances(st: Element, out: ParsedStatement, context: Context, notes: string[]): void {
  const raw = textIn(child(st, 'LEDGERBAL'), 'BALAMT');
  if (raw === undefined) return;
  const closing = context.amount(raw);
  if (closing == null) {
    notes.push(
      `the closing balance (LEDGERBAL) "${raw}" is not an amount${context.hint}: the statement has none`,
    );
    return;
  }
  let sum = 0n;
  for (const l of out.lines) sum += centsOf(l.amount);
  out.closingBalance = closing;
  out.openingBalance = amountOf(centsOf(closing) - sum);
  out.derivedBalance = 'opening';
  const missed = out.errors.length;
  if (missed)
    notes.push(
      `the opening balance is the closing less the lines read: ${missed === 1 ? 'the entry' : `the ${missed} entries`} ` +
        `that could not be read ${missed === 1 ? 'is' : 'are'} not in it`,
    );
}

function readLine(t: Element, line: number, context: Context): StatementLine | RowError {
  const f = fieldsOf(t);
  const date = context.date(f.DTPOSTED);
  if (!date)
    return {
      line,
      field: 'DTPOSTED',
      message: f.DTPOSTED ? `not an OFX date: "${f.DTPOSTED}"` : 'no DTPOSTED (booking date)',
    };
  if (f.TRNAMT === undefined) return { line, field: 'TRNAMT', message: 'no TRNAMT (amount)' };
  const amount = context.amount(f.TRNAMT);
  if (amount == null)
    return { line, field: 'TRNAMT', message: `not an amount: "${f.TRNAMT}"${context.hint}` };
  if (isZeroAmount(amount)) return { line, field: 'TRNAMT', message: `a zero amount: "${f.TRNAMT}"` };
  const name = f.NAME ?? f.PAYEE;
  return {
    line,
    date,
    valueDate: context.date(f.DTAVAIL) ?? context.date(f.DTUSER),
    amount,
    description: [name, f.MEMO].filter(Boolean).join(' ') || f.TRNTYPE || '',
    reference: f.CHECKNUM ?? f.REFNUM ?? null,
    payee: name ?? null,
    externalId: f.FITID ?? null,
  };
}

const FIELDS = [
  'DTPOSTED',
  'DTUSER',
  'DTAVAIL',
  'TRNAMT',
  'TRNTYPE',
  'FITID',
  'NAME',
  'MEMO',
  'CHECKNUM',
  'REFNUM',
] as const;
type Fields = Partial<Record<(typeof FIELDS)[number] | 'PAYEE', string>>;
const FIELD_NAMES = new Set<string>(FIELDS);

/**
 * A STMTTRN's leaves in one pass over its children (not one search per field: a file has
 * hundreds of thousands); PAYEE is its NAME. The first with text of each name counts.
 */
function fieldsOf(t: Element): Fields {
  const f: Record<string, string | undefined> = {};
  for (const k of t.children ?? []) {
    if (f[k.name] !== undefined) continue;
    if (k.name === 'PAYEE') f.PAYEE = textIn(k, 'NAME');
    else if (FIELD_NAMES.has(k.name)) f[k.name] = k.text?.trim() || undefined;
  }
  return f;
}

/** ofxDate in the zone, remembered per text through the file: a file repeats a few days. */
function dateReader(timeZone: string): Context['date'] {
  const seen = new Map<string, string | null>();
  return (raw) => {
    if (raw === undefined) return null;
    let day = seen.get(raw);
    if (day === undefined) {
      day = ofxDate(raw, timeZone);
      seen.set(raw, day);
    }
    return day;
  };
}

// ---------------------------------------------------------------------------------------------
// Dates.

const OFX_DATE = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?(?:\.\d{1,6})?)?\s*(?:\[([^\]]*)\])?$/;
const ZONE = /^([+-]?)(\d{1,2})(?:\.(\d{1,2}))?(?:\s*:.*)?$/s;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * An OFX date, YYYYMMDD[HHMMSS[.XXX]][[±H[.MM]:TZ]], as the day YYYY-MM-DD; null when it is not
 * one (00000000, a 13th month, 30 February, text after it).
 *
 * A date alone, or a time with no zone, is the day as written: OFX says such a time is GMT, but
 * South African banks write their own clock, and a booking must never move a day because the
 * bank left the zone out. A time with its zone is an instant, and its day is the company's
 * (timeZone): 20140104230000[0:GMT] is 5 January in Johannesburg.
 */
export function ofxDate(raw: string | undefined, timeZone: string): string | null {
  if (!raw) return null;
  const m = OFX_DATE.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && leap ? 29 : DAYS[mo - 1]!)) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return day;
  const [h, min, s] = [+m[4], +m[5]!, +(m[6] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return null;
  // A bracket that says no offset ("[EST]") leaves the time as written, like no bracket.
  const offset = m[7] === undefined ? null : offsetMinutes(m[7]);
  if (offset === null) return day;
  const instant = new Date(0);
  instant.setUTCFullYear(y, mo - 1, d);
  instant.setUTCHours(h, min - offset, s);
  return dayInZone(instant, timeZone);
}

/**
 * The offset of a zone bracket's "±H[.F]" in minutes, or null. Writers differ on the fraction:
 * ofxparse's "-5.5" is five and a half hours, ofxtools' "+5.30" and "+5.45" hours and minutes.
 * Offsets in the world fall on 0, 30 or 45 minutes: ".30" and ".45" are minutes, any other
 * fraction a part of an hour (".5", ".50", ".75").
 */
function offsetMinutes(bracket: string): number | null {
  const m = ZONE.exec(bracket.trim());
  if (!m) return null;
  const f = m[3];
  const fraction = !f ? 0 : f === '30' || f === '45' ? +f : Math.round(Number(`0.${f}`) * 60);
  const minutes = +m[2]! * 60 + fraction;
  if (minutes > 14 * 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}
