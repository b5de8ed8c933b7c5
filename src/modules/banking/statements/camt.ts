// CAMT.053 (ISO 20022 bank-to-customer statement, any version: element names read without their
// namespace prefix) as banks really write it.
//
// A file holds one or more statements (Stmt: a day, an account), each read on its own: its account
// (IBAN or other id), currency, balances, period and entries. An entry (Ntry) is a booking on the
// account: its amount (Amt, never signed) and direction (CdtDbtInd: CRDT in, DBIT out, whatever
// RvslInd says), its booking and value dates, and details of the transactions it books (TxDtls:
// the other party, the remittance text, the references). A bank that books a batch once (a debit
// order run, a bulk credit) lists each transaction of it in TxDtls: the entry becomes one line per
// transaction when their amounts add up to the entry's, so that each can be matched to its
// invoice; otherwise it stays one line, and the statement says why.
//
// The XML is read by the small reader below rather than fast-xml-parser. On the two-core machine
// this was written on, fast-xml-parser took 5 to 7 s over a 50,000-entry statement (20 MB), and its
// validator 1.2 to 1.9 s more, without which it takes mismatched tags and a file cut short without
// a word; this reader takes about one second over 28 MB. It checks what a statement needs of XML
// (tags that match, a file that ends where its XML does), decodes only the five predefined
// entities and character references, and refuses a DOCTYPE, so that no entity a file declares is
// ever expanded or fetched (no XXE, no entity bombs). Entries are read as the reader ends each one
// and then dropped, so a large statement is never held whole as a tree.
import { dayInZone } from '../../../platform/dates/zone.ts';
import { decodeDeclared } from '../../../platform/files/decode-text.ts';
import type { StatementLine } from '../ingest.ts';
import { moneyText } from './amounts.ts';
import {
  amountOf,
  centsOf,
  type ParsedStatement,
  type ReadOptions,
  type RowError,
  UnreadableStatement,
} from './types.ts';

// ---------------------------------------------------------------------------------------------
// XML: elements with their local names, raw attributes, children and text.

class El {
  readonly name: string;
  /** The attributes as written ( Ccy="ZAR"), read on demand: only Amt's Ccy is ever asked for. */
  readonly attrs: string;
  /** Shared by every leaf until it has a child: a million empty arrays less for the collector. */
  kids: El[] = NONE;
  text = '';
  constructor(name: string, attrs: string) {
    this.name = name;
    this.attrs = attrs;
  }
}
const NONE: El[] = [];

