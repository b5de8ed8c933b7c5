// What a file is, told from its bytes when the upload does not say, and the one entry point the
// route calls: parseStatement. A file that is none of the three formats is named for what it is
// (a ZIP, a PDF, a spreadsheet, a camt.054) with what is accepted, rather than "a CSV needs a
// profile".

import type { StatementFormat } from '../banking.tables.ts';
import { camtKind, parseCamt } from './camt.ts';
import { csvRows, parseCsvRows } from './csv.ts';
import { csvNotRead, findLayout, profileOrder } from './csv-layouts.ts';
import type { CsvMapping, CsvProfile } from './csv-profiles.ts';
import { parseOfx } from './ofx.ts';
import { type ParsedStatement, type ReadOptions, UnreadableStatement } from './types.ts';

const ACCEPTED = 'accepted: OFX or QFX (1.x or 2.x), a CAMT.053 statement (XML), or a bank CSV export';

/** Files that are not statements, by their first bytes (their magic numbers): what they are. */
const NOT_STATEMENTS: Array<[number[], string]> = [
  [
    [0x50, 0x4b, 0x03, 0x04],
    'a ZIP archive (or an Excel .xlsx workbook): unzip it, or save the sheet as CSV, and upload the file',
  ],
  [
    [0x25, 0x50, 0x44, 0x46, 0x2d],
    'a PDF: export the statement from online banking as OFX, CAMT.053 or CSV instead',
  ],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an Excel 97-2003 workbook (.xls): save it as CSV and upload that'],
  [[0x1f, 0x8b], 'a gzip archive: decompress it and upload the file inside'],
  [[0x89, 0x50, 0x4e, 0x47], 'a picture: statements come as OFX, CAMT.053 or CSV'],
  [[0xff, 0xd8, 0xff], 'a picture: statements come as OFX, CAMT.053 or CSV'],
];

/** Text formats of statements this service does not read, by how they begin: what they are. */
const OTHER_FORMATS: Array<[RegExp, string]> = [
  [
    /^!(Type|Account|Option|Clear)[:\s]/i,
    'QIF (Quicken Interchange Format): export the statement as OFX/QFX or CSV instead',
  ],
  [
    /^(\{1:F\d{2}|:20:)/,
    'a SWIFT MT940 statement: export it as CAMT.053 (its ISO 20022 successor), OFX or CSV',
  ],
  [
    /^(<!DOCTYPE\s+html|<html)/i,
    'a web page (HTML; online banking often saves one as .xls): open it in a spreadsheet and save as CSV',
  ],
];

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** The format the first bytes say: OFX (its header or element), CAMT (its namespace or root), else CSV. */
export function detectFormat(bytes: Uint8Array): StatementFormat {
  const head = headOf(bytes);
  if (!head.trim()) throw new UnreadableStatement('the file is empty', [ACCEPTED]);
  for (const [magic, what] of NOT_STATEMENTS)
    if (startsWith(bytes, magic)) throw new UnreadableStatement(`the file is ${what}`, [ACCEPTED]);
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (/^OFXHEADER/i.test(text) || /<OFX>/i.test(text) || /<\?OFX/i.test(text)) return 'ofx';
  // Any CAMT message (the reader refuses a camt.052 or camt.054 by name).
  if (camtKind(text)) return 'camt053';
  for (const [pattern, what] of OTHER_FORMATS)
    if (pattern.test(text)) throw new UnreadableStatement(`the file is ${what}`, [ACCEPTED]);
  if (/^<\?xml|^</.test(text))
    throw new UnreadableStatement('the file is XML, but neither OFX nor a CAMT statement', [ACCEPTED]);
  return 'csv';
}

const headOf = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes.subarray(0, 4096));

export interface ParseOptions extends ReadOptions {
  format?: StatementFormat | undefined;
  /** A saved CSV mapping: read with it and nothing else. */
  mapping?: CsvMapping | undefined;
  /** The bank profiles a CSV may be, in the order to try; default: every bank. */
  profiles?: readonly CsvProfile[] | undefined;
}

export interface Parsed {
  format: StatementFormat;
  statements: ParsedStatement[];
  /** The CSV's bank profile, when one read it. */
  profile?: CsvProfile;
  /** The layout of the bank's that read it, in words. */
  layout?: string;
}

export function parseStatement(bytes: Uint8Array, options: ParseOptions): Parsed {
  const format = options.format ?? detectFormat(bytes);
  if (format === 'ofx') return { format, statements: parseOfx(bytes, options) };
  if (format === 'camt053') return { format, statements: parseCamt(bytes, options) };
  if (options.mapping) {
    const rows = csvRows(bytes, options.mapping.delimiter);
    try {
      return { format, statements: [parseCsvRows(rows, options.mapping)] };
    } catch (err) {
      if (err instanceof UnreadableStatement && !err.reasons.length) throw csvNotRead(rows, err.message);
      throw err;
    }
  }
  const rows = csvRows(bytes);
  const order = options.profiles ?? profileOrder();
  const found = findLayout(rows, order);
  if (!found) {
    const which =
      order.length === 1
        ? `the ${order[0]} profile's columns`
        : "any bank's columns (FNB, ABSA, Standard Bank, …)";
    throw csvNotRead(rows, `no header row with ${which} in the first 50 rows`);
  }
  return {
    format,
    statements: [parseCsvRows(rows, found.mapping)],
    profile: found.profile,
    layout: found.layout,
  };
}
