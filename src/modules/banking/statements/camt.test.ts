// CAMT.053 read from files shaped as banks write them (fixtures/camt/), with the figures each must
// give worked out by hand beside the assertions.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkBalances } from './balance.ts';
import { camtKind, parseCamt } from './camt.ts';
import { centsOf, type ParsedStatement, UnreadableStatement } from './types.ts';

const ZONE = { timeZone: 'Africa/Johannesburg' };
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const read = (name: string) => parseCamt(fixture(`camt/${name}`), ZONE);
const amounts = (p: ParsedStatement) => p.lines.map((l) => l.amount);
const entryNumbers = (p: ParsedStatement) => p.lines.map((l) => l.line);

/** A camt.053 holding these statements (the inside of each Stmt). */
const camt053 = (...statements: string[]) =>
  Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
      '<GrpHdr><MsgId>T-1</MsgId></GrpHdr>' +
      statements.map((s) => `\n<Stmt><Id>S</Id>${s}</Stmt>`).join('') +
      '\n</BkToCstmrStmt></Document>\n',
  );
const BOOKED = '<BookgDt><Dt>2026-03-02</Dt></BookgDt>';
const ntry = (amount: string, indicator: string, rest = BOOKED) =>
  `\n<Ntry><Amt Ccy="ZAR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts>${rest}</Ntry>`;
const bal = (code: string, amount: string, indicator = 'CRDT') =>
  `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="ZAR">${amount}</Amt>` +
  `<CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>2026-03-02</Dt></Dt></Bal>`;
const only = (bytes: Uint8Array) => {
  const statements = parseCamt(bytes, ZONE);
  assert.equal(statements.length, 1);
  return statements[0]!;
};
const unreadable = (bytes: Uint8Array | string, message: string | RegExp) =>
  assert.throws(
    () => parseCamt(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, ZONE),
    (e: unknown) =>
      e instanceof UnreadableStatement &&
      (typeof message === 'string' ? e.message === message : message.test(e.message)),
  );

test('several statements: each Stmt its own account, currency, reference, balances and period', () => {
  const statements = read('two-statements.xml');
  assert.equal(statements.length, 2);
  const [zar, eur] = statements as [ParsedStatement, ParsedStatement];

  assert.equal(zar.accountHint, '62812345678');
  assert.equal(zar.currency, 'ZAR');
  assert.equal(zar.reference, '62812345678-20260302');
  assert.deepEqual(zar.errors, []);
  assert.deepEqual(amounts(zar), ['3483.00', '-1250.50', '-35.00']);
  // 75960.15 + 3483.00 = 79443.15; - 1250.50 = 78192.65; - 35.00 = 78157.65
  assert.equal(zar.openingBalance, '75960.15');
  assert.equal(zar.closingBalance, '78157.65');
  assert.equal(zar.derivedBalance, undefined);
  assert.equal(checkBalances(zar.lines, zar.openingBalance, zar.closingBalance).status, 'ok');
  // FrDtTm and ToDtTm carry +02:00: the days they are in Johannesburg.
  assert.equal(zar.periodFrom, '2026-03-02');
  assert.equal(zar.periodTo, '2026-03-02');
  assert.equal(zar.notes, undefined);

  // The IBAN, the currency from a balance (no Acct/Ccy), an overdraft (DBIT balances).
  assert.equal(eur.accountHint, 'DE89370400440532013000');
  assert.equal(eur.currency, 'EUR');
  assert.equal(eur.reference, 'DE89370400440532013000-20260302');
  assert.deepEqual(amounts(eur), ['500.00', '-410.25']);
  // -120.00 + 500.00 = 380.00; - 410.25 = -30.25
  assert.equal(eur.openingBalance, '-120.00');
  assert.equal(eur.closingBalance, '-30.25');
  assert.equal(checkBalances(eur.lines, eur.openingBalance, eur.closingBalance).status, 'ok');
  // FrToDt without a zone (2026-03-01 to 03-04): the lines' first and last days instead.
  assert.equal(eur.periodFrom, '2026-03-02');
  assert.equal(eur.periodTo, '2026-03-03');
});

