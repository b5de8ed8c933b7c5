// Text files people export from spreadsheets and banks: UTF-8 (with or without a BOM), or
// Windows-1252 where Excel wrote the code page of the machine. One decoder for every importer
// (bank statements, lead imports).
export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/**
 * The text of the bytes: UTF-16 when a byte order mark says so, UTF-8 (a BOM dropped) when they are,
 * else Windows-1252 (SA banks' exports).
 */
export function decodeText(bytes: Uint8Array): string {
  return decodeTextOf(bytes).text;
}

/** decodeText, saying which encoding the bytes were read as. */
export function decodeTextOf(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  // Excel's "Unicode text" is UTF-16 with its byte order mark.
  const bom = bomOf(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be')
    return { text: new TextDecoder(bom).decode(bytes), encoding: bom };
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

/** The encoding a byte order mark at the start of the bytes names, if there is one. */
export function bomOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The text of bytes whose file says its character set (an XML declaration's encoding, an OFX
 * header's CHARSET): read as declared, so that "CAFÉ" in ISO-8859-1 is not "CAF\uFFFD". A UTF-8
 * declaration the bytes break (banks known to mix them up), or a name Node does not know, falls
 * back to decodeText, as does a file that starts with a byte order mark.
 */
export function decodeDeclared(bytes: Uint8Array, charset: string | undefined): string {
  // A byte order mark says what the bytes are, whatever a declaration in them says.
  if (bomOf(bytes)) return decodeText(bytes);
  const label = charsetLabel(charset);
  if (!label || label === 'utf-8') return decodeText(bytes);
  // Single-byte sets decode any bytes.
  return new TextDecoder(label).decode(bytes);
}

/** A declared character set as a label TextDecoder knows, or undefined. */
function charsetLabel(charset: string | undefined): string | undefined {
  const c = charset?.trim().toLowerCase();
  if (!c || c === 'none') return undefined;
  // OFX 1.x writes the Windows code page's number alone; CSUNICODE is its name for Unicode.
  if (/^\d{3,4}$/.test(c)) return c === '1252' ? 'windows-1252' : `windows-${c}`;
  if (c === 'csunicode' || c === 'unicode' || c === 'utf8') return 'utf-8';
  if (c === 'usascii' || c === 'us-ascii' || c === 'ascii') return 'utf-8';
  if (c === '8859-1' || c === 'latin1' || c === 'latin-1') return 'iso-8859-1';
  try {
    return new TextDecoder(c).encoding;
  } catch {
    return undefined;
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
