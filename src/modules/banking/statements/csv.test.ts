// Bank CSV exports read as the banks publish them: each bank's layouts found from the header, the
// decimal mark, the Cr / Dr convention and the date format decided from the whole file, with the
// figures each file must give worked out by hand.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkBalances } from './balance.ts';
import { csvRows, parseCsv, parseCsvRows } from './csv.ts';
import { csvNotRead, findLayout, profileOrder } from './csv-layouts.ts';
import type { CsvMapping, CsvProfile } from './csv-profiles.ts';
import { decideDateFormat } from './dates.ts';
import { parseStatement } from './detect.ts';
import { UnreadableStatement } from './types.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const amounts = (p: { lines: { amount: string }[] }) => p.lines.map((l) => l.amount);
const ZONE = { timeZone: 'Africa/Johannesburg' };

/** The file read as the route reads it: every bank's layouts tried, the first bank's first. */
function read(name: string, ...preferred: CsvProfile[]) {
  const rows = csvRows(fixture(name));
  const found = findLayout(rows, profileOrder(...preferred));
  assert.ok(found, `${name}: no layout found`);
  return { found, p: parseCsvRows(rows, found.mapping) };
}

/** Each bank's first fixture: five lines (two identical on 2 March, a fee), opening and closing. */
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
  test(`CSV ${bank}: the bank's export found by its header, read, balances tying out`, () => {
    // Found among every bank's layouts, with no hint of which bank it is.
    const { found, p } = read(`${bank}.csv`);
    assert.equal(found.profile, bank);
    assert.deepEqual(p.errors, []);
    assert.deepEqual(amounts(p), expected);
    assert.equal(p.openingBalance, opening);
    assert.equal(p.closingBalance, closing);
    assert.equal(p.periodFrom, '2026-03-02');
    assert.equal(p.periodTo, '2026-03-05');
    const check = checkBalances(p.lines, p.openingBalance, p.closingBalance);
    assert.equal(check.status, 'ok');
    assert.deepEqual(check.runningGaps, []);
  });

test("ABSA's signed export (Date, Transaction Description, Amount, Balance; 20260302)", () => {
  const { found, p } = read('csv/absa-signed.csv');
  assert.deepEqual([found.profile, found.layout], ['absa', 'ABSA transaction history (signed amount)']);
  // 10000 + 2500 - 350 - 114.50 - 1234.56 = 10800.94
  assert.deepEqual(amounts(p), ['2500.00', '-350.00', '-114.50', '-1234.56']);
  assert.deepEqual([p.openingBalance, p.closingBalance], ['10000.00', '10800.94']);
  assert.equal(p.lines[0]!.description, 'DIGITAL PAYMENT CR ACME TRADING INV 0046');
  assert.equal(checkBalances(p.lines, p.openingBalance, p.closingBalance).status, 'ok');
});

test('Capitec\'s "Money In (R)" export: DD/MM/YYYY and "R 1 234.56"', () => {
  const { found, p } = read('csv/capitec-rand.csv');
  assert.equal(found.profile, 'capitec');
  // 5000 - 1234.56 + 12500 - 7.50 - 502 (500 out + 2 fee) = 15755.94
  assert.deepEqual(amounts(p), ['-1234.56', '12500.00', '-7.50', '-502.00']);
  assert.deepEqual([p.openingBalance, p.closingBalance], ['5000.00', '15755.94']);
  assert.deepEqual([p.lines[3]!.date, p.lines[3]!.valueDate], ['2026-03-13', '2026-03-12']);
  assert.equal(checkBalances(p.lines, p.openingBalance, p.closingBalance).status, 'ok');
});

test('Nedbank with Tranlistno and "Fees(R)" columns', () => {
  const { found, p } = read('csv/nedbank-tranlist.csv');
  assert.equal(found.profile, 'nedbank');
  // 8000 + 1500 - 899 + (2000 - 25.50) = 10575.50
  assert.deepEqual(amounts(p), ['1500.00', '-899.00', '1974.50']);
  assert.deepEqual([p.openingBalance, p.closingBalance], ['8000.00', '10575.50']);
});

