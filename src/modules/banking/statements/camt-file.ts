// A CAMT file: its character set (as its XML declaration names it), and which CAMT message it is
// (camt.052 intraday report, camt.053 statement, camt.054 notification).
import { bomOf, decodeDeclared } from '../../../platform/files/decode-text.ts';
import type { El } from './camt-xml.ts';
import { UnreadableStatement } from './types.ts';

export type CamtKind = 'camt.052' | 'camt.053' | 'camt.054';

export const MESSAGES = new Map<string, CamtKind>([
  ['BkToCstmrAcctRpt', 'camt.052'],
  ['BkToCstmrStmt', 'camt.053'],
  ['BkToCstmrDbtCdtNtfctn', 'camt.054'],
]);
const KIND_TAG = /<(?:[\w.-]+:)?(BkToCstmrAcctRpt|BkToCstmrStmt|BkToCstmrDbtCdtNtfctn)[\s>/]/;
export const KIND_NS = /(?:urn:iso:std:iso:20022:tech:xsd:|ISO:)(camt\.05[234])\./;
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
  const bom = bomOf(bytes);
  return new TextDecoder(bom === 'utf-16le' || bom === 'utf-16be' ? bom : 'latin1').decode(
    bytes.subarray(0, HEAD),
  );
}

const DECLARED = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([\w.:-]+)["']/;

/** The text of the file, in the character set its XML declaration names (UTF-8 when none). */
export function xmlText(bytes: Uint8Array): string {
  if (!bytes.length) throw new UnreadableStatement('the file is empty');
  const sig = new TextDecoder('latin1').decode(bytes.subarray(0, 5));
  if (sig.startsWith('PK\x03\x04'))
    throw new UnreadableStatement(
      'a ZIP archive, not XML: unpack it and upload the camt.053 statements in it',
    );
  if (sig === '%PDF-')
    throw new UnreadableStatement('a PDF, not XML: download the statement as CAMT.053 (XML)');
  // The declaration is ASCII whatever the set; a UTF-16 one read as 8-bit bytes cannot be right
  // (a UTF-16 file has its byte order mark, which decodeDeclared follows first).
  const declared = DECLARED.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1];
  const text = decodeDeclared(bytes, /^utf-?16/i.test(declared ?? '') ? undefined : declared);
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
export function messageOf(root: El): El | undefined {
  let level = [root];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const found = level.find((el) => MESSAGES.has(el.name));
    if (found) return found;
    level = level.flatMap((el) => el.kids);
  }
  return undefined;
}

export function notCamt(root: El): UnreadableStatement {
  const iso = ISO_MESSAGE.exec(root.attrs)?.[1];
  if (iso) return new UnreadableStatement(`an ISO 20022 ${iso} message, not a camt.053 bank statement`);
  return new UnreadableStatement(`not a CAMT bank statement: an XML file whose root is <${root.name}>`);
}
