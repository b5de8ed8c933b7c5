// Statement files as banks really write them, through POST /api/bank-statements: SA banks' CSV
// layouts and decimal commas read right, files of several statements each to their own account,
// a file that gives no line refused and recorded nowhere, a re-import answering its own counts,
// big previews answering counts and the first 100 notes. Figures worked out in the comments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { fetched } from '../invoices/invoices.factories.ts';
import { fixture, upload } from './bank-statements.factories.ts';
import { type Banking, bankingSetup } from './banking.factories.ts';
import { invoiceOf, reconSetup } from './reconciliation.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));

async function held(k: Banking) {
  const rows = await withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('bank_transactions')
      .select(['date', 'amount'])
      .where('bank_account_id', '=', k.bankAccountId)
      .orderBy('date')
      .orderBy('sequence')
      .execute(),
  );
  return rows.map((r) => [r.date, r.amount]);
}

async function statementsOf(k: Banking) {
  return (await k.api({ method: 'GET', url: '/api/bank-statements' })).json().total as number;
}

/** Another bank account of the company. */
async function accountOf(k: Banking, payload: Record<string, unknown>): Promise<Banking> {
  const res = await k.api({
    method: 'POST',
    url: '/api/bank-accounts',
    payload: { name: 'Other', ...payload },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { ...k, bankAccountId: res.json().id };
}

describe('statement files as banks write them', () => {
  test('a decimal comma file: -1 234,56 is minus 1,234.56, and the balances tie out on the real figures', async () => {
    const k = await setup();
    const res = await upload(k, fixture('csv/absa-decimal-comma.csv'));
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    // Read cell by cell this was -123456.00 with "ok" balances. 10000 - 1234.56 + 2500 - 7.50 = 11257.94
    assert.deepEqual([r.profile, r.rowsNew, r.balance.status], ['absa', 3, 'ok']);
    assert.deepEqual([r.balance.openingBalance, r.balance.closingBalance], ['10000.00', '11257.94']);
    assert.deepEqual(await held(k), [
      ['2026-03-02', '-1234.56'],
      ['2026-03-03', '2500.00'],
      ['2026-03-04', '-7.50'],
    ]);
  });

  test("FNB's Cr-marked export: money out stays money out", async () => {
    const k = await setup();
    const r = (await upload(k, fixture('csv/fnb-cr.csv'))).json();
    // 15000 - 50 + 12500 - 6.50 - 1800 = 25643.50
    assert.deepEqual([r.rowsNew, r.balance.status, r.balance.closingBalance], [4, 'ok', '25643.50']);
    assert.deepEqual(
      (await held(k)).map(([, a]) => a),
      ['-50.00', '12500.00', '-6.50', '-1800.00'],
    );
  });

  test("the SA banks' layouts are found from the header, whichever bank the account is at", async () => {
    const k = await setup(); // an FNB account
    // Standard Bank's Payments / Deposits export gave 201 with 0 rows and 0 errors: 5000 - 75 + 2200 - 4.95
    const sb = (await upload(k, fixture('csv/standard-bank-online.csv'))).json();
    assert.deepEqual(
      [sb.profile, sb.layout, sb.rowsNew, sb.balance.closingBalance],
      ['standard_bank', 'Standard Bank transactions (payments and deposits)', 3, '7120.05'],
    );
    assert.match(
      sb.warnings.join(' '),
      /read as Standard Bank transactions \(payments and deposits\), though the account is at fnb/,
    );
    // Capitec's export names its account (1234567890): not this FNB account's, refused here.
    const refused = assertProblem(await upload(k, fixture('csv/capitec-rand.csv')), 422);
    assert.deepEqual(refused.accountsFound, ['1234567890']);
    const capitecAccount = await accountOf(k, { bank: 'capitec', accountNumber: '1234567890' });
    const capitec = (await upload(capitecAccount, fixture('csv/capitec-rand.csv'))).json();
    // 5000 - 1234.56 + 12500 - 7.50 - 502 = 15755.94
    assert.deepEqual(
      [capitec.profile, capitec.rowsNew, capitec.balance.closingBalance],
      ['capitec', 4, '15755.94'],
    );
    const absa = (await upload(k, fixture('csv/absa-signed.csv'))).json();
    assert.deepEqual([absa.profile, absa.rowsNew, absa.balance.closingBalance], ['absa', 4, '10800.94']);
    const ned = (await upload(k, fixture('csv/nedbank-tranlist.csv'))).json();
    assert.deepEqual([ned.profile, ned.rowsNew, ned.balance.closingBalance], ['nedbank', 3, '10575.50']);
  });

  test('a CSV no layout reads: 422 naming its columns with a mapping that reads it; saved, the same file imports', async () => {
    const k = await setup();
    const file = fixture('csv/credit-union.csv');
    const refused = assertProblem(await upload(k, file), 422);
    assert.deepEqual(refused.columnsFound, [
      'Txn Date',
      'Narrative',
      'Paid Out',
      'Paid In',
      'Running Balance',
    ]);
    assert.match((refused.reasons as string[]).join(' '), /the columns found: Txn Date, Narrative/);
    assert.equal(await statementsOf(k), 0);
    const saved = await k.api({
      method: 'POST',
      url: '/api/bank-csv-mappings',
      payload: refused.suggestedMapping as object,
    });
    assert.equal(saved.statusCode, 201, saved.body);
    assert.equal(saved.json().decimalSeparator, 'auto');
    const res = await upload(k, file, { mappingId: saved.json().id });
    // Not "already imported": the refused upload was recorded nowhere. 10000 - 1500 + 250.50 - 12 = 8738.50
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().rowsNew, res.json().balance.closingBalance], [3, '8738.50']);
  });

  test('a file that gives no line is 422 with every reason and recorded nowhere; read right later, it imports', async () => {
    const k = await setup();
    const bad = 'Date,Amount,Balance,Description\n2026/03/02,n/a,,A\n2026/03/03,n/a,,B\n';
    const refused = assertProblem(await upload(k, bad), 422);
    assert.match(String(refused.detail), /no line could be read from it; nothing is recorded/);
    assert.deepEqual(refused.reasons, [
      'none of its 2 row(s) could be read',
      'line 2 (amount): amount: not an amount: "n/a"',
      'line 3 (amount): amount: not an amount: "n/a"',
    ]);
    assertProblem(await upload(k, bad, { preview: 'true' }), 422);
    // Amounts that could be thousands or decimals: refused whole, not guessed, then read with the mark said.
    const either = 'Date,Amount,Balance,Description\n2026/03/02,"1,500",,A\n2026/03/03,"-2,250",,B\n';
    assert.match(
      (assertProblem(await upload(k, either), 422).reasons as string[])[0]!,
      /could be read two ways/,
    );
    assert.equal(await statementsOf(k), 0);
    const mapping = (
      await k.api({
        method: 'POST',
        url: '/api/bank-csv-mappings',
        payload: {
          name: 'FNB whole rands',
          columns: { date: 'Date', amount: 'Amount', description: 'Description' },
          dateFormat: 'YYYY/MM/DD',
          sign: 'signed',
          decimalSeparator: '.',
        },
      })
    ).json();
    const res = await upload(k, either, { mappingId: mapping.id });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(await held(k), [
      ['2026-03-02', '1500.00'],
      ['2026-03-03', '-2250.00'],
    ]);
  });

  test("a re-import answers this call's counts; a file all held adds nothing and records nothing", async () => {
    const k = await setup();
    const first = (await upload(k, fixture('fnb.csv'))).json();
    const again = await upload(k, fixture('fnb.csv'));
    assert.equal(again.statusCode, 200, again.body);
    const a = again.json();
    // The first import's rowsNew was 5; this call added none and found all five held.
    assert.deepEqual(
      [a.id, a.rowsNew, a.rowsDuplicate, a.alreadyImported.statementId],
      [first.id, 0, 5, first.id],
    );
    assert.match(a.message, /already imported as statement/);
    // The same lines in another file: 200, nothing recorded, each duplicate said.
    const other =
      'Date,Amount,Balance,Description\n2026/03/04,-6.50,27393.50,FEE\n2026/03/05,-1800.00,25593.50,CITY\n';
    const o = await upload(k, other);
    assert.equal(o.statusCode, 200, o.body);
    assert.deepEqual([o.json().id, o.json().rowsNew, o.json().rowsDuplicate], [null, 0, 2]);
    assert.match(o.json().message, /nothing is added: all 2 line\(s\) are already held/);
    assert.equal(await statementsOf(k), 1);
  });

  test('a big preview answers counts and the first 100 notes of each kind', async () => {
    const k = await setup();
    // 150 rows of 2026-03-02 held first; then a file of those 150 and 150 new rows of one day
    // and amount (each identical to the one before: the 2nd to 150th are noted as identical).
    const row = (d: string, a: string) => `${d},${a},,ROW`;
    const held150 = Array.from({ length: 150 }, (_, i) => row('2026/03/02', `-${i + 1}.00`));
    const first = await upload(k, ['Date,Amount,Balance,Description', ...held150].join('\n'));
    assert.equal(first.statusCode, 201, first.body);
    const same150 = Array.from({ length: 150 }, () => row('2026/03/03', '-10.00'));
    const file = ['Date,Amount,Balance,Description', ...held150, ...same150].join('\n');
    const p = (await upload(k, file, { preview: 'true' })).json();
    assert.deepEqual([p.rowsRead, p.rowsNew, p.rowsDuplicate, p.rowsIdentical], [300, 150, 150, 149]);
    assert.deepEqual([p.duplicates.length, p.identical.length], [100, 100]);
  });

  test('"INV 0003" written with a space reconciles INV-0003 by itself', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const inv = await invoiceOf(r, 100); // 115.00 due
    const spaced = inv.number.replace('-', ' ');
    assert.notEqual(spaced, inv.number);
    const csv = `Date,Amount,Balance,Description\n2026/04/02,115.00,,EFT CREDIT THANDI ${spaced}\n`;
    const res = await upload(r, csv);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}`)).status, 'paid');
  });
});

describe('files of several statements, each to its own account', () => {
  test("an OFX of two accounts: this account's statement imported, the other listed, not mixed in", async () => {
    const k = await setup(); // account 62812345678
    const res = await upload(k, fixture('ofx/api-two-accounts.ofx'));
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual(
      r.statements.map((s: Record<string, unknown>) => [s.index, s.accountHint, s.outcome, s.rowsNew]),
      [
        [1, '62899999999', 'other_account', 0],
        [2, '62812345678', 'imported', 2],
      ],
    );
    // Only 62812345678's lines: 1000.00 - 200.00 + 50.00 = 850.00 (its LEDGERBAL), never the other's.
    assert.deepEqual(await held(k), [
      ['2026-03-02', '-200.00'],
      ['2026-03-03', '50.00'],
    ]);
    assert.deepEqual(
      [r.balance.closingBalance, r.balance.openingBalance, r.balance.derived],
      ['850.00', '1000.00', 'opening'],
    );
    const account = (await k.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` })).json();
    assert.equal(account.statementBalance, 850);
    // The other account gets its own statement: 5000.00 + 75.00 = 5075.00.
    const other = await accountOf(k, { accountNumber: '62899999999' });
    const o = (await upload(other, fixture('ofx/api-two-accounts.ofx'))).json();
    assert.deepEqual([o.rowsNew, o.balance.closingBalance], [1, '5075.00']);
  });

  test('a file naming no statement of the account is 422 with the accounts it names; several into an account without a number too', async () => {
    const k = await setup();
    const elsewhere = await accountOf(k, { accountNumber: '4071234567' });
    const refused = assertProblem(await upload(elsewhere, fixture('ofx/api-two-accounts.ofx')), 422);
    assert.deepEqual(refused.accountsFound, ['62899999999', '62812345678']);
    const unnumbered = await accountOf(k, {});
    const r = assertProblem(await upload(unnumbered, fixture('ofx/api-two-accounts.ofx')), 422);
    assert.match(String(r.detail), /holds statements of 2 accounts/);
    assert.equal(await statementsOf(k), 0);
  });

  test('a statement in another currency is refused', async () => {
    const k = await setup();
    const usd = fixture('statement-1x.ofx').toString().replace('<CURDEF>ZAR', '<CURDEF>USD');
    const r = assertProblem(await upload(k, usd), 422);
    assert.match(
      String(r.detail),
      /the statement is in USD; bank account 1010 FNB Business Cheque \(••••5678\) is in ZAR/,
    );
    const dollars = await accountOf(k, { accountNumber: '62812345678', currency: 'USD' });
    assert.equal((await upload(dollars, usd)).statusCode, 201);
  });

  test('a statement goes to the account whose number it is, not to one whose number ends the same', async () => {
    const k = await setup();
    const short = await accountOf(k, { accountNumber: '2345678' });
    const long = await accountOf(k, { accountNumber: '12345678' });
    const ofx = fixture('statement-1x.ofx').toString().replace('<ACCTID>62812345678', '<ACCTID>12345678');
    // 12345678 ends with 2345678, but the company has 12345678 itself.
    const refused = assertProblem(await upload(short, ofx), 422);
    assert.deepEqual(refused.accountsFound, ['12345678']);
    assert.equal((await upload(long, ofx)).statusCode, 201);
  });

  test('the same statement twice in one OFX is imported once', async () => {
    const k = await setup();
    const once = fixture('statement-1x.ofx').toString();
    const start = once.indexOf('<STMTTRNRS>');
    const end = once.indexOf('</STMTTRNRS>') + '</STMTTRNRS>'.length;
    const twice = once.slice(0, end) + once.slice(start, end) + once.slice(end);
    const r = (await upload(k, twice)).json();
    assert.deepEqual(
      r.statements.map((s: { outcome: string }) => s.outcome),
      ['imported', 'repeated'],
    );
    // Its five lines once: 15000 + 10593.50 = 25593.50, no gap.
    assert.deepEqual([r.rowsNew, r.balance.status, r.balance.closingBalance], [5, 'ok', '25593.50']);
    assert.equal((await held(k)).length, 5);
  });

  test("a CAMT listing the later day first: the balances run by the days, the account's is the last day's", async () => {
    const k = await setup();
    const text = fixture('camt/api-two-days.xml').toString();
    const first = text.slice(text.indexOf('<Stmt>'), text.indexOf('</Stmt>') + 7);
    const second = text.slice(text.lastIndexOf('<Stmt>'), text.lastIndexOf('</Stmt>') + 7);
    const reversed = text.replace(first, '@@FIRST@@').replace(second, first).replace('@@FIRST@@', second);
    const r = (await upload(k, reversed)).json();
    // From the 2nd's opening 10000.00 to the 3rd's closing 14185.00: 10000 - 300 + 4500 - 15 = 14185.
    assert.deepEqual(
      [r.balance.openingBalance, r.balance.closingBalance, r.balance.status],
      ['10000.00', '14185.00', 'ok'],
    );
    const account = (await k.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` })).json();
    assert.deepEqual([account.statementBalance, account.statementDate], [14185, '2026-03-03']);
  });

  test('a CAMT.053 of two days: both statements imported in order, each listed with its balances', async () => {
    const k = await setup();
    const res = await upload(k, fixture('camt/api-two-days.xml'));
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual(
      r.statements.map((s: Record<string, unknown>) => [
        s.reference,
        s.outcome,
        s.rowsNew,
        (s.balance as { status: string }).status,
      ]),
      [
        ['STMT-20260302', 'imported', 2, 'ok'],
        ['STMT-20260303', 'imported', 1, 'ok'],
      ],
    );
    // 10000.00 - 300.00 + 4500.00 = 14200.00 on the 2nd; - 15.00 = 14185.00 on the 3rd.
    assert.deepEqual(
      [r.balance.openingBalance, r.balance.closingBalance, r.balance.status],
      ['10000.00', '14185.00', 'ok'],
    );
  });
});