test("Standard Bank's online export (Payments, Deposits): read, not 0 rows", () => {
  const { found, p } = read('csv/standard-bank-online.csv');
  assert.deepEqual(
    [found.profile, found.layout],
    ['standard_bank', 'Standard Bank transactions (payments and deposits)'],
  );
  // 5000 - 75 + 2200 - 4.95 = 7120.05
  assert.deepEqual(amounts(p), ['-75.00', '2200.00', '-4.95']);
  assert.deepEqual([p.openingBalance, p.closingBalance], ['5000.00', '7120.05']);
});

test('FNB with "02 Mar 2026" dates and Cr on credits only: a bare amount is money out', () => {
  const { found, p } = read('csv/fnb-cr.csv');
  assert.equal(found.profile, 'fnb');
  // Read cell by cell, "50.00" was money in. The column marks its credits: 15000 - 50 + 12500 - 6.50 - 1800 = 25643.50
  assert.deepEqual(amounts(p), ['-50.00', '12500.00', '-6.50', '-1800.00']);
  assert.deepEqual(
    p.lines.map((l) => l.date),
    ['2026-03-02', '2026-03-02', '2026-03-03', '2026-03-04'],
  );
  assert.deepEqual([p.openingBalance, p.closingBalance], ['15000.00', '25643.50']);
  assert.equal(checkBalances(p.lines, p.openingBalance, p.closingBalance).status, 'ok');
});

test('a decimal comma file: "-1 234,56" is minus one thousand two hundred and thirty-four, not 123,456', () => {
  const { p } = read('csv/absa-decimal-comma.csv');
  // 10000 - 1234.56 + 2500 - 7.50 = 11257.94
  assert.deepEqual(amounts(p), ['-1234.56', '2500.00', '-7.50']);
  assert.deepEqual(
    p.lines.map((l) => l.runningBalance),
    ['8765.44', '11265.44', '11257.94'],
  );
  assert.deepEqual([p.openingBalance, p.closingBalance], ['10000.00', '11257.94']);
});

const ABSA_SIGNED: CsvMapping = {
  columns: { date: 'Date', description: 'Description', amount: 'Amount', balance: 'Balance' },
  dateFormat: 'YYYYMMDD',
  sign: 'signed',
  skipRows: 0,
  decimalSeparator: 'auto',
};

test('every spelling of the same amounts reads the same, the mark decided per file', () => {
  const files = [
    ['1.234,56', '50,00'],
    ['1 234,56', '50,00'],
    ['1,234.56', '50.00'],
    ['1234,56', '50,00'],
    ['1234.56', '50'],
  ];
  for (const [big, small] of files) {
    const csv = `Date;Description;Amount;Balance\n20260302;A;-${big};\n20260303;B;${small};\n`;
    assert.deepEqual(amounts(parseCsv(Buffer.from(csv), ABSA_SIGNED)), ['-1234.56', '50.00'], big);
  }
  // Trailing minus and brackets.
  const csv =
    'Date,Description,Amount,Balance\n20260302,A,"1,234.56-",\n20260303,B,(50.00),\n20260304,C,7.00,\n';
  assert.deepEqual(amounts(parseCsv(Buffer.from(csv), ABSA_SIGNED)), ['-1234.56', '-50.00', '7.00']);
});

