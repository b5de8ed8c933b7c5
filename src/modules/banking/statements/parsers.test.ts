// Each format told from its bytes and read from a fixture shaped like the bank's own export, with the
// figures it must give; a file that is no statement named for what it is.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkBalances } from './balance.ts';
import { csvRows, parseCsvRows } from './csv.ts';
import { findLayout } from './csv-layouts.ts';
import { detectFormat, type Parsed, parseStatement } from './detect.ts';
import { UnreadableStatement } from './types.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const ZONE = { timeZone: 'Africa/Johannesburg' };
/** The one statement of a file that holds one. */
const only = (p: Parsed) => {
  assert.equal(p.statements.length, 1);
  return p.statements[0]!;
};
const fnbOf = (text: string) => {
  const rows = csvRows(Buffer.from(text));
  return parseCsvRows(rows, findLayout(rows, ['fnb'])!.mapping);
};
const amounts = (p: { lines: { amount: string }[] }) => p.lines.map((l) => l.amount);

test('a running balance that does not follow is a gap: where, and by how much', () => {
  // The 12500 credit left out of the file: 14900 + (-6.50) should be 14893.50, the file says 27393.50.
  const text = fixture('fnb.csv')
    .toString()
    .replace(/2026\/03\/03,12500.*\n/, '');
  const p = fnbOf(text);
  const check = checkBalances(p.lines, p.openingBalance, p.closingBalance);
  assert.equal(check.status, 'gap');
  assert.deepEqual(check.runningGaps, [
    { line: 7, date: '2026-03-04', expected: '14893.50', found: '27393.50', difference: '12500.00' },
  ]);
  // 15000 + (-50 -50 -6.50 -1800) = 13093.50; the closing says 25593.50: 12500 unaccounted.
  assert.equal(check.gap, '12500.00');
});

test('OFX 1.x (SGML, unclosed tags): lines, FITIDs, LEDGERBAL as closing', () => {
  const bytes = fixture('statement-1x.ofx');
  assert.equal(detectFormat(bytes), 'ofx');
  const parsed = parseStatement(bytes, ZONE);
  assert.equal(parsed.format, 'ofx');
  const p = only(parsed);
  assert.deepEqual(p.errors, []);
  assert.deepEqual(amounts(p), ['-50.00', '-50.00', '12500.00', '-6.50', '-1800.00']);
  assert.deepEqual(
    p.lines.map((l) => l.externalId),
    ['2026030200001', '2026030200002', '2026030300001', '2026030400001', '2026030500001'],
  );
  assert.equal(p.lines[2]!.description, 'MAGTAPE CREDIT M&G ACME INV-0042');
  // LEDGERBAL 25593.50; opening = 25593.50 - 10593.50 (the lines) = 15000.00
  assert.equal(p.closingBalance, '25593.50');
  assert.equal(p.openingBalance, '15000.00');
  assert.equal(p.periodFrom, '2026-03-01');
  assert.equal(p.periodTo, '2026-03-31');
  assert.equal(p.currency, 'ZAR');
  assert.equal(p.accountHint, '62812345678');
});

test('OFX 2.x (XML): the same reading', () => {
  const p = only(parseStatement(fixture('statement-2x.ofx'), ZONE));
  assert.deepEqual(amounts(p), ['-200.00', '-200.00', '5000.00', '-12.00', '-1000.00']);
  // 13588.00 - (-200 -200 +5000 -12 -1000 = 3588) = 10000.00
  assert.equal(p.openingBalance, '10000.00');
  assert.equal(p.closingBalance, '13588.00');
  assert.equal(p.lines[4]!.reference, '000123');
  assert.equal(p.accountHint, '4071234567');
});

test('CAMT.053: entries signed by CdtDbtInd, parties and remittance, OPBD and CLBD', () => {
  const bytes = fixture('camt053.xml');
  assert.equal(detectFormat(bytes), 'camt053');
  const p = only(parseStatement(bytes, ZONE));
  assert.deepEqual(p.errors, []);
  assert.deepEqual(amounts(p), ['-300.00', '-300.00', '4500.00', '-15.00', '-2000.00']);
  assert.equal(p.lines[2]!.payee, 'ACME TRADING (PTY) LTD');
  assert.equal(p.lines[2]!.description, 'ACME TRADING (PTY) LTD INV-0048');
  assert.equal(p.lines[2]!.reference, 'E2E-ACME-0048');
  assert.equal(p.lines[3]!.description, 'SERVICE FEE');
  assert.equal(p.lines[4]!.valueDate, '2026-03-06');
  assert.equal(p.lines[0]!.externalId, 'BNK0302-001');
  // 10000 - 300 - 300 + 4500 - 15 - 2000 = 11885
  assert.equal(p.openingBalance, '10000.00');
  assert.equal(p.closingBalance, '11885.00');
  assert.equal(checkBalances(p.lines, p.openingBalance, p.closingBalance).status, 'ok');
  assert.equal(p.currency, 'ZAR');
  assert.equal(p.accountHint, '10012345678');
  assert.equal(p.periodFrom, '2026-03-01');
});

test('not a statement at all: unreadable', () => {
  assert.throws(
    () => parseStatement(Buffer.from('<OFX>'), { ...ZONE, format: 'camt053' }),
    UnreadableStatement,
  );
});

test('what a file that is no statement is, named, with what is accepted', () => {
  const cases: Array<[Uint8Array, RegExp]> = [
    [Buffer.from(''), /the file is empty/],
    [Buffer.from('  \r\n'), /the file is empty/],
    [Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'), /a ZIP archive/],
    [Buffer.from('%PDF-1.7\n%\xE2\xE3', 'latin1'), /a PDF/],
    [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), /Excel 97-2003/],
    [
      Buffer.from('<?xml version="1.0"?><invoice><total>5</total></invoice>'),
      /XML, but neither OFX nor a CAMT/,
    ],
    [Buffer.from('!Type:Bank\nD03/02/2026\nT-50.00\n^\n'), /QIF/],
    [Buffer.from(':20:STMT0302\n:25:62812345678\n:28C:1/1\n'), /MT940/],
    [Buffer.from('<html><body><table><tr><td>Date</td></tr></table></body></html>'), /a web page \(HTML/],
  ];
  for (const [bytes, what] of cases) {
    const err = (() => {
      try {
        detectFormat(bytes);
      } catch (e) {
        return e as UnreadableStatement;
      }
      assert.fail(`${what}: read`);
    })();
    assert.ok(err instanceof UnreadableStatement);
    assert.match(err.message, what);
    assert.match(
      err.reasons.join(' '),
      /accepted: OFX or QFX \(1.x or 2.x\), a CAMT.053 statement \(XML\), or a bank CSV/,
    );
  }
});

test('a row without a running balance carries the one before: a gap after it is still found', () => {
  // 15000 - 50 = 14950; the next row has no balance (14930 by its amount); +100 should be 15030.
  const lines = [
    { line: 2, date: '2026-03-02', amount: '-50.00', description: 'A', runningBalance: '14950.00' },
    { line: 3, date: '2026-03-03', amount: '-20.00', description: 'B', runningBalance: null },
    { line: 4, date: '2026-03-04', amount: '100.00', description: 'C', runningBalance: '15130.00' },
  ];
  assert.deepEqual(checkBalances(lines, '15000.00', '15130.00').runningGaps, [
    { line: 4, date: '2026-03-04', expected: '15030.00', found: '15130.00', difference: '100.00' },
  ]);
});
