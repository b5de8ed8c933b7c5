// Issue 14, item 10: a manual journal's VAT tags must agree with the tax code, the rate of the
// journal's date (15%, 14% before 2018-04-01, VAT Act s7(1); 0 for zero-rated and exempt codes),
// the company's VAT registration on that date, and each other: per code and rate, the VAT line is
// the rate times the tagged net, within half a cent per net line (the most that rounding each net
// line's VAT once can make). Refusals are 400s naming the line.
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
  // Registered for VAT from 2015-01-01, so both the 14% and the 15% periods apply.
  const res = await api({
    method: 'PATCH',
    url: `/api/companies/${a.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2015-01-01', vatNumber: '4123456789' },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => t.close());

type Line = Record<string, unknown>;
const post = (date: string, lines: Line[], as_ = api) =>
  as_({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: { date, description: 'Journal with VAT', lines },
  });

/** A purchase of `net` with input VAT `vat`, tagged input_standard at `rate`, paid from the bank. */
function purchase(net: number, vat: number, rate: number): Line[] {
  return [
    { accountCode: '6100', debit: net, taxCode: 'input_standard', taxRate: rate },
    { accountCode: '1300', debit: vat, taxCode: 'input_standard', taxRate: rate },
    { accountCode: '1000', credit: Math.round((net + vat) * 100) / 100 },
  ];
}

function refused(res: Awaited<ReturnType<typeof post>>, field: string, detail?: RegExp) {
  const body = assertProblem(res, 400, field);
  assert.equal(body.field, field, String(body.detail));
  if (detail) assert.match(String(body.detail), detail);
}

describe('manual journals: VAT tags that cannot be right are refused', () => {
  test('input VAT of 20.00 on a net 100.00 tagged 15%: 15% of 100.00 is 15.00, so 400 naming the VAT line', async () => {
    refused(await post('2026-05-01', purchase(100, 20, 15)), 'lines[1].debit', /20\.00.*15\.00/);
  });

  test('a 15% input VAT dated 2016: the rate then was 14%, so 400 naming lines[0].taxRate', async () => {
    refused(await post('2016-06-30', purchase(100, 15, 15)), 'lines[0].taxRate', /14%/);
    // The right tag for that date: 14% of 100.00 = 14.00.
    const ok = await post('2016-06-30', purchase(100, 14, 14));
    assert.equal(ok.statusCode, 201, ok.body);
    // And 14% after 2018-04-01 is wrong the other way.
    refused(await post('2018-04-01', purchase(100, 14, 14)), 'lines[0].taxRate', /15%/);
  });

  test('a correct 15.00 on 100.00 is accepted and reaches the VAT report (field 15)', async () => {
    const res = await post('2026-04-10', purchase(100, 15, 15));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode, l.taxRate]),
      [
        ['6100', 100, 0, 'input_standard', 15],
        ['1300', 15, 0, 'input_standard', 15],
        ['1000', 0, 115, null, null],
      ],
    );
    const vat = await api({ method: 'GET', url: '/api/reports/vat?from=2026-04-01&to=2026-04-30' });
    assert.equal(vat.statusCode, 200, vat.body);
    // Input: net 100.00, VAT 15.00; field 15 (input_standard VAT) = 15.00.
    assert.equal(vat.json().vat201.field15, 15);
  });

  test('output VAT: 15% of a sale of 100.00 is 15.00 on VAT output; on VAT input it is refused', async () => {
    const sale = [
      { accountCode: '1000', debit: 115 },
      { accountCode: '4000', credit: 100, taxCode: 'standard', taxRate: 15 },
      { accountCode: '2100', credit: 15, taxCode: 'standard', taxRate: 15 },
    ];
    const ok = await post('2026-05-02', sale);
    assert.equal(ok.statusCode, 201, ok.body);
    refused(
      await post('2026-05-02', [sale[0]!, sale[1]!, { ...sale[2], accountCode: '1300' }]),
      'lines[2].taxCode',
      /VAT output/,
    );
    // A standard-rated net without its VAT: 15% of 100.00 = 15.00 is missing.
    refused(
      await post('2026-05-02', [
        { accountCode: '1000', debit: 100 },
        { accountCode: '4000', credit: 100, taxCode: 'standard', taxRate: 15 },
      ]),
      'lines[1].taxCode',
      /15\.00/,
    );
  });

  test('within the rounding of each net line: half a cent per net line, and no more (issue 34, item 20)', async () => {
    // Each net line's VAT was rounded once (per line or per document: SARS allows either), and a
    // rounding moves an amount by at most half a cent. One net line of 100.00: 15% = 15.00 exactly,
    // so its VAT is 15.00; 15.01 comes from no rounding of it and is refused (it was let through
    // as "within a cent").
    assert.equal((await post('2026-05-03', purchase(100, 15, 15))).statusCode, 201);
    refused(await post('2026-05-03', purchase(100, 15.01, 15)), 'lines[1].debit', /half a cent per net line/);
    // A net of 0.10: 15% = 0.015, exactly half a cent from 0.01 and from 0.02: both are roundings
    // of it (half-up and half-down), both accepted; 0.03 is not.
    assert.equal((await post('2026-05-03', purchase(0.1, 0.02, 15))).statusCode, 201);
    assert.equal((await post('2026-05-03', purchase(0.1, 0.01, 15))).statusCode, 201);
    refused(await post('2026-05-03', purchase(0.1, 0.03, 15)), 'lines[1].debit');
    // Three nets of 0.10, each taxed on its own invoice: 0.015 → 0.02 per line, 0.06 in all; 15%
    // of the 0.30 together is 0.045. 0.06 − 0.045 = 0.015 = three half cents: accepted; 0.07 is
    // 0.025 off, more than three roundings can make: refused.
    const lines = (vat: number) => [
      { accountCode: '6100', debit: 0.1, taxCode: 'input_standard', taxRate: 15 },
      { accountCode: '6100', debit: 0.1, taxCode: 'input_standard', taxRate: 15 },
      { accountCode: '6100', debit: 0.1, taxCode: 'input_standard', taxRate: 15 },
      { accountCode: '1300', debit: vat, taxCode: 'input_standard', taxRate: 15 },
      { accountCode: '1000', credit: Math.round((0.3 + vat) * 100) / 100 },
    ];
    assert.equal((await post('2026-05-03', lines(0.06))).statusCode, 201);
    refused(await post('2026-05-03', lines(0.07)), 'lines[3].debit');
  });

  test('zero-rated and exempt codes are 0% and carry no VAT', async () => {
    const zero = [
      { accountCode: '1000', debit: 500 },
      { accountCode: '4000', credit: 500, taxCode: 'zero', taxRate: 0 },
    ];
    assert.equal((await post('2026-05-04', zero)).statusCode, 201);
    refused(
      await post('2026-05-04', [zero[0]!, { ...zero[1], taxRate: 15 }]),
      'lines[1].taxRate',
      /zero is 0%/,
    );
    refused(
      await post('2026-05-04', [
        { accountCode: '1000', debit: 575 },
        { accountCode: '4000', credit: 500, taxCode: 'exempt', taxRate: 0 },
        { accountCode: '2100', credit: 75, taxCode: 'exempt', taxRate: 0 },
      ]),
      'lines[2].taxCode',
      /no VAT/,
    );
  });

  test('a company not VAT-registered on the date: a VAT-tagged line is refused', async () => {
    // Registered from 2015-01-01: a journal of 2014 is before it.
    refused(
      await post('2014-12-31', purchase(100, 14, 14)),
      'lines[0].taxCode',
      /not VAT-registered on 2014-12-31/,
    );
    // A company never registered: even a right-looking tag is refused.
    const b = await register(t.app);
    const other = as(t.app, b.token, b.companyId);
    refused(await post('2026-05-01', purchase(100, 15, 15), other), 'lines[0].taxCode', /not VAT-registered/);
    // Untagged lines on the VAT accounts still post (settling a balance with SARS).
    const untagged = await post(
      '2026-05-01',
      [
        { accountCode: '2100', debit: 15 },
        { accountCode: '1000', credit: 15 },
      ],
      other,
    );
    assert.equal(untagged.statusCode, 201, untagged.body);
  });
});
