// OFX/QFX bank and card statements, as banks really write them.
//
// OFX 1.x is SGML: a header of KEY:VALUE lines, then elements whose leaves are never closed
// (<CODE>0<SEVERITY>INFO) and whose aggregates are. OFX 2.x is XML: a <?xml?> and an <?OFX?>
// header, every element closed. Banks also write the two mixed (a 2.x header, then 1.x's unclosed
// leaves). One tokenizer here reads all three into one tree, by SGML's rule, which holds for each:
// an element followed by text is a leaf, and ends at the next tag whatever that is; an element
// that holds elements is an aggregate, and must be closed. No XML parser is involved: it could not
// follow that rule, and it would expand what a file declares. Text decodes XML's five entities
// and character references only; a <!DOCTYPE> or <!ENTITY> is skipped, never processed, so nothing
// outside the file is ever read (no XXE). Comments are dropped, CDATA is text.
//
// A file must close: every aggregate opened is closed and </OFX> is there. A truncated download
// (the file ends mid-transaction) is refused whole, never read as the part that came.
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
import { decodeDeclared } from '../../../platform/files/decode-text.ts';
import type { StatementLine } from '../ingest.ts';
import { type DecimalMark, decideDecimalMark, markProblem, readMoney, scanMoney } from './amounts.ts';
import {
  amountOf,
  centsOf,
  isZeroAmount,
  type ParsedStatement,
  type ReadOptions,
  type RowError,
  UnreadableStatement,
} from './types.ts';

/** One element of the file: a leaf holds text, an aggregate holds elements. */
interface Element {
  /** Upper-cased: OFX tag names are case-insensitive. */
  name: string;
  /** Where its tag starts in the text, for messages. */
  at: number;
  /** A leaf's text, entities decoded, untrimmed; undefined for an aggregate or an empty leaf. */
  text?: string;
  children?: Element[];
}

/** The OFX statements of the file: one per STMTRS and CCSTMTRS, in the file's order. */
export function parseOfx(bytes: Uint8Array, options: ReadOptions): ParsedStatement[] {
  const text = decodeDeclared(bytes, declaredCharset(bytes));
  if (!/\S/.test(text)) throw new UnreadableStatement('the file is empty');
  const ofx = readTree(text);
  const found = survey(ofx);
  refuseErrors(found.failures);
  if (!found.statements.length) throw noStatement(ofx);
  const context: Context = { ...amountReader(found.money), date: dateReader(options.timeZone), line: 0 };
  return found.statements.map((s) => readStatement(s.node, s.status, context));
}

// ---------------------------------------------------------------------------------------------
// Character set: declared in the header, which is ASCII whatever the body is.

const LATIN1 = new TextDecoder('latin1');
const XML_ENCODING = /<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i;
const HEADER_ENCODING = /^[ \t]*ENCODING[ \t]*:[ \t]*(\S+)/im;
const HEADER_CHARSET = /^[ \t]*CHARSET[ \t]*:[ \t]*(\S+)/im;

/** The character set the file declares (a BOM, <?xml encoding?>, 1.x ENCODING and CHARSET), if any. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = LATIN1.decode(bytes.subarray(0, 2048));
  const xml = XML_ENCODING.exec(head);
  if (xml) return xml[1];
  const lt = head.indexOf('<');
  const header = lt < 0 ? head : head.slice(0, lt);
  // 1.x: ENCODING:UNICODE is UTF-8 (its CHARSET says CSUNICODE); ENCODING:USASCII takes CHARSET's code page.
  const encoding = HEADER_ENCODING.exec(header)?.[1];
  if (encoding && /^(UNICODE|UTF-?8)$/i.test(encoding)) return 'utf-8';
  return HEADER_CHARSET.exec(header)?.[1];
}

// ---------------------------------------------------------------------------------------------
// Tokenizer: tags, text, CDATA; comments, declarations and processing instructions skipped.

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const QUOTE = 0x22;
const APOS = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
// Letters, digits, '.', '_', '-' and ':' (START.TIME, ERROR.CODE in Amex's files).
const isNameChar = (c: number) =>
  isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x3a;

/** The <OFX> element of the text, as a tree; UnreadableStatement when there is none, or it does not close. */
function readTree(text: string): Element {
  const tree = new TreeBuilder(text);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) tree.text(i, end);
    if (lt < 0) break;
    i = markup(text, lt, tree);
  }
  return tree.end();
}

