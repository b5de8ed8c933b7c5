// The document model that files are rendered from: a title, who and what period it is for,
// and one or more tables of typed cells. A report (or an invoice, a payslip) builds one; the
// CSV and PDF renderers turn it into bytes. Money stays a Decimal until a renderer formats it.
import { Decimal } from 'decimal.js';

export type CellKind = 'text' | 'money' | 'date' | 'number';

export interface Column {
  label: string;
  kind?: CellKind;
  /** Relative width in the PDF (default 1; money columns read well at 1). */
  width?: number;
  /** PDF: the text wraps over as many lines as it needs (default: one line, cut with an ellipsis). */
  wrap?: boolean;
}

/** A cell: text, a date (YYYY-MM-DD), a number or an amount; null is empty. */
export type Cell = string | number | Decimal | null;

export interface Row {
  cells: Cell[];
  /**
   * heading: a section's name (bold, no figures expected); total: a subtotal (bold, a rule
   * above); grand: the document's bottom line (bold, rules above and below). Default: a line.
   */
  style?: 'heading' | 'total' | 'grand';
  /** Indent the first cell by this many steps (PDF only). */
  indent?: number;
}

export interface Table {
  /** Printed above the table (PDF); in a CSV of several tables it comes before each block. */
  title?: string;
  columns: Column[];
  rows: Row[];
}

export interface FileDocument {
  /** e.g. "Income statement" */
  title: string;
  /** Who it is for, printed first: the company's name. */
  organisation: string;
  /** What it covers, e.g. "1 March 2025 to 28 February 2026" or "As at 31 March 2026". */
  period: string;
  /** A few lines under the heading (basis, currency, decisions worth stating). */
  notes?: string[];
  tables: Table[];
  /** The file's name without extension: letters, digits, dots, dashes and underscores. */
  filename: string;
  /** When it was made (printed in the PDF's footer). */
  generatedAt: Date;
  /** Print across the page (wide tables). */
  landscape?: boolean;
}

/**
 * An amount for people: thousands grouped with a space, two decimals after a point, a minus
 * sign (1 149.99, -1 234.50). Every file a person reads (reports, invoices, e-mails) writes
 * amounts so.
 */
export function formatMoney(value: Decimal): string {
  return formatNumber(value, 2, 2);
}

/**
 * A number for people, grouped like formatMoney, with at least `min` and at most `max`
 * decimals (trailing zeros beyond `min` dropped; rounded half-up beyond `max`): a quantity
 * 3.0000 → "3", a unit price 14.9900 → "14.99", 0.1234 → "0.1234".
 */
export function formatNumber(value: Decimal, min: number, max: number): string {
  const rounded = value.toDecimalPlaces(max, Decimal.ROUND_HALF_UP);
  const fixed = rounded.toFixed(Math.min(max, Math.max(min, rounded.decimalPlaces())));
  const negative = fixed.startsWith('-');
  const [whole, decimals] = (negative ? fixed.slice(1) : fixed).split('.') as [string, string?];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const zero = /^-?[0.]+$/.test(fixed);
  return `${negative && !zero ? '-' : ''}${grouped}${decimals ? `.${decimals}` : ''}`;
}

/**
 * An amount with its currency: "R 1 149.99" in rand, "USD 1 149.99" in any other currency; a
 * negative amount "-R 13.12".
 */
export function formatAmount(value: Decimal, currency: string): string {
  const text = formatMoney(value);
  const symbol = currency === 'ZAR' ? 'R' : currency;
  return text.startsWith('-') ? `-${symbol} ${text.slice(1)}` : `${symbol} ${text}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 2026-02-28 → "28 February 2026". */
export function longDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

export function isDecimal(value: Cell): value is Decimal {
  return Decimal.isDecimal(value);
}

/** A name safe in Content-Disposition and on any file system. */
export function safeFilename(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'file'
  );
}
