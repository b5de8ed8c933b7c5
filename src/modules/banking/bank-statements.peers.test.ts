// What the peers' published tests expect of statement files, through POST /api/bank-statements:
// Odoo Community's bank-statement-import (CAMT.053 batches and references, OFX with comments and
// several lists, balances) and ofxparse (decimal commas, CDATA, card statements, Windows-1252,
// bank errors). The fixtures are our own, of the same shapes (fixtures/ofx, fixtures/camt); the
// figures are worked out in the comments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { fixture, upload } from './bank-statements.factories.ts';
import { type Banking, bankingSetup } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

/** A company whose FNB account is 62812345678, or an account of the number given. */
async function accountNumbered(number = '62812345678'): Promise<Banking> {
  const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
  if (number === '62812345678') return k;
  const res = await k.api({
    method: 'POST',
    url: '/api/bank-accounts',
    payload: { name: 'Other', accountNumber: number },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { ...k, bankAccountId: res.json().id };
}

async function held(k: Banking) {
  return withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('bank_transactions')
      .select(['date', 'amount', 'description', 'reference', 'payee'])
      .where('bank_account_id', '=', k.bankAccountId)
      .orderBy('source_line')
      .orderBy('amount', 'desc')
      .execute(),
  );
}

async function imported(k: Banking, name: string) {
  const res = await upload(k, fixture(name));
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('OFX, as ofxparse and Odoo test it', () => {
  test('several BANKTRANLISTs, one entry hidden in a comment: every list read, the hidden entry an error', async () => {
    const k = await accountNumbered('4071234567');
    const r = await imported(k, 'ofx/several-lists.ofx');
    // The peer's expectation, in our figures: closing 2156.56 + 80 + 100 + 180 = 2516.56 opening.
    assert.deepEqual([r.rowsNew, r.rowsError], [3, 1]);
    assert.deepEqual([r.balance.openingBalance, r.balance.closingBalance], ['2516.56', '2156.56']);
    assert.deepEqual(r.errors, [{ line: 2, field: 'DTPOSTED', message: 'no DTPOSTED (booking date)' }]);
    assert.deepEqual(
      (await held(k)).map((l) => [l.date, l.amount, l.payee]),
      [
        ['2026-02-05', '-80.00', 'ENGEN BRAAMFONTEIN'],
        ['2026-02-22', '-100.00', 'DIS-CHEM MELVILLE'],
        ['2026-01-25', '-180.00', 'CITY OF JOBURG'],
      ],
    );
    // The card account in the same file is another account's: listed, not imported.
    assert.deepEqual(
      r.statements.map((s: { accountHint: string; outcome: string }) => [s.accountHint, s.outcome]),
      [
        ['4071234567', 'imported'],
        ['5412345678901234', 'other_account'],
      ],
    );
  });

  test('a decimal comma TRNAMT is -1006.60, not -100,660.00', async () => {
    const k = await accountNumbered();
    const ofx = fixture('statement-1x.ofx')
      .toString()
      .replace('<TRNAMT>-1800.00', '<TRNAMT>-1800,00')
      .replace('<TRNAMT>-50.00', '<TRNAMT>-1006,60')
      .replace('<TRNAMT>-50.00', '<TRNAMT>-50,00')
      .replace('<TRNAMT>12500.00', '<TRNAMT>12500,00')
      .replace('<TRNAMT>-6.50', '<TRNAMT>-6,50')
      .replaceAll('<BALAMT>25593.50', '<BALAMT>24637,50');
    const res = await upload(k, ofx);
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    // -1006.60 - 50.00 + 12500.00 - 6.50 - 1800.00 = 9636.90; opening 24637.50 - 9636.90 = 15000.60
    assert.deepEqual(
      (await held(k)).map((l) => l.amount),
      ['-1006.60', '-50.00', '12500.00', '-6.50', '-1800.00'],
    );
    assert.deepEqual([r.balance.openingBalance, r.balance.closingBalance], ['15000.60', '24637.50']);
  });

  test('CDATA read: payee and memo as written, the balance in CDATA too', async () => {
    const k = await accountNumbered('1234567890');
    const r = await imported(k, 'ofx/cdata.ofx');
    const [line] = await held(k);
    assert.equal(line!.payee, 'POS PURCHASE PICK N PAY');
    assert.equal(line!.amount, '-16.85');
    // 1234.12 - (-16.85) = 1250.97
    assert.deepEqual([r.balance.openingBalance, r.balance.closingBalance], ['1250.97', '1234.12']);
  });

  test('a card statement (CCSTMTRS) with a 2.x header and unclosed leaves', async () => {
    const k = await accountNumbered('5412750012345678');
    const r = await imported(k, 'ofx/card-2x-unclosed.ofx');
    // -1234.56 - (-55.50 - 120 - 25 + 1000 = 799.50) = -2034.06
    assert.deepEqual(
      [r.rowsNew, r.balance.openingBalance, r.balance.closingBalance],
      [4, '-2034.06', '-1234.56'],
    );
  });

  test('CHARSET 1252: CAFÉ NOIR, not CAF\uFFFD NOIR', async () => {
    const k = await accountNumbered();
    await imported(k, 'ofx/charset-1252.ofx');
    assert.equal((await held(k))[0]!.description, 'CAFÉ NOIR FRANSCHHOEK € TIP');
  });

  test('a file cut short is refused whole; a bank error status too', async () => {
    const k = await accountNumbered();
    const cut = assertProblem(await upload(k, fixture('ofx/cut-short.ofx')), 422);
    assert.match(String(cut.detail), /cut short: <STMTTRN> opened on line 46 is never closed/);
    const err = assertProblem(await upload(k, fixture('ofx/bank-error.ofx')), 422);
    assert.match(String(err.detail), /code 2000: General Server Error/);
    assert.deepEqual(await held(k), []);
  });
});

describe('CAMT.053, as Odoo tests it', () => {
  test('batched entries: one line per transaction with its own reference and party; the statement ties', async () => {
    const k = await accountNumbered();
    const r = await imported(k, 'camt/batches.xml');
    // 10000.00 + 3483.00 - 664.05 + 1250.00 - 900.00 - 2000.00 + 80.00 = 11248.95
    assert.deepEqual([r.rowsNew, r.balance.status, r.balance.closingBalance], [9, 'ok', '11248.95']);
    const lines = await held(k);
    // 2187.00 + 1296.00 = 3483.00, each with its structured creditor reference.
    assert.deepEqual(
      lines.filter((l) => l.reference?.startsWith('RF')).map((l) => [l.amount, l.reference, l.payee]),
      [
        ['2187.00', 'RF18539007547034', 'MOKOENA HOLDINGS'],
        ['1296.00', 'RF712348231', 'NAIDOO & SONS'],
      ],
    );
    // The DBIT reversal of 664.05 as 564.05 and 100.00, each with its EndToEndId.
    assert.deepEqual(
      lines.filter((l) => l.reference?.startsWith('DO-')).map((l) => [l.amount, l.reference]),
      [
        ['-100.00', 'DO-2026-0407'],
        ['-564.05', 'DO-2026-0408'],
      ],
    );
    // The batch whose details do not add up stays one line; the statement says why.
    assert.match(r.statements[0].notes.join(' '), /entry 3: its 3 transaction details add up to 1200.00/);
  });

  test("booking times with a zone are dated by Johannesburg's clock", async () => {
    const k = await accountNumbered();
    await imported(k, 'camt/details.xml');
    // 2026-03-04T23:00:00Z is 01:00 on the 5th in Johannesburg.
    assert.equal((await held(k))[0]!.date, '2026-03-05');
  });

  test('ISO-8859-1 declared: CAFÉ NOIR', async () => {
    const k = await accountNumbered();
    await imported(k, 'camt/latin1.xml');
    assert.equal((await held(k))[0]!.description, 'JOSÉ PÉREZ CAFÉ NOIR');
  });

  test('camt.052 and camt.054 are refused by name', async () => {
    const k = await accountNumbered();
    assert.match(
      String(assertProblem(await upload(k, fixture('camt/camt052.xml')), 422).detail),
      /camt\.052 intraday/,
    );
    assert.match(
      String(assertProblem(await upload(k, fixture('camt/camt054.xml')), 422).detail),
      /camt\.054 debit\/credit/,
    );
  });

  test('a statement with an opening balance and no closing one gets the closing derived', async () => {
    const k = await accountNumbered();
    const camt = fixture('camt/api-two-days.xml')
      .toString()
      .replace(/<Bal>\s*<Tp><CdOrPrtry><Cd>CLBD<\/Cd>[\s\S]*?<\/Bal>/g, '');
    const r = (await upload(k, camt)).json();
    // 10000.00 - 300.00 + 4500.00 = 14200.00; 14200.00 - 15.00 = 14185.00
    assert.deepEqual(
      r.statements.map((s: { balance: { closingBalance: string; derived: string } }) => [
        s.balance.closingBalance,
        s.balance.derived,
      ]),
      [
        ['14200.00', 'closing'],
        ['14185.00', 'closing'],
      ],
    );
  });

  test('a ZIP, a PDF and an empty file are named for what they are', async () => {
    const k = await accountNumbered();
    const zip = assertProblem(await upload(k, Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1')), 422);
    assert.match(String(zip.detail), /a ZIP archive/);
    assert.match(String(assertProblem(await upload(k, Buffer.from('%PDF-1.7\n')), 422).detail), /a PDF/);
    assert.match(String(assertProblem(await upload(k, Buffer.alloc(0)), 422).detail), /the file is empty/);
  });
});
