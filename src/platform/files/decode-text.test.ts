import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeDeclared, decodeText } from './decode-text.ts';

// "CAFÉ NOIR" with É as one byte, 0xC9, in ISO-8859-1 and Windows-1252; "€" is 0x80 in 1252.
const latin = Uint8Array.from([0x43, 0x41, 0x46, 0xc9, 0x20, 0x4e, 0x4f, 0x49, 0x52]);

test('bytes read as their file declares', () => {
  assert.equal(decodeDeclared(latin, 'ISO-8859-1'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(latin, '1252'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(Uint8Array.from([0x80, 0x35]), '1252'), '€5');
  assert.equal(decodeDeclared(latin, 'windows-1252'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(Buffer.from('CAFÉ NOIR'), 'UTF-8'), 'CAFÉ NOIR');
});

test('a UTF-8 or ASCII declaration the bytes break, or no declaration, falls back to Windows-1252', () => {
  assert.equal(decodeDeclared(latin, 'UTF-8'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(latin, 'USASCII'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(latin, undefined), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(latin, 'NONE'), 'CAFÉ NOIR');
  assert.equal(decodeDeclared(latin, 'no-such-charset'), 'CAFÉ NOIR');
  assert.equal(decodeText(Buffer.from('\uFEFFDate')), 'Date');
});

test("Excel's Unicode text: UTF-16 with its byte order mark", () => {
  const text = 'Datum\tBedrag\nCAFÉ\t-5,00\n';
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), text);
  const be = Buffer.from(text, 'utf16le').swap16();
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), text);
});