// What a '<' starts, where it is not a plain <Tag> or </Tag> (read by hand, the common case): a
// tag with attributes (quoted, no '<' in them) or an empty-element tag, a comment, a CDATA section,
// a processing instruction (the XML declaration), or a DOCTYPE.
const TOKEN =
  /<(\/?)([A-Za-z_\u0080-\uffff][\w.:\u0080-\uffff-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE/y;
const SLASH = 0x2f;
const GT = 0x3e;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
const isNameChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x3a) ||
  c === 0x5f ||
  c === 0x2d ||
  c === 0x2e ||
  c >= 0x80;
function blank(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** Stands in the stack for an element whose subtree is checked but not kept. */
const SKIPPED = new El('', '');

/**
 * The document's root element; UnreadableStatement when the text is not well-formed XML. Elements
 * named in skip are checked but not kept (nor anything in them). onEnd is told of each element
 * kept as it ends: answering true drops it from the tree (it has been read), so that a
 * statement's entries are read as they come and never all held at once.
 */
function readXml(s: string, skip: ReadonlySet<string>, onEnd: (el: El, parent: El) => boolean): El {
  const top = new El('', '');
  // The open elements, their names as written (prefix and all: an end tag must repeat it) and where.
  const open: El[] = [top];
  const openTags: string[] = [''];
  const openAt: number[] = [0];
  let cur = top;
  const add = (tag: string, attrs: string, at: number, empty: boolean) => {
    if (cur === top && top.kids.length) throw malformed(s, at, `a second root element <${tag}>`);
    const name = tag.slice(tag.indexOf(':') + 1);
    let el = SKIPPED;
    if (cur !== SKIPPED && !skip.has(name)) {
      el = new El(name, attrs);
      if (cur.kids === NONE) cur.kids = [el];
      else cur.kids.push(el);
    }
    if (empty) return;
    open.push(el);
    openTags.push(tag);
    openAt.push(at);
    cur = el;
  };
  const close = () => {
    const el = open.pop()!;
    openTags.pop();
    openAt.pop();
    cur = open.at(-1)!;
    // It is its parent's last child: its own children are inside it.
    if (el !== SKIPPED && onEnd(el, cur)) cur.kids.pop();
  };
  let i = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    const end = lt < 0 ? s.length : lt;
    if (end > i && !blank(s, i, end)) {
      if (cur === top) throw malformed(s, i, 'text outside the root element');
      if (cur !== SKIPPED) cur.text += decodeEntities(s.slice(i, end));
    }
    if (lt < 0) break;
    const c = s.charCodeAt(lt + 1);
    if (c === SLASH) {
      // An end tag: the name of the element open, then '>'.
      const tag = openTags.at(-1)!;
      let j = lt + 2 + tag.length;
      if (tag && s.startsWith(tag, lt + 2)) while (isSpace(s.charCodeAt(j))) j++;
      if (!tag || !s.startsWith(tag, lt + 2) || s.charCodeAt(j) !== GT) {
        if (s.indexOf('>', lt) < 0) throw truncated(s, tag, openAt.at(-1));
        const written = /<\/\s*([^\s>]*)/y;
        written.lastIndex = lt;
        throw malformed(s, lt, `</${written.exec(s)?.[1]}> closes <${tag || 'nothing'}>`);
      }
      close();
      i = j + 1;
      continue;
    }
    if (isNameChar(c) && !(c >= 0x30 && c <= 0x3a) && c !== 0x2d && c !== 0x2e) {
      let j = lt + 2;
      while (isNameChar(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === GT) {
        add(s.slice(lt + 1, j), '', lt, false);
        i = j + 1;
        continue;
      }
    }
    TOKEN.lastIndex = lt;
    const m = TOKEN.exec(s);
    if (!m) {
      if (s.indexOf('>', lt) < 0) throw truncated(s, openTags.at(-1), openAt.at(-1));
      throw malformed(s, lt, `"${s.slice(lt, lt + 30)}" is not a tag`);
    }
    i = TOKEN.lastIndex;
    const [token, slash, tag, attrs, empty, cdata] = m;
    if (tag) {
      // End tags are read above; one with attributes or a '/' is not one.
      if (slash) throw malformed(s, lt, `"${token}" is not an end tag`);
      add(tag, attrs!, lt, !!empty);
    } else if (cdata !== undefined) {
      if (cur === top) throw malformed(s, lt, 'a CDATA section outside the root element');
      if (cur !== SKIPPED) cur.text += cdata;
    } else if (token === '<!DOCTYPE') {
      throw new UnreadableStatement(
        'the file declares a DOCTYPE, which no bank statement has: it is not read (its entities could ' +
          'read other files or expand without end)',
      );
    }
  }
  if (open.length > 1) throw truncated(s, openTags.at(-1), openAt.at(-1));
  if (!top.kids[0]) throw new UnreadableStatement('not XML: the file has no element');
  return top.kids[0];
}

const lineAt = (s: string, pos: number) => {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0 && i < pos; i = s.indexOf('\n', i + 1)) n++;
  return n;
};
const malformed = (s: string, pos: number, what: string) =>
  new UnreadableStatement(`the XML is malformed at line ${lineAt(s, pos)}: ${what}`);
const truncated = (s: string, tag: string | undefined, at: number | undefined) =>
  new UnreadableStatement(
    `the file ends inside <${tag}> (opened at line ${lineAt(s, at ?? 0)}): it looks cut short; ` +
      'download the statement again',
  );

const ENTITY = /&(?:#(\d+)|#x([\da-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const PREDEFINED = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);
/** The five predefined entities and character references; any other '&' stays as written. */
function decodeEntities(t: string): string {
  if (!t.includes('&')) return t;
  return t.replace(
    ENTITY,
    (all, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
      if (named) return PREDEFINED.get(named)!;
      const cp = dec ? Number(dec) : Number.parseInt(hex!, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
    },
  );
}

const kid = (el: El | undefined, name: string): El | undefined => el?.kids.find((k) => k.name === name);
const kidsOf = (el: El | undefined, name: string): El[] => el?.kids.filter((k) => k.name === name) ?? [];
const at = (el: El | undefined, ...path: string[]): El | undefined =>
  path.reduce<El | undefined>((e, name) => kid(e, name), el);
const textOf = (el: El | undefined): string | undefined => el?.text.trim() || undefined;
const textAt = (el: El | undefined, ...path: string[]) => textOf(at(el, ...path));
const CCY = /(?:^|\s)Ccy\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const currencyOf = (amt: El | undefined): string | undefined => {
  const m = amt && CCY.exec(amt.attrs);
  return m ? (m[1] ?? m[2])?.trim() || undefined : undefined;
};

// ---------------------------------------------------------------------------------------------
// The file: its character set, which CAMT message it is.

export type CamtKind = 'camt.052' | 'camt.053' | 'camt.054';

const MESSAGES = new Map<string, CamtKind>([
  ['BkToCstmrAcctRpt', 'camt.052'],
  ['BkToCstmrStmt', 'camt.053'],
  ['BkToCstmrDbtCdtNtfctn', 'camt.054'],
]);
const KIND_TAG = /<(?:[\w.-]+:)?(BkToCstmrAcctRpt|BkToCstmrStmt|BkToCstmrDbtCdtNtfctn)[\s>/]/;
const KIND_NS = /(?:urn:iso:std:iso:20022:tech:xsd:|ISO:)(camt\.05[234])\./;
const ISO_MESSAGE = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})/;
/** How much of a file camtKind reads: the message element follows the root's start tag. */
const HEAD = 65536;

/** Which CAMT message a file is (from its message element, else its namespace), or null. */
export function camtKind(input: Uint8Array | string): CamtKind | null {
  const head = typeof input === 'string' ? input.slice(0, HEAD) : headOf(input);
  const tag = KIND_TAG.exec(head)?.[1];
  if (tag) return MESSAGES.get(tag)!;
  return (KIND_NS.exec(head)?.[1] as CamtKind | undefined) ?? null;
}

/** The first bytes as text: the names and namespaces asked for are ASCII in any 8-bit set. */
function headOf(bytes: Uint8Array): string {
  const utf16 = utf16Of(bytes);
  return new TextDecoder(utf16 ?? 'latin1').decode(bytes.subarray(0, HEAD));
}

const utf16Of = (b: Uint8Array): 'utf-16le' | 'utf-16be' | undefined =>
  b[0] === 0xff && b[1] === 0xfe ? 'utf-16le' : b[0] === 0xfe && b[1] === 0xff ? 'utf-16be' : undefined;

const DECLARED = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([\w.:-]+)["']/;

/** The text of the file, in the character set its XML declaration names (UTF-8 when none). */
function xmlText(bytes: Uint8Array): string {
  if (!bytes.length) throw new UnreadableStatement('the file is empty');
  const sig = new TextDecoder('latin1').decode(bytes.subarray(0, 5));
  if (sig.startsWith('PK\x03\x04'))
    throw new UnreadableStatement(
      'a ZIP archive, not XML: unpack it and upload the camt.053 statements in it',
    );
  if (sig === '%PDF-')
    throw new UnreadableStatement('a PDF, not XML: download the statement as CAMT.053 (XML)');
  const utf16 = utf16Of(bytes);
  let text: string;
  if (utf16) text = new TextDecoder(utf16).decode(bytes);
  else {
    // The declaration is ASCII whatever the set; a UTF-16 one read as 8-bit bytes cannot be right.
    const declared = DECLARED.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1];
    text = decodeDeclared(bytes, /^utf-?16/i.test(declared ?? '') ? undefined : declared);
  }
  const start = text.search(/[^\s\uFEFF\0]/);
  if (start < 0) throw new UnreadableStatement('the file is empty');
  if (text[start] !== '<')
    throw new UnreadableStatement(
      `not XML: a CAMT statement is an XML file, and this one begins "${text.slice(start, start + 20)}"`,
    );
  // Some systems pad a file with NULs after its end.
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 0) end--;
  return text.slice(start, end);
}