test('entries are numbered through the whole file, across statements', () => {
  const [zar, eur] = read('two-statements.xml') as [ParsedStatement, ParsedStatement];
  assert.deepEqual(entryNumbers(zar), [1, 2, 3]);
  assert.deepEqual(entryNumbers(eur), [4, 5]);
  // An error names the same number: the second statement's first entry made unreadable.
  const text = fixture('camt/two-statements.xml').toString().replace('500.00</Amt>', 'five hundred</Amt>');
  const broken = parseCamt(Buffer.from(text), ZONE)[1]!;
  assert.deepEqual(broken.errors, [{ line: 4, field: 'Amt', message: 'not an amount: "five hundred"' }]);
  assert.deepEqual(entryNumbers(broken), [5]);
});

test('namespace prefixes, and a statement inside an envelope beside its application header', () => {
  const plain = camt053(bal('OPBD', '10.00') + ntry('2.50', 'DBIT')).toString();
  const prefixed = plain.replace(/<(\/?)([A-Za-z])/g, '<$1ns2:$2').replace('xmlns=', 'xmlns:ns2=');
  assert.match(prefixed, /<ns2:Ntry><ns2:Amt Ccy="ZAR">2.50<\/ns2:Amt>/);
  const p = only(Buffer.from(prefixed));
  assert.deepEqual(amounts(p), ['-2.50']);
  // 10.00 - 2.50 = 7.50
  assert.equal(p.closingBalance, '7.50');
  const enveloped = plain.replace(
    /<Document[^>]*>([\s\S]*)<\/Document>/,
    '<BizMsg xmlns="urn:bank:envelope"><AppHdr><BizMsgIdr>T-1</BizMsgIdr><MsgDefIdr>camt.053.001.08</MsgDefIdr></AppHdr>' +
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">$1</Document></BizMsg>',
  );
  assert.deepEqual(amounts(only(Buffer.from(enveloped))), ['-2.50']);
});

test('an entry: payee, remittance text, end-to-end reference, AcctSvcrRef, value date', () => {
  const [zar] = read('two-statements.xml') as [ParsedStatement];
  assert.deepEqual(zar.lines[0], {
    line: 1,
    date: '2026-03-02',
    valueDate: '2026-03-02',
    amount: '3483.00',
    description: 'PROTEA TRADING (PTY) LTD INV-2026-0311',
    reference: 'PROTEA-INV-2026-0311',
    payee: 'PROTEA TRADING (PTY) LTD',
    externalId: 'FNB20260302-000101',
  });
  // Money out: the creditor is the payee.
  assert.equal(zar.lines[1]!.payee, 'CITY POWER JOHANNESBURG');
  // No details: the entry's own information, no value date.
  assert.equal(zar.lines[2]!.description, 'MONTHLY ACCOUNT FEE');
  assert.equal(zar.lines[2]!.valueDate, null);
  assert.equal(zar.lines[2]!.reference, null);
});

test('the one-statement CAMT fixture reads as it always has', () => {
  const p = only(fixture('camt053.xml'));
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
  assert.equal(p.currency, 'ZAR');
  assert.equal(p.accountHint, '10012345678');
  assert.equal(p.reference, 'STMT-2026-03');
  assert.equal(p.periodFrom, '2026-03-01');
  assert.equal(p.periodTo, '2026-03-31');
});

