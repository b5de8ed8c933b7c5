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

/** An amount for people: thousands grouped with a space, two decimals, a minus sign. */
export function formatMoney(value: Decimal): string {
  const fixed = value.toFixed(2);
  const negative = fixed.startsWith('-');
  const [whole, cents] = (negative ? fixed.slice(1) : fixed).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${negative && fixed !== '-0.00' ? '-' : ''}${grouped}.${cents}`;
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