/** The markup that starts at a '<', handed to the tree; where the text goes on after it. */
function markup(text: string, lt: number, tree: TreeBuilder): number {
  const next = text.charCodeAt(lt + 1);
  if (next === BANG) {
    if (text.startsWith('<!--', lt)) return past(text, '-->', lt + 4, 'a comment', lt);
    if (text.startsWith('<![CDATA[', lt)) {
      const close = past(text, ']]>', lt + 9, 'a CDATA section', lt);
      tree.cdata(text.slice(lt + 9, close - 3), lt);
      return close;
    }
    return pastDeclaration(text, lt);
  }
  if (next === QUESTION) return past(text, '?>', lt + 2, 'a processing instruction', lt);
  const closing = next === SLASH;
  const start = closing ? lt + 2 : lt + 1;
  // A '<' that starts no tag ("A < B", banks do not always escape it) is text.
  if (!isNameStart(text.charCodeAt(start))) {
    tree.text(lt, lt + 1);
    return lt + 1;
  }
  let j = start;
  while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
  const gt = text.indexOf('>', j);
  if (gt < 0) throw cutShort(`it ends inside the tag ${text.slice(lt, j)}`, text, lt);
  const name = tree.nameOf(text.slice(start, j));
  if (closing) tree.close(name, lt);
  else {
    tree.open(name, lt);
    // <NAME/>: XML's empty element.
    if (text.charCodeAt(gt - 1) === SLASH) tree.close(name, lt);
  }
  return gt + 1;
}

/** Past the terminator of a comment, CDATA or processing instruction; a file that ends first is cut short. */
function past(text: string, terminator: string, from: number, what: string, lt: number): number {
  const at = text.indexOf(terminator, from);
  if (at < 0) throw cutShort(`it ends inside ${what} opened on line ${lineAt(text, lt)}`, text, lt);
  return at + terminator.length;
}

/**
 * Past a declaration (<!DOCTYPE OFX [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>): skipped whole,
 * its internal subset and quoted strings included, and nothing of it is ever used.
 */
function pastDeclaration(text: string, lt: number): number {
  let depth = 0;
  let quote = 0;
  for (let j = lt + 2; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === APOS) quote = c;
    else if (c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACKET) depth--;
    else if (c === GT && depth <= 0) return j + 1;
  }
  throw cutShort(`it ends inside a declaration (<!…) opened on line ${lineAt(text, lt)}`, text, lt);
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five entities and character references decoded; any other '&' (M&G, &nbsp;) kept as written. */
function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(
    ENTITY,
    (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
      if (named) return NAMED[named.toLowerCase()]!;
      const cp = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
      const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
      return valid ? String.fromCodePoint(cp) : whole;
    },
  );
}

// Aggregates of the OFX specification that hold what this reader reads (and their neighbours):
// the spec closes every one of them, so one left open is a broken file, not an empty leaf.
const AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'CREDITCARDMSGSRSV1',
  'INVSTMTMSGSRSV1',
  'STMTTRNRS',
  'CCSTMTTRNRS',
  'INVSTMTTRNRS',
  'STMTRS',
  'CCSTMTRS',
  'INVSTMTRS',
  'BANKACCTFROM',
  'BANKACCTTO',
  'CCACCTFROM',
  'CCACCTTO',
  'BANKTRANLIST',
  'STMTTRN',
  'PAYEE',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'CURRENCY',
  'ORIGCURRENCY',
]);