test('a file whose amounts could be read two ways is not guessed: it asks for a mapping', () => {
  const csv = 'Date,Description,Amount,Balance\n20260302,A,"1,234","2,500"\n20260303,B,"-1,000","1,500"\n';
  const err = assertUnreadable(() => parseCsv(Buffer.from(csv), ABSA_SIGNED));
  assert.match(err.reasons[0]!, /could be read two ways \("1,234", "2,500", "1,000"/);
  assert.match(err.reasons[1]!, /decimalSeparator '\.' or ','/);
  // The mapping's own mark settles it: a thousand two hundred and thirty-four.
  const p = parseCsv(Buffer.from(csv), { ...ABSA_SIGNED, decimalSeparator: '.' });
  assert.deepEqual(amounts(p), ['1234.00', '-1000.00']);
  // Both marks in one file: not guessed either.
  const mixed = 'Date,Description,Amount,Balance\n20260302,A,"1,234.56",\n20260303,B,"7,50",\n';
  assert.match(assertUnreadable(() => parseCsv(Buffer.from(mixed), ABSA_SIGNED)).reasons[0]!, /both marks/);
});

test("a cell that does not fit the file's mark is an error on its row, never money 100 times too large", () => {
  const csv =
    'Date,Description,Amount,Balance\n20260302,A,-50.00,\n20260303,B,"-1 234,56",\n20260304,C,six,\n';
  // Decided from the file, the two marks refuse it whole; with the mapping's mark, the row is wrong.
  assert.match(assertUnreadable(() => parseCsv(Buffer.from(csv), ABSA_SIGNED)).reasons[0]!, /both marks/);
  const p = parseCsv(Buffer.from(csv), { ...ABSA_SIGNED, decimalSeparator: '.' });
  assert.deepEqual(amounts(p), ['-50.00']);
  assert.deepEqual(p.errors, [
    { line: 3, field: 'amount', message: 'amount: not an amount with a decimal point: "-1 234,56"' },
    { line: 4, field: 'amount', message: 'amount: not an amount: "six"' },
  ]);
});

test('DD/MM against MM/DD: decided from every date of the file', () => {
  const both = ['DD/MM/YYYY', 'MM/DD/YYYY'] as const;
  // 13/03 can only be the 13th of March.
  assert.equal(decideDateFormat(['01/03/2026', '13/03/2026'], both), 'DD/MM/YYYY');
  assert.equal(decideDateFormat(['03/01/2026', '03/13/2026'], both), 'MM/DD/YYYY');
  // Every day 12 or less: as DD/MM, 1, 2, 5 March (4 days); as MM/DD, 3 January to 3 May (4 months).
  assert.equal(decideDateFormat(['01/03/2026', '02/03/2026', '05/03/2026'], both), 'DD/MM/YYYY');
  assert.equal(decideDateFormat(['03/01/2026', '03/02/2026', '03/05/2026'], both), 'MM/DD/YYYY');
  // A single day either way: the bank's usual format (the first).
  assert.equal(decideDateFormat(['04/03/2026'], both), 'DD/MM/YYYY');
  assert.equal(decideDateFormat(['04/03/2026'], ['MM/DD/YYYY', 'DD/MM/YYYY']), 'MM/DD/YYYY');
});

test('a header no bank layout reads: the columns found and a mapping that would read the file', () => {
  const rows = csvRows(fixture('csv/credit-union.csv'));
  assert.equal(findLayout(rows, profileOrder()), undefined);
  const err = csvNotRead(rows, 'no header row');
  assert.deepEqual(err.details.columnsFound, [
    'Txn Date',
    'Narrative',
    'Paid Out',
    'Paid In',
    'Running Balance',
  ]);
  const suggested = err.details.suggestedMapping as CsvMapping & { name: string };
  assert.deepEqual(suggested, {
    name: 'Bank export',
    columns: {
      date: 'Txn Date',
      description: 'Narrative',
      debit: 'Paid Out',
      credit: 'Paid In',
      balance: 'Running Balance',
    },
    // 13/04/2026 settles it.
    dateFormat: 'DD/MM/YYYY',
    sign: 'debit_credit',
    skipRows: 1,
    decimalSeparator: 'auto',
  });
  // The suggestion reads it: 10000 - 1500 + 250.50 - 12 = 8738.50
  const p = parseCsvRows(rows, suggested);
  assert.deepEqual(amounts(p), ['-1500.00', '250.50', '-12.00']);
  assert.deepEqual([p.openingBalance, p.closingBalance], ['10000.00', '8738.50']);
  // Through the one entry point: the 422's reasons say what was found.
  const thrown = assertUnreadable(() => parseStatement(fixture('csv/credit-union.csv'), ZONE));
  assert.match(
    thrown.reasons.join('\n'),
    /the columns found: Txn Date, Narrative, Paid Out, Paid In, Running Balance/,
  );
  assert.match(thrown.reasons.join('\n'), /suggestedMapping/);
});

test('a profile named reads with its layouts only', () => {
  const err = assertUnreadable(() =>
    parseStatement(fixture('csv/capitec-rand.csv'), { ...ZONE, profiles: ['fnb'] }),
  );
  assert.match(err.message, /the fnb profile's columns/);
  const ok = parseStatement(fixture('csv/capitec-rand.csv'), { ...ZONE, profiles: ['capitec'] });
  assert.equal(ok.profile, 'capitec');
});

function assertUnreadable(fn: () => unknown): UnreadableStatement {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UnreadableStatement, String(err));
    return err;
  }
  assert.fail('expected UnreadableStatement');
}

