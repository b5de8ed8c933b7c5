// The OFX reader against files shaped like the ones banks write: 1.x SGML, 2.x XML, the two mixed,
// comments, CDATA, several statements and lists, error statuses, cut-short downloads, character
// sets, decimal commas and zoned times. Fixtures are under fixtures/ofx/; small cases are inline.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ofxDate, parseOfx } from './ofx.ts';
import { type ParsedStatement, UnreadableStatement } from './types.ts';

const JHB = 'Africa/Johannesburg';
const fixture = (name: string) => readFileSync(new URL(`./fixtures/ofx/${name}`, import.meta.url));
const read = (file: string | Uint8Array) =>
  parseOfx(typeof file === 'string' ? Buffer.from(file, 'utf8') : file, { timeZone: JHB });
const amounts = (p: ParsedStatement) => p.lines.map((l) => l.amount);

/** Asserts the file is refused, with a message matching the pattern; answers the error. */
function refused(file: string | Uint8Array, pattern: RegExp): UnreadableStatement {
  let caught: unknown;
  try {
    read(file);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof UnreadableStatement, `expected UnreadableStatement, got ${String(caught)}`);
  assert.match(caught.message, pattern);
  return caught;
}

const HEADER_1X = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:USASCII',
  'CHARSET:1252',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
  '',
  '',
].join('\n');

