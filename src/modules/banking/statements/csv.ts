// Bank CSV exports, read with a mapping (a bank's profile or the user's own). The header row is
// found by the names the mapping gives (a bank's preamble above it varies), the text is read as
// UTF-8 or, failing that, Windows-1252 (what the banks' Excel-shaped exports are), and a file
// listed newest first is turned oldest first so the running balance reads row by row.

import { parse } from 'csv-parse/sync';
import { decodeText } from '../../../platform/files/decode-text.ts';
import type { StatementLine } from '../ingest.ts';
import type { Column, CsvMapping } from './csv-profiles.ts';
import {
  amountOf,
  amountText,
  centsOf,
  dateText,
  isZeroAmount,
  type ParsedStatement,
  type RowError,
  UnreadableStatement,
} from './types.ts';

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

interface Row {
  record: string[];
  info: { lines: number };
}

/**
 * The file's rows, each with its line in the file. csv-parse's per-record info costs more than
 * the parse itself: a file whose every record is one line (no quoted line break, none skipped)
 * numbers its records by position; any other is parsed again with info.
 */
function rowsOf(text: string, mapping: CsvMapping): Row[] {
  const delimiter = mapping.delimiter ?? (mapping.decimalSeparator === ',' ? ';' : sniff(text));
  const options = { delimiter, relax_column_count: true, relax_quotes: true, bom: true };
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
function locate(rows: Row[], mapping: CsvMapping): { start: number; index: (c: Column) => number } {
  if (mapping.header === false)
    return { start: mapping.skipRows, index: (c) => (typeof c === 'number' ? c : -1) };
  const wanted = named(mapping).map(norm);
  const limit = Math.min(rows.length, mapping.skipRows + 50);
  for (let i = mapping.skipRows; i < limit; i++) {
    const cells = rows[i]!.record.map(norm);
    if (wanted.every((w) => cells.includes(w))) {
      // Each column's index found once, not per row.
      const known = new Map<Column, number>();
      const index = (c: Column) => {
        let at = known.get(c);
        if (at === undefined) {
          at = typeof c === 'number' ? c : cells.indexOf(norm(c));
          known.set(c, at);
        }
        return at;
      };
      return { start: i + 1, index };
    }
  }
  throw new UnreadableStatement(
    `no header row naming the mapping's columns (${named(mapping).join(', ')}) in the first ${limit} rows`,
  );
}

export function parseCsv(bytes: Uint8Array, mapping: CsvMapping): ParsedStatement {
  const rows = rowsOf(decodeText(bytes), mapping);
  const { start, index } = locate(rows, mapping);
  const c = mapping.columns;
  const dec = mapping.decimalSeparator ?? '.';
  const cell = (r: string[], col: Column | undefined) => {
    if (col === undefined) return undefined;
    const i = index(col);
    return i < 0 ? undefined : r[i];
  };
  const money2 = (r: string[], col: Column | undefined, field: string, errs: string[]) => {
    const raw = cell(r, col);
    if (!raw) return null;
    const a = amountText(raw, dec);
    if (a == null) errs.push(`${field}: not an amount: "${raw}"`);
    return a;
  };
  const descCols = Array.isArray(c.description) ? c.description : [c.description];
  const lines: StatementLine[] = [];
  const errors: RowError[] = [];
  for (const { record: r, info } of rows.slice(start)) {
    if (mapping.rowsWhere && cell(r, mapping.rowsWhere.column) !== mapping.rowsWhere.equals) continue;
    if (r.every((x) => !x)) continue;
    const line = info.lines;
    const date = dateText(cell(r, c.date), mapping.dateFormat);
    if (!date) {
      errors.push({
        line,
        field: 'date',
        message: `not a ${mapping.dateFormat} date: "${cell(r, c.date) ?? ''}"`,
      });
      continue;
    }
    const bad: string[] = [];
    let amount: string | null;
    if (mapping.sign === 'signed') amount = money2(r, c.amount, 'amount', bad);
    else {
      const parts = [
        money2(r, c.credit, 'credit', bad),
        money2(r, c.debit, 'debit', bad),
        money2(r, c.fee, 'fee', bad),
      ];
      // Their sign is the column's: money in less money out less the fee.
      const [inn, out, fee] = parts.map((p) => (p == null ? 0n : centsOf(p.replace(/^-/, ''))));
      amount = parts.every((p) => p == null) ? null : amountOf(inn! - out! - fee!);
    }
    const balance = money2(r, c.balance, 'balance', bad);
    if (bad.length) {
      errors.push({ line, field: bad[0]!.split(':')[0]!, message: bad.join('; ') });
      continue;
    }
    if (amount == null || isZeroAmount(amount)) {
      errors.push({ line, field: 'amount', message: 'no amount (or zero)' });
      continue;
    }
    lines.push({
      line,
      date,
      valueDate: dateText(cell(r, c.valueDate), mapping.dateFormat),
      amount,
      description: descCols
        .map((d) => cell(r, d))
        .filter(Boolean)
        .join(' '),
      reference: cell(r, c.reference) || null,
      payee: cell(r, c.payee) || null,
      runningBalance: balance,
    });
  }
  // Newest first (as most banks' screens list them): read oldest first.
  if (lines.length > 1 && lines[0]!.date > lines.at(-1)!.date) lines.reverse();
  const out: ParsedStatement = { lines, errors };
  const first = lines[0];
  const last = lines.at(-1);
  if (first?.runningBalance != null && last?.runningBalance != null) {
    out.openingBalance = amountOf(centsOf(first.runningBalance) - centsOf(first.amount));
    out.closingBalance = last.runningBalance;
  }
  if (first) out.periodFrom = first.date;
  if (last) out.periodTo = last.date;
  return out;
}