const readText = (text: string | Buffer, ...preferred: CsvProfile[]) => {
  const rows = csvRows(Buffer.isBuffer(text) ? text : Buffer.from(text));
  const found = findLayout(rows, profileOrder(...preferred));
  assert.ok(found, 'no layout found');
  return { found, p: parseCsvRows(rows, found.mapping) };
};

test('month-first dates are found from the file too: 03/13/2026 can only be the 13th of March', () => {
  const { p } = readText(
    'Date,Description,Payments,Deposits,Balance\n03/02/2026,A,10.00,,990.00\n03/05/2026,B,10.00,,980.00\n03/13/2026,C,10.00,,970.00\n',
  );
  assert.deepEqual(p.errors, []);
  assert.deepEqual(
    p.lines.map((l) => l.date),
    ['2026-03-02', '2026-03-05', '2026-03-13'],
  );
  // Two-digit years: 02/03/26 is the 2nd of March 2026.
  const short = readText('Date,Description,Amount,Balance\n02/03/26,A,-5.00,95.00\n13/03/26,B,-5.00,90.00\n');
  assert.deepEqual(
    short.p.lines.map((l) => l.date),
    ['2026-03-02', '2026-03-13'],
  );
});

test('FNB statement conventions: a bare amount is money out beside Cr and Dr amounts, or beside Cr balances', () => {
  // Amounts marked Cr and Dr, one bare: 15000 - 1050 + 10000 - 24000 = -50 (50.00 Dr).
  const both = readText(
    'Date,Description,Amount,Balance\n02 Mar 2026,POS PURCHASE,1050.00,13950.00Cr\n03 Mar 2026,SALARY,10000.00Cr,23950.00Cr\n04 Mar 2026,RENT,24000.00Dr,50.00Dr\n',
  ).p;
  assert.deepEqual(amounts(both), ['-1050.00', '10000.00', '-24000.00']);
  assert.deepEqual([both.openingBalance, both.closingBalance], ['15000.00', '-50.00']);
  assert.equal(checkBalances(both.lines, both.openingBalance, both.closingBalance).status, 'ok');
  // No marker on the amounts, Cr on the balances: debits (14950 - 20 = 14930).
  const bare = readText(
    'Date,Amount,Balance,Description\n2026/03/02,50.00,14950.00Cr,A\n2026/03/03,20.00,14930.00Cr,B\n',
  ).p;
  assert.deepEqual(amounts(bare), ['-50.00', '-20.00']);
  assert.deepEqual(checkBalances(bare.lines, bare.openingBalance, bare.closingBalance).runningGaps, []);
});

test('opening and closing balance rows are not transactions, nor errors', () => {
  const { p } = readText(
    'Date,Description,Amount,Balance\n20260301,OPENING BALANCE,,1000.00\n20260302,SHOP,-10.00,990.00\n20260331,CLOSING BALANCE,,990.00\n',
  );
  assert.deepEqual([amounts(p), p.errors], [['-10.00'], []]);
});

test('Afrikaans headers (Datum, Transaksiebeskrywing, Bedrag, Saldo) are read', () => {
  const { found, p } = readText('Datum,Transaksiebeskrywing,Bedrag,Saldo\n20260302,KOFFIE,-35.50,964.50\n');
  assert.equal(found.profile, 'absa');
  assert.deepEqual([amounts(p), p.openingBalance], [['-35.50'], '1000.00']);
});

test("a UTF-16 file (Excel's Unicode text, tab-separated) is read", () => {
  const text = 'Date\tDescription\tAmount\tBalance\r\n20260302\tCAFÉ\t-35.50\t964.50\r\n';
  const { p } = readText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  assert.deepEqual([amounts(p), p.lines[0]!.description], [['-35.50'], 'CAFÉ']);
});

test('the account a CSV names: a preamble row, an account column, a Standard Bank ACC-NO record', () => {
  assert.equal(read('nedbank.csv').p.accountHint, '1234567890');
  assert.equal(read('investec.csv').p.accountHint, '10012345678');
  assert.equal(read('capitec.csv').p.accountHint, '1234567890');
  assert.equal(read('standard_bank.csv').p.accountHint, '012345678');
  assert.equal(read('fnb.csv').p.accountHint, undefined);
});