test('a batch whose transaction details add up: one line per transaction, each its own', () => {
  const p = only(fixture('camt/batches.xml'));
  assert.deepEqual(p.errors, []);
  // Entry 1: 2187.00 + 1296.00 = 3483.00, the entry's credit.
  assert.deepEqual(p.lines.slice(0, 2), [
    {
      line: 1,
      date: '2026-03-05',
      valueDate: '2026-03-05',
      amount: '2187.00',
      description: 'MOKOENA HOLDINGS BULK CREDIT 2 PAYMENTS RF18539007547034',
      reference: 'RF18539007547034',
      payee: 'MOKOENA HOLDINGS',
      externalId: 'BULK-7781/1',
    },
    {
      line: 1,
      date: '2026-03-05',
      valueDate: '2026-03-05',
      amount: '1296.00',
      description: 'NAIDOO & SONS BULK CREDIT 2 PAYMENTS RF712348231',
      reference: 'RF712348231',
      payee: 'NAIDOO & SONS',
      externalId: 'BULK-7781/2',
    },
  ]);
  // Entry 2: a DBIT reversal (RvslInd true) keeps its direction: -(564.05 + 100.00) = -664.05; the
  // amounts from AmtDtls/TxAmt, the sign the entry's, each with its EndToEndId.
  assert.deepEqual(
    p.lines.slice(2, 4).map((l) => [l.line, l.amount, l.reference, l.payee, l.externalId, l.description]),
    [
      [
        2,
        '-564.05',
        'DO-2026-0408',
        'SANTAM INSURANCE',
        '20260305000124/1',
        'SANTAM INSURANCE DEBIT ORDER RETURN',
      ],
      [
        2,
        '-100.00',
        'DO-2026-0407',
        'SANTAM INSURANCE',
        '20260305000124/2',
        'SANTAM INSURANCE DEBIT ORDER RETURN',
      ],
    ],
  );
  // Entry 6: a net credit of 80.00 = 100.00 in (from SNAPSCAN) - 20.00 out (to SNAPSCAN), each signed
  // by its own CdtDbtInd and naming the other party of its own direction.
  assert.deepEqual(
    p.lines.slice(7).map((l) => [l.line, l.amount, l.payee, l.reference, l.description]),
    [
      [6, '100.00', 'SNAPSCAN', 'SNAPSCAN-88', 'SNAPSCAN'],
      [6, '-20.00', 'SNAPSCAN', null, 'SNAPSCAN MERCHANT COMMISSION'],
    ],
  );
  // The statement still ties: 10000.00 + 3483.00 - 664.05 + 1250.00 - 900.00 - 2000.00 + 80.00 = 11248.95
  assert.deepEqual(entryNumbers(p), [1, 1, 2, 2, 3, 4, 5, 6, 6]);
  assert.equal(p.closingBalance, '11248.95');
  assert.equal(checkBalances(p.lines, p.openingBalance, p.closingBalance).status, 'ok');
});

test('a batch whose details do not add up, or lack an amount, stays one line, and a note says why', () => {
  const p = only(fixture('camt/batches.xml'));
  // Entry 3: 500.00 + 400.00 + 300.00 = 1200.00, the entry says 1250.00.
  assert.deepEqual(p.lines[4], {
    line: 3,
    date: '2026-03-05',
    valueDate: null,
    amount: '1250.00',
    description: 'SPEEDPOINT SETTLEMENT 05 MAR',
    reference: 'SETTLE-0305',
    payee: null,
    externalId: '20260305000125',
  });
  // Entry 4: no AddtlNtryInf, no batch id: the count and the entry's reference.
  assert.deepEqual(
    [p.lines[5]!.line, p.lines[5]!.amount, p.lines[5]!.description, p.lines[5]!.reference, p.lines[5]!.payee],
    [4, '-900.00', 'batch of 2 transactions', 'NTRY-0305-04', null],
  );
  assert.deepEqual(p.notes, [
    "entry 3: its 3 transaction details add up to 1200.00, not the entry's 1250.00: kept as one line",
    'entry 4: transaction detail 2 of 2 has no amount: kept as one line',
  ]);
});

test('a batch with a detail in another currency stays one line', () => {
  const details = (amount: string, ccy: string) =>
    `<TxDtls><Amt Ccy="${ccy}">${amount}</Amt><RltdPties><Cdtr><Nm>X</Nm></Cdtr></RltdPties></TxDtls>`;
  const p = only(
    camt053(
      ntry(
        '300.00',
        'DBIT',
        `${BOOKED}<NtryDtls>${details('100.00', 'ZAR')}${details('200.00', 'USD')}</NtryDtls>`,
      ),
    ),
  );
  assert.deepEqual(amounts(p), ['-300.00']);
  assert.deepEqual(p.notes, [
    'entry 1: transaction detail 2 of 2 is in USD, the entry in ZAR: kept as one line',
  ]);
});