/**
 * The tree, built as the tokens come (no token list: a 60 MB file would hold millions). Until
 * <OFX> opens everything is header and skipped; after </OFX> only blank text may follow.
 */
class TreeBuilder {
  readonly source: string;
  private readonly stack: Element[] = [];
  private root: Element | undefined;
  private done = false;
  /** Whether the top of the stack is a leaf with text: it ends at the next tag. */
  private leaf = false;
  /** The open leaf's text so far (text, CDATA and text again when a comment or CDATA splits it). */
  private readonly parts: string[] = [];
  private readonly names = new Map<string, string>();

  constructor(source: string) {
    this.source = source;
  }

  /** The tag's name upper-cased, once per spelling (a file repeats a few names millions of times). */
  nameOf(raw: string): string {
    let name = this.names.get(raw);
    if (name === undefined) {
      name = raw.toUpperCase();
      this.names.set(raw, name);
    }
    return name;
  }

  open(name: string, at: number): void {
    if (this.done) throw this.goesOn(at);
    if (!this.root && name !== 'OFX') return;
    this.endLeaf();
    const el: Element = { name, at };
    const parent = this.stack.at(-1);
    if (!parent) this.root = el;
    else if (parent.children) parent.children.push(el);
    else parent.children = [el];
    this.stack.push(el);
  }

  close(name: string, at: number): void {
    if (this.done) throw this.goesOn(at);
    if (!this.root) return;
    if (this.leaf && this.stack.at(-1)!.name === name) {
      this.endLeaf();
      return;
    }
    this.endLeaf();
    let k = this.stack.length - 1;
    while (k >= 0 && this.stack[k]!.name !== name) k--;
    if (k < 0)
      throw new UnreadableStatement(
        `the OFX is not well formed: </${name}> on line ${lineAt(this.source, at)} closes no element that is open`,
      );
    this.leftOpen(k, name, at);
    this.stack.length = k;
    if (k === 0) this.done = true;
  }

  text(from: number, to: number): void {
    if (!this.root) return; // the 1.x header's KEY:VALUE lines
    if (this.done) {
      if (!blank(this.source, from, to)) throw this.goesOn(from);
      return;
    }
    if (this.leaf) {
      this.parts.push(decodeEntities(this.source.slice(from, to)));
      return;
    }
    const top = this.stack.at(-1)!;
    // Indentation between elements, or stray text among them: no element's text.
    if (top.children || blank(this.source, from, to)) return;
    this.startLeaf(decodeEntities(this.source.slice(from, to)));
  }

  cdata(content: string, at: number): void {
    if (!this.root) return;
    if (this.done) throw this.goesOn(at);
    if (this.leaf) this.parts.push(content);
    else if (!this.stack.at(-1)!.children) this.startLeaf(content);
  }

  /** The OFX element, once the whole file is read. */
  end(): Element {
    if (!this.root) throw new UnreadableStatement('not an OFX file: no <OFX> element');
    if (!this.done) throw this.unclosedAtEnd();
    return this.root;
  }

  private startLeaf(text: string): void {
    this.parts.length = 0;
    this.parts.push(text);
    this.leaf = true;
  }

  /** The open leaf's text set (a join only when it came in parts), and the leaf closed. */
  private endLeaf(): void {
    if (!this.leaf) return;
    const leaf = this.stack.pop()!;
    leaf.text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.leaf = false;
  }