/** The message element (BkToCstmrStmt, …): the root's child, or the root itself, or in an envelope. */
function messageOf(root: El): El | undefined {
  let level = [root];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const found = level.find((el) => MESSAGES.has(el.name));
    if (found) return found;
    level = level.flatMap((el) => el.kids);
  }
  return undefined;
}

function notCamt(root: El): UnreadableStatement {
  const iso = ISO_MESSAGE.exec(root.attrs)?.[1];
  if (iso) return new UnreadableStatement(`an ISO 20022 ${iso} message, not a camt.053 bank statement`);
  return new UnreadableStatement(`not a CAMT bank statement: an XML file whose root is <${root.name}>`);
}

// Parts of an entry this reader never looks at, often most of it (banks' codes, agents with their
// addresses, charges): not kept. Named here only if no element of the same name is ever read.
const UNREAD = new Set(['BkTxCd', 'RltdAgts', 'RltdDts', 'RtrInf', 'Chrgs', 'Tax', 'CardTx', 'SplmtryData']);

/**
 * The statements of a CAMT.053 file (one per Stmt, in the file's order). A camt.052 (intraday)
 * or camt.054 (notifications) is refused by name: neither is the day's booked statement.
 */
export function parseCamt(bytes: Uint8Array, options: ReadOptions): ParsedStatement[] {
  const readings = new Map<El, Reading>();
  const reading = (stmt: El) => {
    const known = readings.get(stmt);
    if (known) return known;
    const r: Reading = { zone: options.timeZone, lines: [], errors: [], notes: [], total: 0n, moved: 0 };
    readings.set(stmt, r);
    return r;
  };
  // Entries are numbered through the whole file, so that an error's number finds its entry.
  let entries = 0;
  const root = readXml(xmlText(bytes), UNREAD, (el, parent) => {
    if (el.name !== 'Ntry' || parent.name !== 'Stmt') return false;
    readEntry(el, ++entries, reading(parent));
    return true;
  });
  const message = messageOf(root);
  const kind = message ? MESSAGES.get(message.name) : (KIND_NS.exec(root.attrs)?.[1] as CamtKind | undefined);
  if (kind === 'camt.052')
    throw new UnreadableStatement(
      'a camt.052 intraday account report: its entries can still change; upload the end-of-day camt.053 statement',
    );
  if (kind === 'camt.054')
    throw new UnreadableStatement(
      'a camt.054 debit/credit notification (single bookings, often the details of a batch the statement ' +
        'books once): upload the camt.053 statement',
    );
  if (kind !== 'camt.053') throw notCamt(root);
  const statements = kidsOf(message, 'Stmt');
  if (!statements.length) throw new UnreadableStatement('a camt.053 with no statement in it (no Stmt)');
  return statements.map((s) => readStatement(s, reading(s)));
}

