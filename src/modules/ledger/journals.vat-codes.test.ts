// The VAT201 tax codes on manual journals (issue 14, "The VAT return (VAT201) in full"), checked
// with the rules of journals.vat.ts: the code's rate on the journal's date (the standard rate,
// 15%, 14% before 2018-04-01, VAT Act s7(1)(a)), output tax on VAT output and input tax on VAT
// input, and per code and rate the VAT equal to the rate of the tagged net within half a cent per net line:
//   accommodation_long   15% of 60% of the net (s10(10))
//   accommodation_short  15% of the net
//   change_in_use        15% of the net (s18(1)); input_change_in_use (s18(4)), input_other too
//   imported_services, input_capital_import: the tax alone (the value is not a net line here)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-15T10:00:00.000Z');
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
  const res = await api({
    method: 'PATCH',
    url: `/api/companies/${a.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2015-01-01', vatNumber: '4123456789' },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => t.close());

type Line = Record<string, unknown>;
const post = (date: string, lines: Line[]) =>
  api({ method: 'POST', url: '/api/ledger/journals', payload: { date, description: 'VAT201 codes', lines } });

const tag = (taxCode: string, taxRate = 15) => ({ taxCode, taxRate });

function refused(res: Awaited<ReturnType<typeof post>>, field: string, detail?: RegExp) {
  const body = assertProblem(res, 400, field);
  if (detail) assert.match(String(body.detail), detail);
}

describe('output codes', () => {
  test('accommodation_long: 15% of 60% of 1,000.00 = 90.00; 150.00 (15% of all of it) is refused', async () => {
    const lines = (vat: number): Line[] => [
      { accountCode: '1000', debit: 1000 + vat },
      { accountCode: '4000', credit: 1000, ...tag('accommodation_long') },
      { accountCode: '2100', credit: vat, ...tag('accommodation_long') },
    ];
    refused(
      await post('2026-05-01', lines(150)),
      'lines[2].credit',
      /150\.00.*60% of the net 1000\.00.*90\.00/,
    );
    assert.equal((await post('2026-05-01', lines(90))).statusCode, 201);
  });

  test('accommodation_short: 15% of the net; in 2016 the rate was 14%', async () => {
    const lines = (rate: number, vat: number): Line[] => [
      { accountCode: '1000', debit: 500 + vat },
      { accountCode: '4000', credit: 500, ...tag('accommodation_short', rate) },
      { accountCode: '2100', credit: vat, ...tag('accommodation_short', rate) },
    ];
    refused(await post('2016-05-01', lines(15, 75)), 'lines[1].taxRate', /14%/);
    // 14% of 500.00 = 70.00 in 2016; 15% = 75.00 now.
    assert.equal((await post('2016-05-01', lines(14, 70))).statusCode, 201);
    assert.equal((await post('2026-05-01', lines(15, 75))).statusCode, 201);
  });

  test('change_in_use: 15% of the goods taken out of taxable use; on VAT input it is refused', async () => {
    const lines = (vatAccount: string): Line[] => [
      { accountCode: '6000', debit: 1150 },
      { accountCode: '5100', credit: 1000, ...tag('change_in_use') },
      { accountCode: vatAccount, credit: 150, ...tag('change_in_use') },
    ];
    refused(await post('2026-05-02', lines('1300')), 'lines[2].taxCode', /VAT output/);
    assert.equal((await post('2026-05-02', lines('2100'))).statusCode, 201);
  });

  test('imported_services: the tax alone on VAT output, at the rate of the date', async () => {
    const lines = (rate: number): Line[] => [
      { accountCode: '6000', debit: 300 },
      { accountCode: '2100', credit: 300, ...tag('imported_services', rate) },
    ];
    refused(await post('2026-05-03', lines(14)), 'lines[1].taxRate', /15%/);
    assert.equal((await post('2026-05-03', lines(15))).statusCode, 201);
  });
});

describe('input codes', () => {
  test('input_capital_import: the tax levied by customs, alone; on VAT output it is refused', async () => {
    const lines = (vatAccount: string, side: 'debit' | 'credit'): Line[] => [
      { accountCode: '1500', debit: 20000 },
      { accountCode: vatAccount, [side]: 3300, ...tag('input_capital_import') },
      { accountCode: '1000', credit: side === 'debit' ? 23300 : 16700 },
    ];
    refused(await post('2026-05-04', lines('2100', 'credit')), 'lines[1].taxCode', /VAT input/);
    assert.equal((await post('2026-05-04', lines('1300', 'debit'))).statusCode, 201);
  });

  test('input_change_in_use: 15% of 500.00 = 75.00; 80.00 is refused', async () => {
    const lines = (vat: number): Line[] => [
      { accountCode: '1500', debit: 500, ...tag('input_change_in_use') },
      { accountCode: '1300', debit: vat, ...tag('input_change_in_use') },
      { accountCode: '1500', credit: 500 + vat },
    ];
    refused(await post('2026-05-05', lines(80)), 'lines[1].debit', /80\.00.*75\.00/);
    assert.equal((await post('2026-05-05', lines(75))).statusCode, 201);
  });

  test('input_other: at the standard rate, not 0', async () => {
    const lines = (rate: number, vat: number): Line[] => [
      { accountCode: '6000', debit: 200, ...tag('input_other', rate) },
      { accountCode: '1300', debit: vat, ...tag('input_other', rate) },
      { accountCode: '1000', credit: 200 + vat },
    ];
    refused(await post('2026-05-06', lines(0, 0)), 'lines[0].taxRate', /15%/);
    assert.equal((await post('2026-05-06', lines(15, 30))).statusCode, 201);
  });

  test('not VAT-registered on the date: no code is accepted', async () => {
    refused(
      await post('2014-06-30', [
        { accountCode: '6000', debit: 300 },
        { accountCode: '2100', credit: 300, ...tag('imported_services', 14) },
      ]),
      'lines[1].taxCode',
      /not VAT-registered/,
    );
  });
});