  /**
   * The elements above stack[k], still open when it closes. OFX closes every aggregate, so each
   * was a leaf with no text (1.x's "<FITID>" alone on its line), and what followed it belongs to
   * stack[k], in order; unless it is an aggregate by name, or held one: then the file is broken.
   * Each one's last child is the next one open, so they flatten in one pass (not one per level:
   * a file of a million unclosed elements would be quadratic).
   */
  private leftOpen(k: number, closer: string, at: number): void {
    const target = this.stack[k]!;
    const top = this.stack.length - 1;
    for (let j = k + 1; j <= top; j++) {
      const el = this.stack[j]!;
      const kids = el.children ?? [];
      const own = j < top ? kids.length - 1 : kids.length;
      let held = false;
      for (let i = 0; i < own && !held; i++) held = kids[i]!.children !== undefined;
      if (held || AGGREGATES.has(el.name))
        throw new UnreadableStatement(
          `the OFX is not well formed: <${el.name}> opened on line ${lineAt(this.source, el.at)} ` +
            `is not closed before </${closer}> on line ${lineAt(this.source, at)}`,
        );
      for (const kid of kids) target.children!.push(kid);
      el.children = undefined;
    }
  }

  /** The file ended inside <OFX>: the innermost element that must close (an aggregate) is named. */
  private unclosedAtEnd(): UnreadableStatement {
    this.endLeaf();
    let k = this.stack.length - 1;
    while (k > 0 && !this.stack[k]!.children && !AGGREGATES.has(this.stack[k]!.name)) k--;
    const el = this.stack[k]!;
    const path = this.stack.slice(0, k + 1).map((e) => e.name);
    // A file of thousands of nested elements is said in a line: its start and its end.
    if (path.length > 12) path.splice(6, path.length - 12, '…');
    return new UnreadableStatement(
      `the file was cut short: <${el.name}> opened on line ${lineAt(this.source, el.at)} is never closed`,
      [`open when the file ends: ${path.join(' > ')}`, 'the file must end with </OFX>: download it again'],
      { unclosed: el.name, line: lineAt(this.source, el.at) },
    );
  }

  private goesOn(at: number): UnreadableStatement {
    return new UnreadableStatement(
      `the OFX is not well formed: the file goes on after </OFX> (line ${lineAt(this.source, at)})`,
    );
  }
}

/** Whether the text between from and to is blank (spaces, line ends, and controls such as NUL or ^Z). */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 0x20) return false;
  return true;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function cutShort(how: string, text: string, at: number): UnreadableStatement {
  return new UnreadableStatement(`the file was cut short: ${how}`, ['download it again'], {
    line: lineAt(text, at),
  });
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

const child = (el: Element | undefined, name: string): Element | undefined => {
  const kids = el?.children;
  if (kids) for (const k of kids) if (k.name === name) return k;
  return undefined;
};

/** A leaf's text, trimmed; an empty leaf (<NAME></NAME>, 1.x's <FITID> alone) is absent. */
const textIn = (el: Element | undefined, name: string): string | undefined =>
  child(el, name)?.text?.trim() || undefined;

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

/** An amount already in the one spelling readMoney answers with a decimal point (two decimals, sign in front). */
const PLAIN = /^-?(0|[1-9]\d*)\.\d\d$/;
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
      if (PLAIN.test(text)) yield text.charCodeAt(0) === 0x2d ? text.slice(1) : text;
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
      if (fixed === '.' && PLAIN.test(raw)) return raw;
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
  return dayAt(instant.getTime(), timeZone);
}

const QUARTER_HOUR = 15 * 60_000;
const quarterDays = new Map<string, string>();

/**
 * dayInZone, remembered per quarter hour: zones' offsets, and the moments they change, fall on
 * quarter hours, so a quarter hour is all one day in any zone. (Intl is slow; a file with a time on
 * every line repeats its quarter hours.) Bounded: a long-running server reads many files.
 */
function dayAt(ms: number, timeZone: string): string {
  const key = `${timeZone} ${Math.floor(ms / QUARTER_HOUR)}`;
  let day = quarterDays.get(key);
  if (day === undefined) {
    if (quarterDays.size >= 20_000) quarterDays.clear();
    day = dayInZone(new Date(ms), timeZone);
    quarterDays.set(key, day);
  }
  return day;
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