// ---------------------------------------------------------------------------------------------
// A statement.

interface Reading {
  zone: string;
  lines: StatementLine[];
  errors: RowError[];
  notes: string[];
  /** The lines' total, in cents: what derives a missing balance. */
  total: bigint;
  /** Booking times whose day in the zone is not the day written: how many, and the first. */
  moved: number;
  firstMoved?: string;
  /** The first entry's currency: the statement's when nothing else says. */
  entryCurrency?: string | undefined;
}

/** A statement's own figures, around the entries already read into r. */
function readStatement(stmt: El, r: Reading): ParsedStatement {
  const zone = r.zone;
  if (r.moved)
    r.notes.push(
      `${r.moved} booking time(s) fall on another day in ${zone} than the one written ` +
        `(${r.firstMoved}): the day in ${zone} is taken`,
    );
  const out: ParsedStatement = { lines: r.lines, errors: r.errors };
  const acct = kid(stmt, 'Acct');
  const hint = textAt(acct, 'Id', 'IBAN') ?? textAt(acct, 'Id', 'Othr', 'Id');
  if (hint) out.accountHint = hint;
  const currency = textAt(acct, 'Ccy') ?? currencyOf(at(stmt, 'Bal', 'Amt')) ?? r.entryCurrency;
  if (currency) out.currency = currency;
  const reference = textAt(stmt, 'Id');
  if (reference) out.reference = reference;
  setBalances(out, stmt, r);
  setPeriod(out, stmt, r);
  if (r.notes.length) out.notes = r.notes;
  return out;
}