/** An OFX 1.x file (SGML, leaves unclosed) of one cheque account holding these STMTTRN. */
function sgml(transactions: string, ledger = '1000.00'): string {
  return `${HEADER_1X}<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260331<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>ZAR<BANKACCTFROM><BANKID>250655<ACCTID>62812345678<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
${transactions}
</BANKTRANLIST>
<LEDGERBAL><BALAMT>${ledger}<DTASOF>20260331</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

/** One STMTTRN, SGML style, with what is given in place of the usual fields. */
function trn(fields: { date?: string; amount?: string; extra?: string } = {}): string {
  const date = fields.date ?? '20260302';
  const amount = fields.amount ?? '-10.00';
  return `<STMTTRN><TRNTYPE>POS<DTPOSTED>${date}<TRNAMT>${amount}<FITID>X1<NAME>SPAR${fields.extra ?? ''}</STMTTRN>`;
}

// ---------------------------------------------------------------------------------------------
// The tokenizer: 1.x, 2.x and the two mixed; case; entities; declarations; comments; CDATA.

test('OFX 1.x SGML (header lines, leaves unclosed): the existing fixture reads as before', () => {
  const [p, ...rest] = parseOfx(readFileSync(new URL('./fixtures/statement-1x.ofx', import.meta.url)), {
    timeZone: JHB,
  });
  assert.equal(rest.length, 0);
  assert.deepEqual(p!.errors, []);
  assert.deepEqual(amounts(p!), ['-50.00', '-50.00', '12500.00', '-6.50', '-1800.00']);
  // "M&G" is no entity: kept as written
  assert.equal(p!.lines[2]!.description, 'MAGTAPE CREDIT M&G ACME INV-0042');
  // 25593.50 - (-50 - 50 + 12500 - 6.50 - 1800 = 10593.50) = 15000.00
  assert.equal(p!.closingBalance, '25593.50');
  assert.equal(p!.openingBalance, '15000.00');
  assert.equal(p!.derivedBalance, 'opening');
  assert.equal(p!.accountHint, '62812345678');
});

test('OFX 2.x XML (every element closed): the existing fixture reads as before', () => {
  const [p] = parseOfx(readFileSync(new URL('./fixtures/statement-2x.ofx', import.meta.url)), {
    timeZone: JHB,
  });
  assert.deepEqual(amounts(p!), ['-200.00', '-200.00', '5000.00', '-12.00', '-1000.00']);
  // 13588.00 - (-200 - 200 + 5000 - 12 - 1000 = 3588) = 10000.00
  assert.equal(p!.openingBalance, '10000.00');
  assert.equal(p!.lines[4]!.reference, '000123');
  assert.equal(p!.accountHint, '4071234567');
});

test('a 2.x header with 1.x-style unclosed leaves: a card statement, empty leaves absent, PAYEE/NAME', () => {
  const [card, ...rest] = read(fixture('card-2x-unclosed.ofx'));
  assert.equal(rest.length, 0);
  assert.deepEqual(card!.errors, []);
  assert.equal(card!.accountHint, '5412750012345678');
  assert.equal(card!.currency, 'ZAR');
  assert.deepEqual(amounts(card!), ['-55.50', '-120.00', '-25.00', '1000.00']);
  // -1234.56 - (-55.50 - 120 - 25 + 1000 = 799.50) = -2034.06
  assert.equal(card!.closingBalance, '-1234.56');
  assert.equal(card!.openingBalance, '-2034.06');
  const [uber, airtime, fee, credit] = card!.lines;
  // MEMO alone: the description; no NAME, no payee. DTUSER is the value date.
  assert.equal(uber!.description, 'UBER TRIP SANDTON');
  assert.equal(uber!.payee, null);
  assert.equal(uber!.date, '2026-04-08');
  assert.equal(uber!.valueDate, '2026-04-06');
  // <FITID> and <NAME> with no text: absent, and what followed them still read
  assert.equal(airtime!.externalId, null);
  assert.equal(airtime!.payee, null);
  assert.equal(airtime!.description, 'AIRTIME PREPAID');
  // Neither NAME nor MEMO: TRNTYPE; DTAVAIL before DTUSER; REFNUM the reference
  assert.equal(fee!.description, 'FEE');
  assert.equal(fee!.valueDate, '2026-04-10');
  assert.equal(fee!.reference, 'FEE-APR');
  // PAYEE/NAME when there is no NAME; CHECKNUM before REFNUM
  assert.equal(credit!.payee, 'KAROO TRADERS');
  assert.equal(credit!.description, 'KAROO TRADERS');
  assert.equal(credit!.reference, '004512');
  assert.equal(card!.periodFrom, '2026-03-11');
  assert.equal(card!.periodTo, '2026-04-09');
});

test('tag names are case-insensitive', () => {
  const lower = sgml(trn({ amount: '-10.00' }))
    .replace(/<(\/?)([A-Z]+)>/g, (_, slash: string, name: string) => `<${slash}${name.toLowerCase()}>`)
    .replace('<stmttrn>', '<StmtTrn>');
  const [p] = read(lower);
  // 1000.00 - (-10.00) = 1010.00
  assert.deepEqual(amounts(p!), ['-10.00']);
  assert.equal(p!.openingBalance, '1010.00');
  assert.equal(p!.accountHint, '62812345678');
});

test('entities: the five of XML and character references decoded, any other & kept as written', () => {
  const name = 'M&amp;G &lt;PTY&gt; &quot;Q&quot; &apos;A&apos; &#65;&#x42;&#X43; AT&T &nbsp; &#0; &#xD800;';
  const [p] = read(sgml(trn({ extra: `<MEMO>${name}` })));
  assert.equal(p!.lines[0]!.description, `SPAR M&G <PTY> "Q" 'A' ABC AT&T &nbsp; &#0; &#xD800;`);
});

test('a DOCTYPE with ENTITY declarations is skipped, never expanded (no XXE)', () => {
  const doctype =
    '<!DOCTYPE OFX [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n  <!ENTITY boom "x>y">\n]>\n';
  const file = sgml(trn({ extra: '<MEMO>&xxe;&boom;' })).replace('<OFX>', `${doctype}<OFX>`);
  const [p] = read(file);
  assert.equal(p!.lines[0]!.description, 'SPAR &xxe;&boom;');
  assert.doesNotMatch(JSON.stringify(p), /root:/);
});

test('comments are never read: hidden fields make a row error, a hidden STMTTRN does not exist', () => {
  const [bank, card, ...rest] = read(fixture('several-lists.ofx'));
  assert.equal(rest.length, 0);
  // The second list's STMTTRN lost DTPOSTED, TRNAMT and FITID to a comment: entry 2, no date.
  assert.deepEqual(bank!.errors, [{ line: 2, field: 'DTPOSTED', message: 'no DTPOSTED (booking date)' }]);
  // The whole STMTTRN commented out (-999.99, "NEVER READ") is nowhere.
  assert.doesNotMatch(JSON.stringify(bank), /NEVER READ|999\.99/);
  assert.equal(card!.lines.length, 0);
});