test("one transaction detail: one line of the entry's amount, whatever the detail's", () => {
  const p = only(fixture('camt/batches.xml'));
  // Entry 5: the detail's TxAmt is USD 110.00; the account was debited R2000.00.
  const line = p.lines[6]!;
  assert.deepEqual(
    [line.line, line.amount, line.payee, line.description],
    [5, '-2000.00', 'HOPS DIRECT INC', 'HOPS DIRECT INC HOPS ORDER 5521'],
  );
  // EndToEndId NOTPROVIDED is no reference, and the entry has no NtryRef.
  assert.equal(line.reference, null);
  assert.equal(line.externalId, '20260305000127');
});

test('references: structured creditor reference, else EndToEndId unless NOTPROVIDED, else NtryRef', () => {
  const p = only(fixture('camt/details.xml'));
  assert.deepEqual(
    p.lines.map((l) => [l.line, l.reference]),
    [
      [1, 'NR-1001'], // EndToEndId NOTPROVIDED: the entry's NtryRef
      [2, null], // nothing at all
      [3, 'RF47INV2026031'], // Strd/CdtrRefInf/Ref before EndToEndId E2E-COJ-1
      [5, 'E2E-42'],
    ],
  );
  // externalId: the transaction's AcctSvcrRef before the entry's.
  assert.equal(p.lines[2]!.externalId, 'COJ-778812-TX');
  assert.equal(p.lines[0]!.externalId, null);
});

test('parties: the debtor of money in, the creditor of money out; Pty/Nm; an address line without a name', () => {
  const p = only(fixture('camt/details.xml'));
  assert.deepEqual(
    p.lines.map((l) => l.payee),
    ['LERATO DLAMINI', 'WOOLWORTHS SANDTON', 'CITY OF JOHANNESBURG', 'MAKRO <WOODMEAD>'],
  );
});

test('descriptions: party, every Ustrd, AddtlTxInf else AddtlNtryInf, the structured reference without Ustrd', () => {
  const p = only(fixture('camt/details.xml'));
  assert.deepEqual(
    p.lines.map((l) => l.description),
    [
      'LERATO DLAMINI SCHOOL FEES TERM 1',
      // AddtlTxInf, not the entry's AddtlNtryInf (POS PURCHASE)
      'WOOLWORTHS SANDTON CARD PURCHASE 4321',
      // no Ustrd: the structured reference, so that a person sees it
      'CITY OF JOHANNESBURG RF47INV2026031',
      // CDATA as written, character references decoded, the AddtlTxInf repeating the Ustrd once
      'MAKRO <WOODMEAD> REFUND 42 \u2013 CAF\u00c9',
    ],
  );
});

test('dates: a time with a zone is its day in the company zone; without one, the date written', () => {
  const p = only(fixture('camt/details.xml'));
  assert.deepEqual(
    p.lines.map((l) => [l.date, l.valueDate]),
    [
      ['2026-03-05', '2026-03-05'], // 2026-03-04T23:00:00Z and 23:30Z: 01:00 and 01:30 in Johannesburg
      ['2026-03-05', null], // 2026-03-05T10:15:00+02:00
      ['2026-03-05', '2026-03-06'], // 2026-03-05T23:30:00, no zone: as written
      ['2026-03-06', null],
    ],
  );
  assert.deepEqual(p.notes, [
    '1 booking time(s) fall on another day in Africa/Johannesburg than the one written ' +
      '(entry 1: 2026-03-04T23:00:00Z is 2026-03-05): the day in Africa/Johannesburg is taken',
    '1 pending entry (PDNG) not imported: not booked yet, they may change',
  ]);
  // The same file for a company on UTC: the 4th.
  const utc = parseCamt(fixture('camt/details.xml'), { timeZone: 'UTC' })[0]!;
  assert.equal(utc.lines[0]!.date, '2026-03-04');
  assert.deepEqual(utc.notes, ['1 pending entry (PDNG) not imported: not booked yet, they may change']);
  // The example of the zone module: 2014-01-04T23:00:00Z is the 5th in Johannesburg.
  const zoned = only(camt053(ntry('1.00', 'CRDT', '<BookgDt><DtTm>2014-01-04T23:00:00Z</DtTm></BookgDt>')));
  assert.equal(zoned.lines[0]!.date, '2014-01-05');
});