/**
 * Opening: OPBD, else PRCD (the previous day's closing); closing: CLBD. A statement with neither
 * but interim balances (ITBD) opens with the first and closes with the last. The one missing is
 * worked out from the other and the lines, and said to be.
 */
function setBalances(out: ParsedStatement, stmt: El, r: Reading): void {
  const found = new Map<string, bigint[]>();
  for (const bal of kidsOf(stmt, 'Bal')) {
    const code = textAt(bal, 'Tp', 'CdOrPrtry', 'Cd') ?? textAt(bal, 'Tp', 'CdOrPrtry', 'Prtry');
    if (!code || !BALANCES.has(code)) continue;
    const raw = textAt(bal, 'Amt');
    const cents = unsignedCents(raw);
    const sign = SIGNS.get(textAt(bal, 'CdtDbtInd') ?? '');
    if (typeof cents === 'string' || !sign) {
      const why = typeof cents === 'string' ? cents : 'no CdtDbtInd CRDT or DBIT';
      r.notes.push(`the ${code} balance could not be read (${why}): not used`);
      continue;
    }
    found.set(code, [...(found.get(code) ?? []), cents * sign]);
  }
  let opening = found.get('OPBD')?.[0] ?? found.get('PRCD')?.[0];
  let closing = found.get('CLBD')?.at(-1);
  const interim = found.get('ITBD') ?? [];
  if (opening == null && closing == null && interim.length > 1) {
    opening = interim[0];
    closing = interim.at(-1);
  } else if (opening == null && closing == null && interim.length === 1) {
    r.notes.push(
      `one interim balance (ITBD) of ${amountOf(interim[0]!)}: whether it opens or closes the ` +
        'statement is not known, so it is not used',
    );
  }
  if (opening != null && closing == null) {
    closing = opening + r.total;
    out.derivedBalance = 'closing';
  } else if (closing != null && opening == null) {
    opening = closing - r.total;
    out.derivedBalance = 'opening';
  }
  if (opening != null) out.openingBalance = amountOf(opening);
  if (closing != null) out.closingBalance = amountOf(closing);
}
const BALANCES = new Set(['OPBD', 'PRCD', 'CLBD', 'ITBD']);

/**
 * FrToDt's days where its times carry a zone (instants: their days in the zone); else the lines'
 * first and last booking days; else the days written.
 */
function setPeriod(out: ParsedStatement, stmt: El, r: Reading): void {
  const period = kid(stmt, 'FrToDt');
  const from = readDay(textAt(period, 'FrDtTm'), r.zone);
  const to = readDay(textAt(period, 'ToDtTm'), r.zone);
  let first: string | undefined;
  let last: string | undefined;
  for (const l of r.lines) {
    if (!first || l.date < first) first = l.date;
    if (!last || l.date > last) last = l.date;
  }
  const periodFrom = (from?.zoned ? from.day : undefined) ?? first ?? from?.day;
  const periodTo = (to?.zoned ? to.day : undefined) ?? last ?? to?.day;
  if (periodFrom) out.periodFrom = periodFrom;
  if (periodTo) out.periodTo = periodTo;
}

// ---------------------------------------------------------------------------------------------
// Entries.

const SIGNS = new Map([
  ['CRDT', 1n],
  ['DBIT', -1n],
]);

