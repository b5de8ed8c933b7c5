// Text files people export from spreadsheets and banks: UTF-8 (with or without a BOM), or
// Windows-1252 where Excel wrote the code page of the machine. One decoder for every importer
// (bank statements, lead imports).
export type TextEncoding = 'utf-8' | 'windows-1252';

/** The text of the bytes: UTF-8 (a BOM dropped) when they are, else Windows-1252 (SA banks' exports). */
export function decodeText(bytes: Uint8Array): string {
  return decodeTextOf(bytes).text;
}

/** decodeText, saying which encoding the bytes were read as. */
export function decodeTextOf(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes),
      encoding: 'utf-8',
    };
  } catch {
    // Node's 'windows-1252' decoder reads 0x80-0x9F as Latin-1 controls; the table says what they are.
    let out = '';
    for (const b of bytes)
      out += b >= 0x80 && b <= 0x9f ? (CP1252[b - 0x80] ?? '\ufffd') : String.fromCharCode(b);
    return { text: out, encoding: 'windows-1252' };
  }
}

// Windows-1252's 0x80-0x9F (the rest is Latin-1); undefined where the code page has none.
const CP1252 = [
  '\u20ac',
  undefined,
  '\u201a',
  '\u0192',
  '\u201e',
  '\u2026',
  '\u2020',
  '\u2021',
  '\u02c6',
  '\u2030',
  '\u0160',
  '\u2039',
  '\u0152',
  undefined,
  '\u017d',
  undefined,
  undefined,
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2022',
  '\u2013',
  '\u2014',
  '\u02dc',
  '\u2122',
  '\u0161',
  '\u203a',
  '\u0153',
  undefined,
  '\u017e',
  '\u0178',
];