test('pending entries (Sts PDNG, or Sts/Cd PDNG) are not lines, and keep their number', () => {
  const p = only(fixture('camt/details.xml'));
  // Entry 4 is pending (and has no booking date: not an error either).
  assert.deepEqual(entryNumbers(p), [1, 2, 3, 5]);
  assert.deepEqual(p.errors, []);
  const old = only(camt053(ntry('5.00', 'DBIT').replace('BOOK', 'PDNG') + ntry('6.00', 'DBIT')));
  assert.deepEqual(amounts(old), ['-6.00']);
  assert.deepEqual(entryNumbers(old), [2]);
});

test('an entry with no booking date, a malformed, zero or negative amount, or no direction is an error', () => {
  const p = only(
    camt053(
      ntry('10.00', 'CRDT', '<ValDt><Dt>2026-03-02</Dt></ValDt>') +
        ntry('10.00', 'CRDT', '<BookgDt><Dt>2026-02-30</Dt></BookgDt>') +
        ntry('1,234.50', 'DBIT') +
        ntry('12.345', 'DBIT') +
        ntry('0.00', 'DBIT') +
        ntry('-5.00', 'DBIT') +
        ntry('5.00', 'RCDT') +
        ntry('5.00', '') +
        ntry('7.5', 'DBIT'),
    ),
  );
  assert.deepEqual(p.errors, [
    { line: 1, field: 'BookgDt', message: 'no booking date' },
    { line: 2, field: 'BookgDt', message: 'not a date: "2026-02-30"' },
    { line: 3, field: 'Amt', message: 'not an amount: "1,234.50"' },
    { line: 4, field: 'Amt', message: 'not an amount: "12.345"' },
    { line: 5, field: 'Amt', message: 'a zero amount: not a booking' },
    { line: 6, field: 'Amt', message: 'not an amount: "-5.00"' },
    { line: 7, field: 'CdtDbtInd', message: '"RCDT" is neither CRDT nor DBIT' },
    { line: 8, field: 'CdtDbtInd', message: 'no CdtDbtInd (CRDT or DBIT)' },
  ]);
  // The one good entry is read; an XML decimal needs no second decimal.
  assert.deepEqual(amounts(p), ['-7.50']);
  assert.deepEqual(entryNumbers(p), [9]);
});

test('balances: signed by CdtDbtInd; OPBD before PRCD; CLBD closes', () => {
  // 1000.00 - 250.00 = 750.00 (PRCD 999.99 is not the opening when there is an OPBD)
  const p = only(
    camt053(bal('PRCD', '999.99') + bal('OPBD', '1000.00') + bal('CLBD', '750.00') + ntry('250.00', 'DBIT')),
  );
  assert.equal(p.openingBalance, '1000.00');
  assert.equal(p.closingBalance, '750.00');
  assert.equal(p.derivedBalance, undefined);
  // An overdraft: -50.00 - 25.00 = -75.00
  const od = only(
    camt053(bal('PRCD', '50.00', 'DBIT') + bal('CLBD', '75.00', 'DBIT') + ntry('25.00', 'DBIT')),
  );
  assert.equal(od.openingBalance, '-50.00');
  assert.equal(od.closingBalance, '-75.00');
});

test('balances: the missing one derived from the other and the lines, and said to be', () => {
  // Opening only: 1000.00 + 300.00 - 120.50 = 1179.50
  const opening = only(camt053(bal('OPBD', '1000.00') + ntry('300.00', 'CRDT') + ntry('120.50', 'DBIT')));
  assert.equal(opening.openingBalance, '1000.00');
  assert.equal(opening.closingBalance, '1179.50');
  assert.equal(opening.derivedBalance, 'closing');
  // Closing only: 1179.50 - (300.00 - 120.50) = 1000.00
  const closing = only(camt053(bal('CLBD', '1179.50') + ntry('300.00', 'CRDT') + ntry('120.50', 'DBIT')));
  assert.equal(closing.openingBalance, '1000.00');
  assert.equal(closing.closingBalance, '1179.50');
  assert.equal(closing.derivedBalance, 'opening');
  // An unreadable closing is no closing: derived, and said so. 1000.00 + 300.00 = 1300.00
  const unreadableClosing = only(
    camt053(bal('OPBD', '1000.00') + bal('CLBD', '1,300.00') + ntry('300.00', 'CRDT')),
  );
  assert.equal(unreadableClosing.closingBalance, '1300.00');
  assert.equal(unreadableClosing.derivedBalance, 'closing');
  assert.deepEqual(unreadableClosing.notes, [
    'the CLBD balance could not be read (not an amount: "1,300.00"): not used',
  ]);
  // Neither: none.
  const neither = only(camt053(ntry('300.00', 'CRDT')));
  assert.equal(neither.openingBalance, undefined);
  assert.equal(neither.closingBalance, undefined);
  assert.equal(neither.derivedBalance, undefined);
  // Details.xml: OPBD 500.00 + 150.00 - 89.90 - 1000.00 + 42.00 = -397.90 (the pending 777.00 not counted)
  const details = only(fixture('camt/details.xml'));
  assert.equal(details.closingBalance, '-397.90');
  assert.equal(details.derivedBalance, 'closing');
});