/** An entry's lines into r (one, or one per transaction of a batch), or its error. */
function readEntry(e: El, no: number, r: Reading): void {
  r.entryCurrency ??= currencyOf(kid(e, 'Amt'));
  // A pending entry (PDNG; <Sts><Cd>PDNG</Cd></Sts> from version 8) is not booked yet.
  if ((textAt(e, 'Sts') ?? textAt(e, 'Sts', 'Cd')) === 'PDNG') return;
  const rawDate = kid(e, 'BookgDt');
  const booked = dayOf(rawDate, r.zone);
  if (!booked) {
    const raw = textAt(rawDate, 'Dt') ?? textAt(rawDate, 'DtTm');
    r.errors.push({ line: no, field: 'BookgDt', message: raw ? `not a date: "${raw}"` : 'no booking date' });
    return;
  }
  const rawAmount = textAt(e, 'Amt');
  const cents = unsignedCents(rawAmount);
  if (typeof cents === 'string' || cents === 0n) {
    const message = cents === 0n ? 'a zero amount: not a booking' : cents;
    r.errors.push({ line: no, field: 'Amt', message });
    return;
  }
  const indicator = textAt(e, 'CdtDbtInd');
  const sign = SIGNS.get(indicator ?? '');
  if (!sign) {
    const message = indicator ? `"${indicator}" is neither CRDT nor DBIT` : 'no CdtDbtInd (CRDT or DBIT)';
    r.errors.push({ line: no, field: 'CdtDbtInd', message });
    return;
  }
  if (booked.moved) r.firstMoved ??= `entry ${no}: ${booked.written} is ${booked.day}`;
  if (booked.moved) r.moved++;
  const amount = cents * sign;
  r.total += amount;
  const base = { line: no, date: booked.day, valueDate: dayOf(kid(e, 'ValDt'), r.zone)?.day ?? null };
  const txs = kidsOf(e, 'NtryDtls').flatMap((d) => kidsOf(d, 'TxDtls'));
  if (txs.length > 1) {
    const split = splitBatch(e, txs, amount, indicator!);
    if (typeof split === 'string') {
      r.notes.push(`entry ${no}: ${split}: kept as one line`);
      r.lines.push({ ...base, amount: amountOf(amount), ...batchDetails(e, txs.length) });
      return;
    }
    const ref = (tx: El) => textAt(tx, 'Refs', 'AcctSvcrRef') ?? textAt(e, 'AcctSvcrRef');
    for (const [k, part] of split.entries()) {
      const externalId = ref(part.tx);
      r.lines.push({
        ...base,
        amount: amountOf(part.cents),
        ...details(e, part.tx, part.cents < 0n),
        // Informational only (ingest never merges on it), but one per line.
        externalId: externalId ? `${externalId}/${k + 1}` : null,
      });
    }
    return;
  }
  r.lines.push({
    ...base,
    amount: amountOf(amount),
    ...details(e, txs[0], amount < 0n),
    externalId: textAt(txs[0], 'Refs', 'AcctSvcrRef') ?? textAt(e, 'AcctSvcrRef') ?? null,
  });
}

/**
 * A batch's transactions as signed amounts, when each has one (Amt, else AmtDtls/TxAmt/Amt, in
 * the entry's currency; its own CdtDbtInd, else the entry's) and together they are the entry's
 * amount to the cent; else why not.
 */
function splitBatch(
  e: El,
  txs: El[],
  entry: bigint,
  indicator: string,
): { cents: bigint; tx: El }[] | string {
  const currency = currencyOf(kid(e, 'Amt'));
  const parts: { cents: bigint; tx: El }[] = [];
  let sum = 0n;
  for (const [k, tx] of txs.entries()) {
    const which = `transaction detail ${k + 1} of ${txs.length}`;
    const amt = kid(tx, 'Amt') ?? at(tx, 'AmtDtls', 'TxAmt', 'Amt');
    if (!amt) return `${which} has no amount`;
    const own = currencyOf(amt);
    if (currency && own && own !== currency) return `${which} is in ${own}, the entry in ${currency}`;
    const cents = unsignedCents(textOf(amt));
    if (typeof cents === 'string') return `${which}: ${cents}`;
    if (cents === 0n) return `${which} has a zero amount`;
    const sign = SIGNS.get(textAt(tx, 'CdtDbtInd') ?? indicator);
    if (!sign) return `${which}: its CdtDbtInd is neither CRDT nor DBIT`;
    parts.push({ cents: cents * sign, tx });
    sum += cents * sign;
  }
  if (sum !== entry)
    return `its ${txs.length} transaction details add up to ${amountOf(sum)}, not the entry's ${amountOf(entry)}`;
  return parts;
}

type Details = Pick<StatementLine, 'description' | 'reference' | 'payee'>;

/**
 * A line's words from its transaction: the other party (the debtor of money in, the creditor of
 * money out), the remittance text, the references. Reference: the structured creditor reference
 * (ISR, RF), else the end-to-end id the payer gave, else the bank's entry reference.
 */