test("a comment may span lines and sit inside a leaf's text; an unclosed comment is a cut-short file", () => {
  const [p] = read(sgml(trn({ extra: '<MEMO>BRAAM<!-- a\n<TRNAMT>-999.00\n -->FONTEIN' })));
  assert.equal(p!.lines[0]!.description, 'SPAR BRAAMFONTEIN');
  assert.deepEqual(amounts(p!), ['-10.00']);
  refused(
    sgml(trn()).replace('</BANKTRANLIST>', '<!-- </BANKTRANLIST>'),
    /cut short.*comment opened on line/,
  );
});

test('CDATA is read as text, trimmed, with its < > & as written', () => {
  const [p] = read(fixture('cdata.ofx'));
  const line = p!.lines[0]!;
  assert.equal(line.payee, 'POS PURCHASE PICK N PAY');
  // CDATA then text in one leaf: joined; "&amp;" outside CDATA decoded, "R&D" inside it as written
  assert.equal(line.description, 'POS PURCHASE PICK N PAY PICK N PAY <GREENSIDE> R&D ALCOHOL & GROCERIES');
  assert.deepEqual(amounts(p!), ['-16.85']);
  // BALAMT in CDATA: 1234.12 - (-16.85) = 1250.97
  assert.equal(p!.closingBalance, '1234.12');
  assert.equal(p!.openingBalance, '1250.97');
});

test('CDATA may hold "<" and ">" (<![CDATA[></tricky]]>): nothing in it is a tag', () => {
  const [p] = read(sgml(trn({ extra: '<MEMO><![CDATA[></tricky <STMTTRN>]]>' })));
  assert.equal(p!.lines.length, 1);
  assert.equal(p!.lines[0]!.description, 'SPAR ></tricky <STMTTRN>');
});

test('XML empty elements (<NAME/>) are empty leaves', () => {
  const [p] = read(
    sgml('<STMTTRN><TRNTYPE>POS<DTPOSTED>20260302<TRNAMT>-5.00<FITID/><NAME/><MEMO>X</STMTTRN>'),
  );
  assert.equal(p!.lines[0]!.externalId, null);
  assert.equal(p!.lines[0]!.payee, null);
  assert.equal(p!.lines[0]!.description, 'X');
});

// ---------------------------------------------------------------------------------------------
// Files that do not close, or close wrongly.

test('a download cut short mid-transaction is refused, naming the element left open', () => {
  // The file ends at "<TRNAMT>-316." inside the second STMTTRN, which opens on line 46
  const err = refused(fixture('cut-short.ofx'), /cut short: <STMTTRN> opened on line 46 is never closed/);
  assert.match(err.reasons[0]!, /OFX > BANKMSGSRSV1 > STMTTRNRS > STMTRS > BANKTRANLIST > STMTTRN$/);
  assert.equal(err.details.unclosed, 'STMTTRN');
});

test('a file that ends before </OFX> is refused; whitespace after </OFX> is fine', () => {
  const whole = sgml(trn());
  refused(whole.slice(0, whole.indexOf('</OFX>')), /cut short: <OFX> opened on line \d+ is never closed/);
  assert.equal(read(`${whole}\n\n  \t\n`).length, 1);
  refused(`${whole}<OFX>`, /goes on after <\/OFX>/);
  refused(`${whole}trailing words`, /goes on after <\/OFX>/);
});

test('a file cut inside a tag, a CDATA or a processing instruction is refused', () => {
  const whole = sgml(trn());
  refused(whole.slice(0, whole.indexOf('</BANKTRANLIST>') + 6), /cut short: it ends inside the tag <\/BANK/);
  refused(whole.replace('<NAME>SPAR', '<NAME><![CDATA[SPAR'), /cut short: it ends inside a CDATA section/);
  refused('<?xml version="1.0"?><?OFX OFXHEADER="200"', /cut short: it ends inside a processing instruction/);
});

