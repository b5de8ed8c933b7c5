// Each format read from a fixture shaped like the bank's own export, with the figures it must give.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkBalances } from './balance.ts';
import { parseCsv } from './csv.ts';
import { type CsvProfile, PROFILES } from './csv-profiles.ts';
import { detectFormat, detectProfile, parseStatement } from './detect.ts';
import { ofxToXml } from './ofx.ts';
import { UnreadableStatement } from './types.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const amounts = (p: { lines: { amount: string }[] }) => p.lines.map((l) => l.amount);

/** Each bank's fixture: five lines (two identical on 2 March, a fee), opening and closing. */
const BANKS: Array<[CsvProfile, string[], string, string]> = [
  // 15000 - 50 - 50 + 12500 - 6.50 - 1800 = 25593.50
  ['fnb', ['-50.00', '-50.00', '12500.00', '-6.50', '-1800.00'], '15000.00', '25593.50'],
  // 9000 - 120 - 120 + 3000 - 35 (charge) - 452.50 (450 debit + 2.50 charge) = 11272.50
  ['absa', ['-120.00', '-120.00', '3000.00', '-35.00', '-452.50'], '9000.00', '11272.50'],
  // 5000 - 75 - 75 + 2200 - 4.95 - 999.99 = 6045.06 (HIST rows only)
  ['standard_bank', ['-75.00', '-75.00', '2200.00', '-4.95', '-999.99'], '5000.00', '6045.06'],
  // newest first in the file, read oldest first: 27000 - 10000 - 250 - 250 + 4000 - 55 = 20445
  ['nedbank', ['-10000.00', '-250.00', '-250.00', '4000.00', '-55.00'], '27000.00', '20445.00'],
  // 2000 - 89.99 - 89.99 + 1500 - 7.50 (fee) - 502 (500 out + 2 fee) = 2810.52
  ['capitec', ['-89.99', '-89.99', '1500.00', '-7.50', '-502.00'], '2000.00', '2810.52'],
  // 50000 - 120.50 - 120.50 + 8000 - 350 - 12000 = 45409
  ['investec', ['-120.50', '-120.50', '8000.00', '-350.00', '-12000.00'], '50000.00', '45409.00'],
];

for (const [bank, expected, opening, closing] of BANKS)
  test(`CSV ${bank}: the bank's export read with its profile, balances tying out`, () => {
    const bytes = fixture(`${bank}.csv`);
    assert.equal(detectFormat(bytes), 'csv');
    assert.equal(detectProfile(bytes), bank);
    const p = parseCsv(bytes, PROFILES[bank]);
    assert.deepEqual(p.errors, []);
    assert.deepEqual(amounts(p), expected);
    assert.equal(p.openingBalance, opening);
    assert.equal(p.closingBalance, closing);
    assert.equal(p.periodFrom, '2026-03-02');
    assert.equal(p.periodTo, '2026-03-05');
    // The two identical rows of 2 March (3 March at Nedbank) are both there.
    const check = checkBalances(p.lines, p.openingBalance, p.closingBalance);
    assert.equal(check.status, 'ok');
    assert.deepEqual(check.runningGaps, []);
  });

test('CSV: ABSA written in Windows-1252 reads its É and curly quotes right', () => {
  const p = parseCsv(fixture('absa.csv'), PROFILES.absa);
  assert.equal(p.lines[0]!.description, 'ACB DEBIT: CAFÉ RIO \u201cTAKEAWAY\u201d');
});

test('CSV: a UTF-8 BOM is not part of the first header', () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture('investec.csv')]);
  assert.equal(parseCsv(bytes, PROFILES.investec).lines.length, 5);
});

test('CSV: Capitec keeps its transaction date as the value date', () => {
  const p = parseCsv(fixture('capitec.csv'), PROFILES.capitec);
  assert.equal(p.lines[0]!.date, '2026-03-02');
  assert.equal(p.lines[0]!.valueDate, '2026-03-01');
});

test('CSV: a bad row is an error naming its line and field; the others are read', () => {
  const text = fixture('fnb.csv')
    .toString()
    .replace('2026/03/03,12500.00', '2026/02/30,12500.00')
    .replace('2026/03/04,-6.50', '2026/03/04,six');
  const p = parseCsv(Buffer.from(text), PROFILES.fnb);
  assert.deepEqual(p.errors, [
    { line: 7, field: 'date', message: 'not a YYYY/MM/DD date: "2026/02/30"' },
    { line: 8, field: 'amount', message: 'amount: not an amount: "six"' },
  ]);
  assert.equal(p.lines.length, 3);
});

test('a running balance that does not follow is a gap: where, and by how much', () => {
  // The 12500 credit left out of the file: 14900 + (-6.50) should be 14893.50, the file says 27393.50.
  const text = fixture('fnb.csv')
    .toString()
    .replace(/2026\/03\/03,12500.*\n/, '');
  const p = parseCsv(Buffer.from(text), PROFILES.fnb);
  const check = checkBalances(p.lines, p.openingBalance, p.closingBalance);
  assert.equal(check.status, 'gap');
  assert.deepEqual(check.runningGaps, [
    { line: 7, date: '2026-03-04', expected: '14893.50', found: '27393.50', difference: '12500.00' },
  ]);
  // 15000 + (-50 -50 -6.50 -1800) = 13093.50; the closing says 25593.50: 12500 unaccounted.
  assert.equal(check.gap, '12500.00');
});

test('CSV: a file without the mapping header is unreadable (the route answers 422)', () => {
  assert.throws(() => parseCsv(Buffer.from('a,b,c\n1,2,3\n'), PROFILES.fnb), UnreadableStatement);
});

test('OFX 1.x (SGML, unclosed tags): lines, FITIDs, LEDGERBAL as closing', () => {
  const bytes = fixture('statement-1x.ofx');
  assert.equal(detectFormat(bytes), 'ofx');
  const p = parseStatement(bytes);
  assert.equal(p.format, 'ofx');
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
  const p = parseStatement(fixture('statement-2x.ofx'));
  assert.deepEqual(amounts(p), ['-200.00', '-200.00', '5000.00', '-12.00', '-1000.00']);
  // 13588.00 - (-200 -200 +5000 -12 -1000 = 3588) = 10000.00
  assert.equal(p.openingBalance, '10000.00');
  assert.equal(p.closingBalance, '13588.00');
  assert.equal(p.lines[4]!.reference, '000123');
  assert.equal(p.accountHint, '4071234567');
});

test('OFX: the SGML pass closes leaf tags only', () => {
  assert.equal(ofxToXml('<OFX><A><B>1<C>x</C></A></OFX>'), '<OFX><A><B>1</B><C>x</C></A></OFX>');
});

test('CAMT.053: entries signed by CdtDbtInd, parties and remittance, OPBD and CLBD', () => {
  const bytes = fixture('camt053.xml');
  assert.equal(detectFormat(bytes), 'camt053');
  const p = parseStatement(bytes);
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
  assert.throws(() => parseStatement(Buffer.from('<OFX>'), { format: 'camt053' }), UnreadableStatement);
});
