// Statement files in through POST /api/bank-statements: the preview is what the write then does,
// nothing twice (the same file, an overlapping statement, another format of the same days),
// identical rows kept, rows with errors left out and said, a balance gap reported.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { encodeMultipart } from '../../platform/http/multipart.ts';
import { fixture, upload } from './bank-statements.factories.ts';
import { type Banking, bankingSetup } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

async function lines(k: Banking) {
  return withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('bank_transactions')
      .select(['date', 'amount', 'sequence', 'statement_id', 'source_line', 'running_balance'])
      .where('bank_account_id', '=', k.bankAccountId)
      .orderBy('date')
      .orderBy('sequence')
      .execute(),
  );
}

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));
/** The answer without what only the write has. */
const figures = (a: Record<string, unknown>) => {
  const { id: _i, preview: _p, createdAt: _c, ...rest } = a;
  return rest;
};

describe('POST /api/bank-statements', () => {
  test('the preview writes nothing and says exactly what the write then does', async () => {
    const k = await setup();
    const preview = await upload(k, fixture('fnb.csv'), { preview: 'true' });
    assert.equal(preview.statusCode, 200, preview.body);
    const p = preview.json();
    assert.equal(p.id, null);
    // FNB: 5 rows, two identical coffees on 2 March kept; 15000 + 10593.50 = 25593.50.
    assert.deepEqual(
      [p.format, p.profile, p.rowsRead, p.rowsNew, p.rowsDuplicate, p.rowsError],
      ['csv', 'fnb', 5, 5, 0, 0],
    );
    assert.deepEqual(
      [p.balance.status, p.balance.openingBalance, p.balance.closingBalance],
      ['ok', '15000.00', '25593.50'],
    );
    assert.equal(p.identical.length, 1);
    assert.match(p.identical[0].note, /identical date and amount to line 5: kept as the 2nd/);
    assert.equal((await lines(k)).length, 0);

    const written = await upload(k, fixture('fnb.csv'));
    assert.equal(written.statusCode, 201, written.body);
    const w = written.json();
    assert.equal(written.headers.location, `/api/bank-statements/${w.id}`);
    assert.deepEqual(figures(w), figures(p));
    const held = await lines(k);
    assert.deepEqual(
      held.map((l) => [l.date, l.amount, l.sequence]),
      [
        ['2026-03-02', '-50.00', 1],
        ['2026-03-02', '-50.00', 2],
        ['2026-03-03', '12500.00', 1],
        ['2026-03-04', '-6.50', 1],
        ['2026-03-05', '-1800.00', 1],
      ],
    );
    assert.ok(held.every((l) => l.statement_id === w.id));
    const got = await k.api({ method: 'GET', url: `/api/bank-statements/${w.id}` });
    assert.deepEqual(got.json(), w);
    const account = (await k.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` })).json();
    assert.deepEqual([account.statementBalance, account.statementDate], [25593.5, '2026-03-05']);
    const list = (
      await k.api({ method: 'GET', url: `/api/bank-statements?bankAccountId=${k.bankAccountId}` })
    ).json();
    assert.deepEqual([list.total, list.items[0].id], [1, w.id]);
  });

  test('the same file again adds nothing and says when it was imported', async () => {
    const k = await setup();
    const first = (await upload(k, fixture('fnb.csv'))).json();
    const again = await upload(k, fixture('fnb.csv'));
    assert.equal(again.statusCode, 200, again.body);
    const a = again.json();
    assert.equal(a.id, first.id);
    assert.equal(a.alreadyImported.statementId, first.id);
    assert.match(
      a.alreadyImported.message,
      new RegExp(`already imported as statement ${first.id} on \\d{4}-\\d{2}-\\d{2}`),
    );
    assert.match(a.alreadyImported.message, /its 5 line\(s\) are already held/);
    const preview = (await upload(k, fixture('fnb.csv'), { preview: 'true' })).json();
    assert.deepEqual(
      [preview.rowsNew, preview.rowsDuplicate, preview.alreadyImported.statementId],
      [0, 5, first.id],
    );
    assert.equal((await lines(k)).length, 5);
    const list = (await k.api({ method: 'GET', url: '/api/bank-statements' })).json();
    assert.equal(list.total, 1);
  });

  test('an overlapping statement adds only the new days; another format of the same days adds nothing', async () => {
    const k = await setup();
    await upload(k, fixture('fnb.csv'));
    // 4 and 5 March again (held), 6 and 7 March new: 25593.50 - 50 = 25543.50, + 3000 = 28543.50.
    const next = [
      'Date,Amount,Balance,Description',
      '2026/03/04,-6.50,27393.50,#MONTHLY ACCOUNT FEE',
      '2026/03/05,-1800.00,25593.50,INTERNET PMT TO CITY OF JHB',
      '2026/03/06,-50.00,25543.50,POS PURCHASE VIDA E CAFFE ROSEBANK',
      '2026/03/07,3000.00,28543.50,MAGTAPE CREDIT BETA CC',
    ].join('\n');
    const res = await upload(k, next);
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual([r.rowsNew, r.rowsDuplicate], [2, 2]);
    assert.match(
      r.duplicates[0].reason,
      /already holds 1 line\(s\) of -6.50 on 2026-03-04.*an earlier statement/,
    );
    assert.equal((await lines(k)).length, 7);
    // The OFX of 2-5 March (the same five lines, other bytes): all five already held.
    const ofx = (await upload(k, fixture('statement-1x.ofx'))).json();
    assert.deepEqual([ofx.format, ofx.rowsNew, ofx.rowsDuplicate], ['ofx', 0, 5]);
    assert.equal((await lines(k)).length, 7);
  });

  test('rows with errors are not written, the rest are; a missing row is a balance gap, reported', async () => {
    const k = await setup();
    const text = fixture('fnb.csv').toString().replace('2026/03/04,-6.50', '2026/03/04,six');
    const res = await upload(k, text);
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual([r.rowsRead, r.rowsNew, r.rowsError], [5, 4, 1]);
    assert.deepEqual(r.errors, [{ line: 8, field: 'amount', message: 'amount: not an amount: "six"' }]);
    assert.match(r.message, /1 row\(s\) with errors not written; the rest are/);
    // Without the fee row, 5 March's balance should be 27400 - 1800 = 25600; the file says 25593.50.
    assert.equal(r.balance.status, 'gap');
    assert.deepEqual(r.balance.runningGaps, [
      { line: 9, date: '2026-03-05', expected: '25600.00', found: '25593.50', difference: '-6.50' },
    ]);
    assert.equal(r.balance.gap, '-6.50');
    assert.equal((await lines(k)).length, 4);
  });

  test('CAMT.053 told from its bytes; a bank CSV by its profile; a saved mapping', async () => {
    const k = await setup();
    // The CAMT names account 10012345678: it goes to the bank account of that number.
    const investec = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Investec', bank: 'investec', accountNumber: '10012345678' },
    });
    const camt = (await upload({ ...k, bankAccountId: investec.json().id }, fixture('camt053.xml'))).json();
    // 10000 - 300 - 300 + 4500 - 15 - 2000 = 11885
    assert.deepEqual(
      [camt.format, camt.rowsNew, camt.balance.status, camt.balance.closingBalance],
      ['camt053', 5, 'ok', '11885.00'],
    );
    // The Capitec export names account 1234567890 in its Account column: that account's.
    const capitecAccount = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Capitec', bank: 'capitec', accountNumber: '1234567890' },
    });
    const capitec = (
      await upload({ ...k, bankAccountId: capitecAccount.json().id }, fixture('capitec.csv'), {
        profile: 'capitec',
      })
    ).json();
    assert.deepEqual(
      [capitec.profile, capitec.rowsNew, capitec.balance.closingBalance],
      ['capitec', 5, '2810.52'],
    );

    const created = await k.api({
      method: 'POST',
      url: '/api/bank-csv-mappings',
      payload: {
        name: 'Credit union',
        columns: {
          date: 'Txn Date',
          description: ['Narrative', 'Ref'],
          debit: 'Out',
          credit: 'In',
          balance: 'Bal',
        },
        dateFormat: 'DD/MM/YYYY',
        sign: 'debit_credit',
        skipRows: 1,
        decimalSeparator: ',',
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const m = created.json();
    assert.equal(created.headers.location, `/api/bank-csv-mappings/${m.id}`);
    const file =
      'Export of 10/04/2026\nTxn Date;Narrative;Ref;Out;In;Bal\n01/04/2026;Rent;APR;1.500,00;;8.500,00\n02/04/2026;Sale;INV-9;;250,50;8.750,50\n';
    const r = (await upload(k, file, { mappingId: m.id })).json();
    // 10000 - 1500 = 8500 opening was 10000; + 250.50 = 8750.50
    assert.deepEqual(
      [r.profile, r.rowsNew, r.balance.openingBalance, r.balance.closingBalance],
      [`mapping:${m.id}`, 2, '10000.00', '8750.50'],
    );
    const patched = await k.api({
      method: 'PATCH',
      url: `/api/bank-csv-mappings/${m.id}`,
      payload: { name: 'CU' },
    });
    assert.equal(patched.json().name, 'CU');
    assert.equal((await k.api({ method: 'GET', url: '/api/bank-csv-mappings' })).json().length, 1);
    const noAmount = await k.api({
      method: 'POST',
      url: '/api/bank-csv-mappings',
      payload: { name: 'X', columns: { date: 0, description: 1 }, dateFormat: 'YYYY-MM-DD', sign: 'signed' },
    });
    assert.equal(assertProblem(noAmount, 400).field, 'columns.amount');
  });

  test('refused: unreadable 422, too large 413, not multipart 415, a wrong part 400, another tenant 400', async () => {
    const k = await setup();
    assertProblem(await upload(k, '<OFX><STMTRS>broken', { format: 'camt053' }), 422);
    assertProblem(await upload(k, 'just,some\ntext,here\n'), 422);
    assertProblem(await upload(k, Buffer.alloc(20 * 1024 * 1024 + 1, 0x41)), 413);
    const json = await k.api({
      method: 'POST',
      url: '/api/bank-statements',
      payload: { bankAccountId: k.bankAccountId },
    });
    assertProblem(json, 415);
    const asText = encodeMultipart({ bankAccountId: k.bankAccountId, file: 'Date,Amount' }, []);
    assert.equal(
      assertProblem(await k.api({ method: 'POST', url: '/api/bank-statements', ...asText }), 400).field,
      'file',
    );
    assert.equal(
      assertProblem(await upload(k, fixture('fnb.csv'), { preview: 'yes' }), 400).field,
      'preview',
    );
    const other = await setup();
    assert.equal(
      assertProblem(await upload({ ...k, bankAccountId: other.bankAccountId }, fixture('fnb.csv')), 400)
        .field,
      'bankAccountId',
    );
    assertProblem(
      await other.api({ method: 'GET', url: `/api/bank-statements/${crypto.randomUUID()}` }),
      404,
    );
  });
});