test('balances: interim balances (ITBD) alone open (the first) and close (the last) a statement', () => {
  // 200.00 + 50.00 = 250.00, then 250.00 - 30.00 = 220.00: the first and last ITBD.
  const p = only(
    camt053(
      bal('ITBD', '200.00') +
        bal('ITBD', '250.00') +
        bal('ITBD', '220.00') +
        ntry('50.00', 'CRDT') +
        ntry('30.00', 'DBIT'),
    ),
  );
  assert.equal(p.openingBalance, '200.00');
  assert.equal(p.closingBalance, '220.00');
  assert.equal(p.derivedBalance, undefined);
  // Beside an OPBD, an ITBD is not the closing: that is derived. 200.00 + 50.00 = 250.00
  const withOpening = only(camt053(bal('OPBD', '200.00') + bal('ITBD', '999.00') + ntry('50.00', 'CRDT')));
  assert.equal(withOpening.closingBalance, '250.00');
  assert.equal(withOpening.derivedBalance, 'closing');
  // One ITBD alone could be either: not used, and said so.
  const one = only(camt053(bal('ITBD', '200.00') + ntry('50.00', 'CRDT')));
  assert.equal(one.openingBalance, undefined);
  assert.deepEqual(one.notes, [
    'one interim balance (ITBD) of 200.00: whether it opens or closes the statement is not known, so it is not used',
  ]);
});

test('currency: Acct/Ccy, else a balance Amt@Ccy, else the first entry Amt@Ccy', () => {
  const entries = ntry('5.00', 'DBIT').replace('ZAR', 'BWP');
  assert.equal(only(camt053(`<Acct><Ccy>NAD</Ccy></Acct>${bal('OPBD', '1.00')}${entries}`)).currency, 'NAD');
  assert.equal(only(camt053(bal('OPBD', '1.00') + entries)).currency, 'ZAR');
  assert.equal(only(camt053(entries)).currency, 'BWP');
});

test('character sets: ISO-8859-1 as declared; a UTF-8 declaration the bytes break still reads', () => {
  const latin1 = fixture('camt/latin1.xml');
  assert.equal(latin1.indexOf(Buffer.from([0xc9])) > 0, true);
  const p = only(latin1);
  assert.equal(p.lines[0]!.description, 'JOS\u00c9 P\u00c9REZ CAF\u00c9 NOIR');
  assert.equal(p.lines[0]!.payee, 'JOS\u00c9 P\u00c9REZ');
  // The same bytes declared UTF-8 (a bank known to mix them up): not UTF-8, read as Windows-1252.
  const mislabelled = Buffer.from(latin1.toString('latin1').replace('ISO-8859-1', 'UTF-8'), 'latin1');
  assert.equal(only(mislabelled).lines[0]!.description, 'JOS\u00c9 P\u00c9REZ CAF\u00c9 NOIR');
  // Windows-1252's own characters (0x80: the euro sign).
  const cp1252 = Buffer.from(
    latin1.toString('latin1').replace('ISO-8859-1', 'windows-1252').replace('NOIR', '\u0080 2'),
    'latin1',
  );
  assert.equal(only(cp1252).lines[0]!.description, 'JOS\u00c9 P\u00c9REZ CAF\u00c9 \u20ac 2');
  // UTF-16 with its byte order mark, and UTF-8 with its own.
  const text = latin1.toString('latin1').replace('ISO-8859-1', 'UTF-16');
  assert.equal(only(Buffer.from(`\ufeff${text}`, 'utf16le')).lines[0]!.payee, 'JOS\u00c9 P\u00c9REZ');
  const utf8 = Buffer.from(`\ufeff${text.replace('UTF-16', 'UTF-8')}`, 'utf8');
  assert.equal(only(utf8).lines[0]!.payee, 'JOS\u00c9 P\u00c9REZ');
});

