// CSV (RFC 4180): a header row of the column labels, then one record per row; CRLF line ends,
// UTF-8. Amounts are plain decimals with two places and a minus sign (1150.00, -42.50) so that
// spreadsheets and programs read them as numbers; dates stay YYYY-MM-DD. A document of several
// tables writes them one after another, each with its own header row, an empty line between.
import { type Cell, type FileDocument, isDecimal, type Table } from './table.ts';

/**
 * Text that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is
 * prefixed with an apostrophe: a name typed by a customer must not become a formula in the
 * bookkeeper's spreadsheet (CSV injection). Numbers and amounts are never text here.
 */
function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function field(value: Cell): string {
  let s: string;
  if (value === null) s = '';
  else if (isDecimal(value)) s = value.toFixed(2);
  else if (typeof value === 'number') s = String(value);
  else s = textCell(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function record(cells: Cell[]): string {
  return `${cells.map(field).join(',')}\r\n`;
}

export function tableToCsv(table: Table): string {
  return record(table.columns.map((c) => c.label)) + table.rows.map((r) => record(r.cells)).join('');
}

export function toCsv(doc: FileDocument): Buffer {
  return Buffer.from(doc.tables.map(tableToCsv).join('\r\n'), 'utf8');
}

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