function details(e: El, tx: El | undefined, out: boolean): Details {
  const remittance = kid(tx, 'RmtInf');
  const ustrd = kidsOf(remittance, 'Ustrd')
    .map(textOf)
    .filter((t): t is string => !!t);
  const structured = kidsOf(remittance, 'Strd')
    .map((s) => textAt(s, 'CdtrRefInf', 'Ref'))
    .find((t) => t);
  const endToEnd = textAt(tx, 'Refs', 'EndToEndId');
  const reference =
    structured ??
    (endToEnd && endToEnd.toUpperCase() !== 'NOTPROVIDED' ? endToEnd : undefined) ??
    textAt(e, 'NtryRef') ??
    null;
  const payee = partyName(at(tx, 'RltdPties', out ? 'Cdtr' : 'Dbtr'));
  const info = textAt(tx, 'AddtlTxInf') ?? textAt(e, 'AddtlNtryInf');
  // The structured reference is the line's reference; in the words too when there are no others.
  const words = [payee, ...ustrd, info, ustrd.length ? undefined : structured];
  const description = [...new Set(words.filter((w): w is string => !!w))].join(' ');
  return { description: description || reference || '', reference, payee: payee ?? null };
}

/** A party's name (Nm, or from version 8 Pty/Nm); without one, the first line of its address. */
function partyName(party: El | undefined): string | undefined {
  const p = kid(party, 'Pty') ?? party;
  return textAt(p, 'Nm') ?? textAt(p, 'PstlAdr', 'AdrLine');
}

/** A batch kept as one line: no one party or reference is the whole entry's. */
function batchDetails(e: El, count: number): Details & { externalId: string | null } {
  const reference = textAt(e, 'NtryDtls', 'Btch', 'PmtInfId') ?? textAt(e, 'NtryRef') ?? null;
  return {
    description: textAt(e, 'AddtlNtryInf') ?? `batch of ${count} transactions`,
    reference,
    payee: null,
    externalId: textAt(e, 'AcctSvcrRef') ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Amounts and days.

// An XML decimal as CAMT writes amounts: unsigned (CdtDbtInd gives the direction), a point.
const XML_DECIMAL = /^\+?\d+(?:\.\d+)?$/;

/** An unsigned amount in cents, or what is wrong with it. */
function unsignedCents(raw: string | undefined): bigint | string {
  if (raw == null) return 'no amount';
  const a = XML_DECIMAL.test(raw) ? moneyText(raw.replace(/^\+/, ''), '.') : null;
  return a == null ? `not an amount: "${raw}"` : centsOf(a);
}

const DATE = /^\d{4}-\d{2}-\d{2}(?:Z|[+-]\d{2}:\d{2})?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether a YYYY-MM-DD is a day of the calendar (not 30 February); most are seen without a Date. */
function realDate(ymd: string): boolean {
  const m = +ymd.slice(5, 7);
  const d = +ymd.slice(8, 10);
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= 28 || d <= new Date(Date.UTC(+ymd.slice(0, 4), m, 0)).getUTCDate();
}

interface Day {
  day: string;
  /** Written as an instant (a time with its zone): the day is the zone's. */
  zoned: boolean;
  /** The zone's day is not the day written. */
  moved: boolean;
  written: string;
}

/**
 * A CAMT date (a date, even one written with a zone, is the date written) or date-time: with a
 * zone (Z, +02:00) an instant, whose day in the zone is taken; without, the local time of the
 * bank, whose date is taken as written. Null when absent or unreadable.
 */
function readDay(raw: string | undefined, zone: string): Day | null {
  if (!raw) return null;
  const written = raw.length === 10 ? raw : raw.slice(0, 10);
  if (DATE.test(raw))
    return realDate(written) ? { day: written, zoned: false, moved: false, written: raw } : null;
  const t = DATE_TIME.exec(raw);
  if (!t || !realDate(written)) return null;
  if (!t[1]) return { day: written, zoned: false, moved: false, written: raw };
  const instant = new Date(raw);
  if (Number.isNaN(instant.getTime())) return null;
  const day = dayInZone(instant, zone);
  return { day, zoned: true, moved: day !== written, written: raw };
}

/** BookgDt or ValDt: Dt or DtTm. */
const dayOf = (el: El | undefined, zone: string) => readDay(textAt(el, 'Dt') ?? textAt(el, 'DtTm'), zone);
