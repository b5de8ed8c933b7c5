// Bank CSV exports, read with a mapping (a bank's layout or the user's own). The header row is
// found by the names the mapping gives (a bank's preamble above it varies); the text is read as
// UTF-8 or, failing that, Windows-1252 (what the banks' Excel-shaped exports are). What a cell
// cannot say alone the whole file decides: the decimal mark (from every amount and balance),
// whether an unmarked amount is money in or out (from the Cr / Dr markers of its column), and the
// date format (from every date). A file listed newest first is turned oldest first so the running
// balance reads row by row.

import { parse } from 'csv-parse/sync';
import { decodeText } from '../../../platform/files/decode-text.ts';
import type { StatementLine } from '../ingest.ts';
import {
  type DecimalMark,
  decideDecimalMark,
  hasMarkers,
  type MoneyCell,
  markProblem,
  PLAIN_AMOUNT,
  readMoney,
  scanMoney,
  type Unmarked,
  unmarkedMeaning,
} from './amounts.ts';
import { type Column, type CsvMapping, headerKey } from './csv-profiles.ts';
import { decideDateFormat } from './dates.ts';
import {
  amountOf,
  centsOf,
  dateText,
  isZeroAmount,
  type ParsedStatement,
  type RowError,
  UnreadableStatement,
} from './types.ts';

export interface Row {
  record: string[];
  info: { lines: number };
}

/**
 * The file's rows, each with its line in the file. csv-parse's per-record info costs more than
 * the parse itself: a file whose every record is one line (no quoted line break, none skipped)
 * numbers its records by position; any other is parsed again with info.
 */
export function csvRows(bytes: Uint8Array, delimiter?: string): Row[] {
  const text = decodeText(bytes);
  const options = {
    delimiter: delimiter ?? sniff(text),
    relax_column_count: true,
    relax_quotes: true,
    bom: true,
  };
  try {
    const records = parse(text, options) as string[][];
    const lineCount = text.split(/\r\n|\n|\r/).length - (/(\r\n|\n|\r)$/.test(text) ? 1 : 0);
    if (records.length === lineCount)
      return records.map((record, i) => ({ record: record.map((c) => c.trim()), info: { lines: i + 1 } }));
    return parse(text, { ...options, info: true, trim: true, skip_empty_lines: true }) as unknown as Row[];
  } catch (err) {
    throw new UnreadableStatement(`the CSV could not be read: ${(err as Error).message}`);
  }
}