test('camtKind: from the message element, else the namespace', () => {
  assert.equal(camtKind(fixture('camt/two-statements.xml')), 'camt.053');
  assert.equal(camtKind(fixture('camt/camt052.xml')), 'camt.052');
  assert.equal(camtKind(fixture('camt/camt054.xml')), 'camt.054');
  assert.equal(camtKind(fixture('camt053.xml').toString()), 'camt.053');
  // A prefixed message element without the namespace nearby; a namespace without the element.
  assert.equal(camtKind('<x:Document xmlns:x="urn:bank"><x:BkToCstmrAcctRpt>'), 'camt.052');
  assert.equal(camtKind('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"/>'), 'camt.054');
  assert.equal(camtKind('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"/>'), null);
  assert.equal(camtKind(fixture('fnb.csv')), null);
  assert.equal(camtKind(fixture('statement-2x.ofx')), null);
});

test('camt.052 and camt.054 are refused by name', () => {
  unreadable(
    fixture('camt/camt052.xml'),
    'a camt.052 intraday account report: its entries can still change; upload the end-of-day camt.053 statement',
  );
  unreadable(
    fixture('camt/camt054.xml'),
    'a camt.054 debit/credit notification (single bookings, often the details of a batch the statement books ' +
      'once): upload the camt.053 statement',
  );
});