test('a close tag that closes nothing open is refused', () => {
  refused(sgml(`${trn()}</STMTTRN>`), /<\/STMTTRN> on line \d+ closes no element that is open/);
});

test('an aggregate left open before its parent closes is refused; an unclosed empty leaf is not', () => {
  // <STMTTRN> never closed before </BANKTRANLIST>
  refused(
    sgml('<STMTTRN><TRNTYPE>POS<DTPOSTED>20260302<TRNAMT>-1.00'),
    /<STMTTRN> opened on line \d+ is not closed before <\/BANKTRANLIST>/,
  );
  // An unknown element holding an aggregate was an aggregate: refused too
  refused(sgml(`<XTRA>${trn()}`), /<XTRA> opened on line \d+ is not closed/);
});

// ---------------------------------------------------------------------------------------------
// Statements: every one of the file, every list of each.

test('every STMTRS and CCSTMTRS is a statement: own account, currency, balances; lines numbered across the file', () => {
  const [cheque, savings, card, ...rest] = read(fixture('multiple-statements.ofx'));
  assert.equal(rest.length, 0);
  assert.equal(cheque!.accountHint, '62812345678');
  assert.equal(cheque!.currency, 'ZAR');
  assert.deepEqual(amounts(cheque!), ['-45.90', '15000.00', '-69.00']);
  // 20885.10 - (-45.90 + 15000.00 - 69.00 = 14885.10) = 6000.00
  assert.equal(cheque!.closingBalance, '20885.10');
  assert.equal(cheque!.openingBalance, '6000.00');
  assert.equal(cheque!.derivedBalance, 'opening');
  assert.equal(cheque!.lines[1]!.description, 'SALARY KAROO TRADERS MAR 2026');
  assert.equal(cheque!.periodFrom, '2026-03-01');
  assert.equal(cheque!.periodTo, '2026-03-31');
  // No transactions, just a LEDGERBAL: still a statement. 50000.00 - 0 = 50000.00
  assert.equal(savings!.accountHint, '62898765432');
  assert.deepEqual(savings!.lines, []);
  assert.equal(savings!.closingBalance, '50000.00');
  assert.equal(savings!.openingBalance, '50000.00');
  assert.equal(savings!.periodFrom, undefined);
  // The card: CCACCTFROM/ACCTID, its own currency. -3250.50 - (-1299.00 + 2500.00 = 1201.00) = -4451.50
  assert.equal(card!.accountHint, '4901234567890123');
  assert.equal(card!.currency, 'USD');
  assert.deepEqual(amounts(card!), ['-1299.00', '2500.00']);
  assert.equal(card!.openingBalance, '-4451.50');
  // Entries numbered 1..5 through the whole file, statement after statement
  assert.deepEqual(
    [cheque!, savings!, card!].map((s) => s.lines.map((l) => l.line)),
    [[1, 2, 3], [], [4, 5]],
  );
});

test('every BANKTRANLIST of a statement is read, in order; the period is the earliest start to the latest end', () => {
  const [bank, card] = read(fixture('several-lists.ofx'));
  assert.deepEqual(amounts(bank!), ['-80.00', '-100.00', '-180.00']);
  assert.deepEqual(
    bank!.lines.map((l) => [l.line, l.date, l.payee]),
    [
      [1, '2026-02-05', 'ENGEN BRAAMFONTEIN'],
      [3, '2026-02-22', 'DIS-CHEM MELVILLE'],
      [4, '2026-01-25', 'CITY OF JOBURG'],
    ],
  );
  // 2156.56 + 80 + 100 + 180 = 2516.56 (the commented-out entry is an error, not a line)
  assert.equal(bank!.closingBalance, '2156.56');
  assert.equal(bank!.openingBalance, '2516.56');
  assert.match(bank!.notes![0]!, /the entry that could not be read is not in it/);
  // Lists 1-4 run 02-01..02-10, 02-11..02-20, 02-21..02-28, 01-15..01-31
  assert.equal(bank!.periodFrom, '2026-01-15');
  assert.equal(bank!.periodTo, '2026-02-28');
  assert.equal(bank!.currency, 'ZAR');
  assert.equal(bank!.accountHint, '4071234567');
  // The card: an empty list and a LEDGERBAL: -562.00 both ends
  assert.deepEqual(card!.lines, []);
  assert.equal(card!.accountHint, '5412345678901234');
  assert.equal(card!.closingBalance, '-562.00');
  assert.equal(card!.openingBalance, '-562.00');
});

