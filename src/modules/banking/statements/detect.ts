// Which parser a file needs, told from its bytes when the upload does not say, and the one entry
// point the route calls: parseStatement.

import { decodeText } from '../../../platform/files/decode-text.ts';
import type { StatementFormat } from '../banking.tables.ts';
import { parseCamt053 } from './camt.ts';
import { parseCsv } from './csv.ts';
import { CSV_PROFILES, type CsvMapping, type CsvProfile, PROFILES } from './csv-profiles.ts';
import { parseOfx } from './ofx.ts';
import { type ParsedStatement, UnreadableStatement } from './types.ts';

/** The format the first bytes say: OFX (its header or element), CAMT.053 (its namespace or root), else CSV. */
export function detectFormat(bytes: Uint8Array): StatementFormat {
  const head = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, 2048))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^OFXHEADER/i.test(head) || /<OFX>/i.test(head) || /<\?OFX/i.test(head)) return 'ofx';
  if (/camt\.053|<BkToCstmrStmt/i.test(head)) return 'camt053';
  return 'csv';
}

/** The bank profile whose header (or record type) the CSV carries, if one does. */
export function detectProfile(bytes: Uint8Array): CsvProfile | undefined {
  for (const p of CSV_PROFILES) {
    try {
      parseCsv(bytes.subarray(0, 8192), PROFILES[p]);
      if (p === 'standard_bank' && !/^HIST,/m.test(decodeText(bytes.subarray(0, 8192)))) continue;
      return p;
    } catch {}
  }
  return undefined;
}

export interface ParseOptions {
  format?: StatementFormat | undefined;
  /** A CSV's mapping: a bank's profile or the user's own. */
  mapping?: CsvMapping | undefined;
}

export interface Parsed extends ParsedStatement {
  format: StatementFormat;
}

export function parseStatement(bytes: Uint8Array, options: ParseOptions = {}): Parsed {
  const format = options.format ?? detectFormat(bytes);
  if (format === 'ofx') return { format, ...parseOfx(bytes) };
  if (format === 'camt053') return { format, ...parseCamt053(bytes) };
  if (!options.mapping) throw new UnreadableStatement('a CSV needs a profile or a mapping to be read');
  return { format, ...parseCsv(bytes, options.mapping) };
}