test('unreadable: empty, not XML, cut short, malformed, not CAMT, a camt.053 with no Stmt', () => {
  unreadable(Buffer.alloc(0), 'the file is empty');
  unreadable(' \r\n\t', 'the file is empty');
  unreadable(
    'Date,Amount,Description\n2026-03-02,50.00,X\n',
    'not XML: a CAMT statement is an XML file, and this one begins "Date,Amount,Descript"',
  );
  unreadable('{"statements": []}', /^not XML/);
  unreadable(Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'), /^a ZIP archive, not XML/);
  const text = fixture('camt/batches.xml').toString();
  // Cut inside an amount, and inside a tag.
  unreadable(
    text.slice(0, text.indexOf('664.05') + 5),
    /^the file ends inside <Amt> \(opened at line 88\): it looks cut short; download the statement again$/,
  );
  unreadable(
    text.slice(0, text.indexOf('<CdtDbtInd>DBIT') + 5),
    /^the file ends inside <Ntry> \(opened at line 87\)/,
  );
  unreadable(
    text.replace('<Nm>MOKOENA HOLDINGS</Nm>', '<Nm>MOKOENA HOLDINGS</Dbtr>'),
    'the XML is malformed at line 51: </Dbtr> closes <Nm>',
  );
  unreadable(
    text.replace('<NbOfTxs>2</NbOfTxs>', '<NbOfTxs 2>'),
    /^the XML is malformed at line 41: "<NbOfTxs 2>/,
  );
  unreadable(`${text}<Document/>`, /^the XML is malformed at line \d+: a second root element <Document>$/);
  unreadable(
    '<?xml version="1.0"?>\n<Invoice><ID>1</ID></Invoice>',
    'not a CAMT bank statement: an XML file whose root is <Invoice>',
  );
  unreadable(
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>',
    'an ISO 20022 pain.001 message, not a camt.053 bank statement',
  );
  unreadable(
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>X</MsgId>' +
      '</GrpHdr></BkToCstmrStmt></Document>',
    'a camt.053 with no statement in it (no Stmt)',
  );
});

test('a DOCTYPE is refused: no entity of the file, external or internal, is ever expanded', () => {
  const withEntity = (declaration: string) =>
    camt053(
      ntry(
        '1.00',
        'DBIT',
        `${BOOKED}<NtryDtls><TxDtls><RmtInf><Ustrd>&x;</Ustrd></RmtInf></TxDtls></NtryDtls>`,
      ),
    )
      .toString()
      .replace('<Document', `${declaration}\n<Document`);
  const refused = /^the file declares a DOCTYPE, which no bank statement has: it is not read/;
  unreadable(withEntity('<!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'), refused);
  unreadable(withEntity('<!DOCTYPE Document [<!ENTITY x "EXPANDED">]>'), refused);
  // Without a DOCTYPE an undeclared entity is text as written, never looked up.
  assert.equal(only(Buffer.from(withEntity(''))).lines[0]!.description, '&x;');
});

test('performance: 50,000 entries (a tenth of them batches of two) read in under 3 s, count and sum as worked out', () => {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04">' +
      '<BkToCstmrStmt><GrpHdr><MsgId>BIG</MsgId></GrpHdr><Stmt><Id>BIG-1</Id>' +
      '<Acct><Id><Othr><Id>62812345678</Id></Othr></Id><Ccy>ZAR</Ccy></Acct>',
    bal('OPBD', '0.00'),
  ];
  const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  let lines = 0;
  let sum = 0;
  for (let i = 1; i <= 50_000; i++) {
    // R1.00 to R10,000.99; every third entry money in.
    const cents = ((i * 7919) % 1_000_000) + 100;
    const credit = i % 3 === 0;
    const day = String((i % 28) + 1).padStart(2, '0');
    const party = credit
      ? `<Dbtr><Nm>CUSTOMER ${i % 70}</Nm></Dbtr>`
      : `<Cdtr><Nm>SUPPLIER ${i % 50}</Nm></Cdtr>`;
    const tx = (amount: string, n: number) =>
      `<TxDtls><Refs><AcctSvcrRef>TX${i}-${n}</AcctSvcrRef><EndToEndId>E2E-${i}-${n}</EndToEndId></Refs>` +
      `<Amt Ccy="ZAR">${amount}</Amt><RltdPties>${party}</RltdPties><RmtInf><Ustrd>INVOICE ${i}</Ustrd></RmtInf></TxDtls>`;
    // Every tenth a batch of two: a third and the rest.
    const details =
      i % 10 === 0
        ? tx(money(Math.floor(cents / 3)), 1) + tx(money(cents - Math.floor(cents / 3)), 2)
        : tx(money(cents), 1);
    parts.push(
      `\n<Ntry><Amt Ccy="ZAR">${money(cents)}</Amt><CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts>BOOK</Sts>` +
        `<BookgDt><Dt>2026-03-${day}</Dt></BookgDt><ValDt><Dt>2026-03-${day}</Dt></ValDt><AcctSvcrRef>REF${i}</AcctSvcrRef>` +
        `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
        `<NtryDtls>${details}</NtryDtls></Ntry>`,
    );
    lines += i % 10 === 0 ? 2 : 1;
    sum += credit ? cents : -cents;
  }
  // 50,000 entries, 5,000 of them split in two: 55,000 lines.
  assert.equal(lines, 55_000);
  // The closing balance after the opening, where banks write it: 0.00 + the sum.
  parts.splice(2, 0, bal('CLBD', money(Math.abs(sum)), sum < 0 ? 'DBIT' : 'CRDT'));
  parts.push('</Stmt></BkToCstmrStmt></Document>\n');
  const bytes = Buffer.from(parts.join(''));

  // The process's own CPU time, not the wall clock: other test files running beside this one on a
  // loaded machine must not fail it (measured: 5.2 s of wall clock for well under 3 s of work).
  const started = process.cpuUsage();
  const p = only(bytes);
  const used = process.cpuUsage(started);
  const took = (used.user + used.system) / 1000;

  assert.deepEqual(p.errors, []);
  assert.equal(p.notes, undefined);
  assert.equal(p.lines.length, lines);
  assert.equal(p.lines.at(-1)!.line, 50_000);
  let total = 0n;
  for (const l of p.lines) total += centsOf(l.amount);
  assert.equal(total, BigInt(sum));
  assert.equal(centsOf(p.closingBalance!), BigInt(sum));
  assert.ok(
    took < 3000,
    `50,000 entries (${(bytes.length / 1e6).toFixed(1)} MB) took ${Math.round(took)} ms`,
  );
});