// ---------------------------------------------------------------------------------------------
// The bank's status.

test("a statement response in error refuses the file, naming the bank's code and message", () => {
  const err = refused(
    fixture('bank-error.ofx'),
    /STMTTRNRS with an error \(code 2000: General Server Error\)/,
  );
  assert.deepEqual(err.reasons, ['STMTTRNRS: code 2000: General Server Error']);
});

test('a signon in error refuses the file', () => {
  refused(fixture('signon-error.ofx'), /refused the sign-on \(code 15500: Invalid user ID or password\)/);
});

test('one statement response in error refuses the file even when others are fine (none is half-imported)', () => {
  const good = read(fixture('multiple-statements.ofx'));
  assert.equal(good.length, 3);
  const broken = fixture('multiple-statements.ofx')
    .toString('utf8')
    .replace(
      /<TRNUID>7002<\/TRNUID>\s*<STATUS>\s*<CODE>0<\/CODE>\s*<SEVERITY>INFO<\/SEVERITY>/,
      '<TRNUID>7002</TRNUID><STATUS><CODE>2000</CODE><SEVERITY>ERROR</SEVERITY><MESSAGE>Try later</MESSAGE>',
    );
  refused(broken, /STMTTRNRS with an error \(code 2000: Try later\)/);
});

test('a warning status keeps the statement and says so in a note', () => {
  const [p] = read(
    sgml(trn()).replace(
      '<TRNUID>1<STATUS><CODE>0<SEVERITY>INFO',
      '<TRNUID>1<STATUS><CODE>2003<SEVERITY>WARN<MESSAGE>Partial history',
    ),
  );
  assert.deepEqual(amounts(p!), ['-10.00']);
  assert.deepEqual(p!.notes, ['the bank warned with this statement (code 2003: Partial history)']);
});

// ---------------------------------------------------------------------------------------------
// Amounts: the file's decimal mark.

for (const [written, expected] of [
  ['-1006,60', '-1006.60'],
  ['-1.006,60', '-1006.60'],
  ['-1,006.60', '-1006.60'],
  ['+1,006.60', '1006.60'],
  ['+1 006,60', '1006.60'],
  ['-80', '-80.00'],
] as const)
  test(`TRNAMT "${written}" reads ${expected} (the mark decided by the file's amounts)`, () => {
    // The LEDGERBAL 0 has no mark: the TRNAMT alone decides. 0 - (expected) = -(expected)
    const [p] = read(sgml(trn({ amount: written }), '0'));
    assert.deepEqual(p!.errors, []);
    assert.deepEqual(amounts(p!), [expected]);
    assert.equal(p!.closingBalance, '0.00');
    assert.equal(p!.openingBalance, expected.startsWith('-') ? expected.slice(1) : `-${expected}`);
  });

test('the mark is decided once for the file: a comma-decimal BALAMT makes "1.234" a thousand', () => {
  // "5.000,00" says comma; so "-1.234" is -1234.00 and "50,5" 50.50. 5000 - (-1234 + 50.50) = 6183.50
  const [p] = read(sgml(trn({ amount: '-1.234' }) + trn({ amount: '50,5' }), '5.000,00'));
  assert.deepEqual(amounts(p!), ['-1234.00', '50.50']);
  assert.equal(p!.closingBalance, '5000.00');
  assert.equal(p!.openingBalance, '6183.50');
});

