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
// The XML is read by camt-xml.ts (no DOCTYPE, no entity expanded, a file cut short refused);
// entries are read as the reader ends each one and then dropped, so a large statement is never
// held whole as a tree.
import { dayInZone } from '../../../platform/dates/zone.ts';
import type { StatementLine } from '../ingest.ts';
import { moneyText } from './amounts.ts';
import { type CamtKind, KIND_NS, MESSAGES, messageOf, notCamt, xmlText } from './camt-file.ts';
import { at, currencyOf, type El, kid, kidsOf, readXml, textAt, textOf } from './camt-xml.ts';
import {
  amountOf,
  centsOf,
  type ParsedStatement,
  type ReadOptions,
  type RowError,
  UnreadableStatement,
} from './types.ts';

export { type CamtKind, camtKind } from './camt-file.ts';

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
    const r: Reading = {
      zone: options.timeZone,
      lines: [],
      errors: [],
      notes: [],
      total: 0n,
      moved: 0,
      pending: 0,
    };
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
  /** Pending entries left out. */
  pending: number;
}

/** A statement's own figures, around the entries already read into r. */
function readStatement(stmt: El, r: Reading): ParsedStatement {
  const zone = r.zone;
  if (r.moved)
    r.notes.push(
      `${r.moved} booking time(s) fall on another day in ${zone} than the one written ` +
        `(${r.firstMoved}): the day in ${zone} is taken`,
    );
  if (r.pending)
    r.notes.push(
      `${r.pending} pending entr${r.pending === 1 ? 'y' : 'ies'} (PDNG) not imported: not booked yet, they may change`,
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
  if ((textAt(e, 'Sts') ?? textAt(e, 'Sts', 'Cd')) === 'PDNG') {
    r.pending++;
    return;
  }
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