/** The delimiter the first lines use most: a comma, a semicolon or a tab. */
function sniff(text: string): string {
  const head = text.slice(0, 4000);
  const count = (c: string) => head.split(c).length;
  return [',', ';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

function named(mapping: CsvMapping): string[] {
  const c = mapping.columns;
  const all = [c.date, c.amount, c.debit, c.credit, c.fee, c.balance, c.valueDate, c.reference, c.payee];
  const desc = Array.isArray(c.description) ? c.description : [c.description];
  return [...all, ...desc].filter((x): x is string => typeof x === 'string');
}

/** Where the header is and each column's index. */
function locate(
  rows: Row[],
  mapping: CsvMapping,
): { start: number; index: (c: Column | undefined) => number } {
  if (mapping.header === false)
    return { start: mapping.skipRows, index: (c) => (typeof c === 'number' ? c : -1) };
  const wanted = named(mapping).map(headerKey);
  const limit = Math.min(rows.length, mapping.skipRows + 50);
  for (let i = mapping.skipRows; i < limit; i++) {
    const cells = rows[i]!.record.map(headerKey);
    if (wanted.every((w) => cells.includes(w)))
      return {
        start: i + 1,
        index: (c) => (c === undefined ? -1 : typeof c === 'number' ? c : cells.indexOf(headerKey(c))),
      };
  }
  throw new UnreadableStatement(
    `no header row naming the mapping's columns (${named(mapping).join(', ')}) in the first ${limit} rows`,
  );
}

// Most cells of most exports are "-1234.50" already: taken apart without a scan.
const cellOf = (raw: string): MoneyCell | null =>
  PLAIN_AMOUNT.test(raw)
    ? { body: raw[0] === '-' ? raw.slice(1) : raw, sign: raw[0] === '-' ? '-' : null, marker: null }
    : scanMoney(raw);

const MONEY_ROLES = ['amount', 'debit', 'credit', 'fee', 'balance'] as const;
type MoneyRole = (typeof MONEY_ROLES)[number];

/** Each money column's cells, taken apart once, row by row: undefined where empty, null where no money text. */
type Scanned = Record<MoneyRole, Array<MoneyCell | null | undefined>>;

function scanColumns(rows: string[][], at: Record<MoneyRole, number>): Scanned {
  const column = (i: number) => (i < 0 ? [] : rows.map((r) => (r[i] ? cellOf(r[i]!) : undefined)));
  return {
    amount: column(at.amount),
    debit: column(at.debit),
    credit: column(at.credit),
    fee: column(at.fee),
    balance: column(at.balance),
  };
}

/** The file's decimal mark: the mapping's, or decided from every money cell of the rows. */
function markOf(mapping: CsvMapping, scanned: Scanned): DecimalMark {
  if (mapping.decimalSeparator === '.' || mapping.decimalSeparator === ',') return mapping.decimalSeparator;
  function* bodies() {
    // Row by row, as the file reads (the examples a refusal names come in the file's order).
    const rows = Math.max(...MONEY_ROLES.map((role) => scanned[role].length));
    for (let row = 0; row < rows; row++)
      for (const role of MONEY_ROLES) {
        const cell = scanned[role][row];
        if (cell) yield cell.body;
      }
  }
  const decision = decideDecimalMark(bodies());
  if ('mark' in decision) return decision.mark;
  throw new UnreadableStatement("the CSV's amounts cannot be read for certain", [
    markProblem(decision),
    "save a CSV mapping (POST /api/bank-csv-mappings) with decimalSeparator '.' or ',' and upload again with its mappingId",
  ]);
}

const BALANCE_ROW =
  /\b(opening|closing|available) balance\b|\bbalance (brought|carried) forward\b|\b(b\/f|c\/f)\b|\b(openings|slot)saldo\b/i;

// An account number's label, in a preamble row ("Account Number,1234567890", Standard Bank's
// ACC-NO record) or as a column of the rows (Investec's Account Number, Capitec's Account).
const ACCOUNT_KEY = /^(accountnumber|accountno|accno|account|rekeningnommer|rekeningno)$/;
const digitsOf = (s: string | undefined) => {
  const d = (s ?? '').replace(/\D/g, '');
  return d.length >= 6 ? d : undefined;
};

/** The account a CSV names, when it names one: so that another account's export is not imported here. */
function accountHintOf(
  rows: readonly Row[],
  data: readonly Row[],
  header: string[] | undefined,
): string | undefined {
  const isData = new Set(data);
  for (const row of rows.slice(0, 50)) {
    if (isData.has(row) || row.record === header) continue;
    const [key, ...values] = row.record;
    if (key && ACCOUNT_KEY.test(headerKey(key))) {
      const found = values.map(digitsOf).find(Boolean);
      if (found) return found;
    }
  }
  const at = header ? header.findIndex((h) => ACCOUNT_KEY.test(headerKey(h))) : -1;
  return at < 0 ? undefined : data.map((d) => digitsOf(d.record[at])).find(Boolean);
}

export function parseCsv(bytes: Uint8Array, mapping: CsvMapping): ParsedStatement {
  return parseCsvRows(csvRows(bytes, mapping.delimiter), mapping);
}

/** The statement of the rows, read with the mapping (whose header the rows must have). */
export function parseCsvRows(rows: Row[], mapping: CsvMapping): ParsedStatement {
  const { start, index } = locate(rows, mapping);
  const c = mapping.columns;
  const at = {
    date: index(c.date),
    valueDate: index(c.valueDate),
    reference: index(c.reference),
    payee: index(c.payee),
    amount: mapping.sign === 'signed' ? index(c.amount) : -1,
    debit: mapping.sign === 'signed' ? -1 : index(c.debit),
    credit: mapping.sign === 'signed' ? -1 : index(c.credit),
    fee: mapping.sign === 'signed' ? -1 : index(c.fee),
    balance: index(c.balance),
  };
  const description = (Array.isArray(c.description) ? c.description : [c.description])
    .map(index)
    .filter((i) => i >= 0);
  const where = mapping.rowsWhere && {
    at: index(mapping.rowsWhere.column),
    equals: mapping.rowsWhere.equals,
  };
  // The data rows: neither filtered out nor empty, nor a row with no date and no money (a
  // continuation or a footer's blank line).
  const data = rows.slice(start).filter(({ record: r }) => {
    if (where && r[where.at] !== where.equals) return false;
    if (r.every((x) => !x)) return false;
    return Boolean(r[at.date]) || MONEY_ROLES.some((role) => at[role] >= 0 && r[at[role]]);
  });
  const records = data.map((d) => d.record);
  const scanned = scanColumns(records, at);
  const mark = markOf(mapping, scanned);
  const amountUnmarked = unmarkedMeaning(scanned.amount, hasMarkers(scanned.balance));
  const balanceUnmarked = unmarkedMeaning(scanned.balance);
  const dateFormat =
    mapping.dateFormats && mapping.dateFormats.length > 1
      ? decideDateFormat(
          records.map((r) => r[at.date]),
          mapping.dateFormats,
        )
      : mapping.dateFormat;
  const money = (row: number, role: MoneyRole, bad: string[], how: Unmarked = 'plain') => {
    const cell = scanned[role][row];
    if (cell === undefined) return null;
    const a = cell && readMoney(cell, mark, how);
    const raw = records[row]![at[role]];
    const field = role;
    if (a == null)
      bad.push(
        cell
          ? `${field}: not an amount with a decimal ${mark === '.' ? 'point' : 'comma'}: "${raw}"`
          : `${field}: not an amount: "${raw}"`,
      );
    return a;
  };
  const lines: StatementLine[] = [];
  const errors: RowError[] = [];
  for (const [row, { record: r, info }] of data.entries()) {
    const line = info.lines;
    const date = dateText(r[at.date], dateFormat);
    if (!date) {
      errors.push({ line, field: 'date', message: `not a ${dateFormat} date: "${r[at.date] ?? ''}"` });
      continue;
    }
    const bad: string[] = [];
    let amount: string | null;
    if (mapping.sign === 'signed') amount = money(row, 'amount', bad, amountUnmarked);
    else {
      const parts = [money(row, 'credit', bad), money(row, 'debit', bad), money(row, 'fee', bad)];
      // Their sign is the column's: money in less money out less the fee.
      const [inn, out, fee] = parts.map((p) => (p == null ? 0n : centsOf(p.replace(/^-/, ''))));
      amount = parts.every((p) => p == null) ? null : amountOf(inn! - out! - fee!);
    }
    const balance = money(row, 'balance', bad, balanceUnmarked);
    if (bad.length) {
      errors.push({ line, field: bad[0]!.split(':')[0]!, message: bad.join('; ') });
      continue;
    }
    if (amount == null || isZeroAmount(amount)) {
      // An opening or closing balance written as a row of its own is not a transaction.
      if (BALANCE_ROW.test(description.map((i) => r[i]).join(' '))) continue;
      errors.push({ line, field: 'amount', message: 'no amount (or zero)' });
      continue;
    }
    lines.push({
      line,
      date,
      valueDate: at.valueDate < 0 ? null : dateText(r[at.valueDate], dateFormat),
      amount,
      description: description
        .map((i) => r[i])
        .filter(Boolean)
        .join(' '),
      reference: (at.reference >= 0 && r[at.reference]) || null,
      payee: (at.payee >= 0 && r[at.payee]) || null,
      runningBalance: balance,
    });
  }
  // Newest first (as most banks' screens list them): read oldest first.
  if (lines.length > 1 && lines[0]!.date > lines.at(-1)!.date) lines.reverse();
  const out: ParsedStatement = { lines, errors };
  const hint = accountHintOf(rows, data, mapping.header === false ? undefined : rows[start - 1]?.record);
  if (hint) out.accountHint = hint;
  const first = lines[0];
  const last = lines.at(-1);
  if (first?.runningBalance != null && last?.runningBalance != null) {
    out.openingBalance = amountOf(centsOf(first.runningBalance) - centsOf(first.amount));
    out.closingBalance = last.runningBalance;
    out.derivedBalance = 'opening';
  }
  if (first) out.periodFrom = first.date;
  if (last) out.periodTo = last.date;
  return out;
}