test('only "1,234"-like amounts: each lone mark is the decimal (OFX has no thousands separator)', () => {
  // "1,234" is three decimals: an error, never 1234. "-2,500" is -2.50; BALAMT "10,250" is 10.25.
  // 10.25 - (-2.50) = 12.75
  const [p] = read(sgml(trn({ amount: '1,234' }) + trn({ amount: '-2,500' }), '10,250'));
  assert.deepEqual(amounts(p!), ['-2.50']);
  assert.equal(p!.errors.length, 1);
  assert.equal(p!.errors[0]!.line, 1);
  assert.equal(p!.errors[0]!.field, 'TRNAMT');
  assert.match(p!.errors[0]!.message, /not an amount: "1,234" \(OFX writes no thousands separator/);
  assert.equal(p!.closingBalance, '10.25');
  assert.equal(p!.openingBalance, '12.75');
});

test('amounts with both marks as decimals: the file is refused', () => {
  const err = refused(sgml(trn({ amount: '-1,50' }) + trn({ amount: '-2.50' })), /amounts cannot be read/);
  assert.deepEqual(err.reasons, [
    'the amounts use both marks: "2.50" has a decimal point, "1,50" a decimal comma',
  ]);
});

test('row errors: no, empty or impossible DTPOSTED; unreadable, "null", zero or missing TRNAMT', () => {
  const [p] = read(fixture('row-errors.ofx'));
  assert.deepEqual(p!.errors, [
    { line: 1, field: 'DTPOSTED', message: 'no DTPOSTED (booking date)' },
    { line: 2, field: 'DTPOSTED', message: 'no DTPOSTED (booking date)' },
    { line: 3, field: 'DTPOSTED', message: 'not an OFX date: "20260230"' },
    { line: 4, field: 'DTPOSTED', message: 'not an OFX date: "20261301"' },
    { line: 5, field: 'DTPOSTED', message: 'not an OFX date: "00000000"' },
    { line: 6, field: 'TRNAMT', message: 'not an amount: "$120"' },
    { line: 7, field: 'TRNAMT', message: 'not an amount: "null"' },
    { line: 8, field: 'TRNAMT', message: 'a zero amount: "0.00"' },
    { line: 9, field: 'TRNAMT', message: 'no TRNAMT (amount)' },
  ]);
  assert.deepEqual(
    p!.lines.map((l) => [l.line, l.amount, l.description]),
    [[10, '350.00', 'DEP']],
  );
  // A blank BALAMT: no closing balance, so no opening either
  assert.equal(p!.closingBalance, undefined);
  assert.equal(p!.openingBalance, undefined);
});

test('a LEDGERBAL that is not an amount: no balances, and a note', () => {
  const [p] = read(sgml(trn(), 'n/a'));
  assert.equal(p!.closingBalance, undefined);
  assert.deepEqual(p!.notes, [
    'the closing balance (LEDGERBAL) "n/a" is not an amount: the statement has none',
  ]);
});

// ---------------------------------------------------------------------------------------------
// Dates.

test('ofxDate: a date alone, or a time with no zone, is the day as written', () => {
  assert.equal(ofxDate('20260302', JHB), '2026-03-02');
  assert.equal(ofxDate('20140104230000', JHB), '2014-01-04');
  assert.equal(ofxDate('20130824080000', JHB), '2013-08-24');
  assert.equal(ofxDate('20260302235959.999', JHB), '2026-03-02');
  // A bracket with no offset says nothing of the instant: as written
  assert.equal(ofxDate('20140104230000[EST]', JHB), '2014-01-04');
  // A date alone with a zone: still that date
  assert.equal(ofxDate('20140104[-5:EST]', JHB), '2014-01-04');
});

test("ofxDate: a time with its zone is that instant's day in the company's zone", () => {
  // 23:00 GMT on the 4th is 01:00 SAST on the 5th
  assert.equal(ofxDate('20140104230000[0:GMT]', JHB), '2014-01-05');
  // 12:20:17 EST is 17:20:17 UTC, 19:20:17 SAST: the same day
  assert.equal(ofxDate('20090401122017.000[-5:EST]', JHB), '2009-04-01');
  // 23:01 at -6 is 05:01 UTC on 1 March (2012 is a leap year: 29 Feb exists), 07:01 SAST
  assert.equal(ofxDate('20120229230100 [-6:CAT]', JHB), '2012-03-01');
  // 20:00 at -5.5 (five and a half hours) is 01:30 UTC on the 13th, 03:30 SAST
  assert.equal(ofxDate('20120412200000 [-5.5:XXX]', JHB), '2012-04-13');
  // In UTC, so that half an hour shows: 21:00 at -3.5 is 00:30 on the 13th, 20:00 at -3.5 is 23:30 on the 12th
  assert.equal(ofxDate('20120412210000[-3.5:NST]', 'UTC'), '2012-04-13');
  assert.equal(ofxDate('20120412200000[-3.5:NST]', 'UTC'), '2012-04-12');
  // "+5.30" is five hours thirty: 05:00 IST is 23:30 UTC the day before
  assert.equal(ofxDate('20120413050000[+5.30:IST]', 'UTC'), '2012-04-12');
  // 01:00 JST (+9) on the 23rd is 16:00 UTC on the 22nd, 18:00 SAST on the 22nd
  assert.equal(ofxDate('20120923010000[+9:JST]', JHB), '2012-09-22');
  // 23:30 at +2 is 21:30 UTC: the same day in Johannesburg
  assert.equal(ofxDate('20260302233000[+2:SAST]', JHB), '2026-03-02');
});

test('ofxDate: not a date is null', () => {
  for (const bad of [
    '00000000',
    '20261301',
    '20260230',
    '20250229',
    '881103',
    'abcdLOL!',
    '20260302250000',
    '',
  ])
    assert.equal(ofxDate(bad, JHB), null, bad);
  assert.equal(ofxDate(undefined, JHB), null);
  assert.equal(ofxDate('20240229', JHB), '2024-02-29');
});

test("a zoned DTPOSTED moves to the company's day; DTUSER likewise as the value date", () => {
  const [p] = read(
    sgml(
      trn({ date: '20140104230000[0:GMT]', extra: '<DTUSER>20140104220000[0:GMT]' }) +
        trn({ date: '20140104230000', amount: '-20.00' }),
    ),
  );
  // 23:00 GMT = 01:00 SAST on the 5th; 22:00 GMT = 00:00 SAST on the 5th; no zone: the 4th as written
  assert.deepEqual(
    p!.lines.map((l) => [l.date, l.valueDate]),
    [
      ['2014-01-05', '2014-01-05'],
      ['2014-01-04', null],
    ],
  );
});

// ---------------------------------------------------------------------------------------------
// Character sets.

test('OFX 1.x CHARSET 1252 (with a space after the colon): É and € read as written', () => {
  const bytes = fixture('charset-1252.ofx');
  assert.equal(bytes.includes(0xc9), true); // É is one byte, not UTF-8
  const [p] = read(bytes);
  assert.equal(p!.lines[0]!.payee, 'CAFÉ NOIR');
  assert.equal(p!.lines[0]!.description, 'CAFÉ NOIR FRANSCHHOEK € TIP');
  // 961.50 - (-38.50) = 1000.00
  assert.equal(p!.openingBalance, '1000.00');
});

test('OFX 2.x encoding="ISO-8859-1": É read as written', () => {
  const [p] = read(fixture('charset-latin1-2x.ofx'));
  assert.equal(p!.lines[0]!.payee, 'CAFÉ NOIR');
  assert.equal(p!.lines[0]!.description, 'CAFÉ NOIR PÂTISSERIE à STELLENBOSCH');
});

test('CHARSET:ISO-8859-1 in a 1.x header, and a UTF-8 file that says nothing, both read', () => {
  const latin1 = Buffer.from(
    sgml(trn({ extra: '<MEMO>CRÈCHE' })).replace('CHARSET:1252', 'CHARSET:ISO-8859-1'),
    'latin1',
  );
  assert.equal(read(latin1)[0]!.lines[0]!.description, 'SPAR CRÈCHE');
  const utf8 = Buffer.from(sgml(trn({ extra: '<MEMO>CRÈCHE' })).replace('CHARSET:1252\n', ''), 'utf8');
  assert.equal(read(utf8)[0]!.lines[0]!.description, 'SPAR CRÈCHE');
});

// ---------------------------------------------------------------------------------------------
// Files that are not statements.

test('an empty file, or only whitespace, is refused as empty', () => {
  refused('', /^the file is empty$/);
  refused(' \n\t\r\n ', /^the file is empty$/);
});

test('a file with no <OFX> element is not an OFX file', () => {
  refused('Date,Amount\n2026-03-02,-10.00\n', /^not an OFX file/);
  refused('<html><body>Session expired</body></html>', /^not an OFX file/);
  refused(`${HEADER_1X}<!-- <OFX> --> nothing here`, /^not an OFX file/);
});

test('an OFX with no bank or card statement says what it holds', () => {
  const err = refused(
    fixture('investment.ofx'),
    /^the OFX holds no bank or card statement \(STMTRS, CCSTMTRS\): it holds INVSTMTRS$/,
  );
  assert.deepEqual(err.details.holds, ['INVSTMTRS']);
});

// ---------------------------------------------------------------------------------------------
// Size.

test('50,000 transactions parse in under 3 s, every one read', () => {
  const count = 50_000;
  const parts: string[] = [];
  let cents = 0n;
  for (let i = 0; i < count; i++) {
    // Amounts -0.01 .. -9.99 and +10.00 .. +19.99, alternating
    const c = i % 2 === 0 ? -(1 + (i % 999)) : 1000 + (i % 1000);
    cents += BigInt(c);
    const abs = Math.abs(c);
    const text = `${c < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
    parts.push(
      `<STMTTRN>\n<TRNTYPE>POS\n<DTPOSTED>20260302\n<TRNAMT>${text}\n<FITID>F${i}\n<NAME>SHOP ${i}\n<MEMO>BRANCH\n</STMTTRN>\n`,
    );
  }
  // The sum by hand, in cents. Odd i (25,000): 1000 each, and i % 1000 runs over the odd residues
  // 1..999 (sum 500² = 250,000) 50 times: 25,000,000 + 12,500,000 = 37,500,000. Even i = 2m
  // (25,000): -1 each, and 2m % 999 runs over 0..998 (sum 498,501) 25 times, then 0, 2, .., 48
  // (sum 600): -(25,000 + 12,462,525 + 600) = -12,488,125. Together 25,011,875 cents = 250118.75;
  // with an opening of 1000.00 the LEDGERBAL is 251118.75.
  assert.equal(cents, 25_011_875n);
  const bytes = Buffer.from(sgml(parts.join(''), '251118.75'), 'utf8');
  // The process's own CPU time, not the wall clock: other test files running beside this one on a
  // loaded machine must not fail it (measured: 4.0 s of wall clock for well under 3 s of work).
  const started = process.cpuUsage();
  const [p] = parseOfx(bytes, { timeZone: JHB });
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000;
  assert.equal(p!.lines.length, count);
  assert.deepEqual(p!.errors, []);
  let sum = 0n;
  for (const l of p!.lines) sum += BigInt(l.amount.replace('.', ''));
  assert.equal(sum, 25_011_875n);
  assert.equal(p!.lines.at(-1)!.line, count);
  assert.equal(p!.openingBalance, '1000.00');
  assert.ok(elapsed < 3000, `took ${Math.round(elapsed)} ms`);
});

test('100,000 nested elements neither overflow the stack nor take long', () => {
  // 1.x-style elements never closed, all closed by </BANKTRANLIST>: empty leaves, flattened in one pass
  const started = process.cpuUsage(); // CPU time, as above
  const [p] = read(sgml(`${trn()}${'<X>'.repeat(100_000)}`));
  assert.deepEqual(amounts(p!), ['-10.00']);
  // Cut short inside them: refused, the path said in a line
  const err = refused(`<OFX>${'<X>'.repeat(100_000)}`, /cut short: <X> opened on line 1 is never closed/);
  assert.ok(err.reasons[0]!.length < 120);
  const used = process.cpuUsage(started);
  assert.ok((used.user + used.system) / 1000 < 2000);
});
