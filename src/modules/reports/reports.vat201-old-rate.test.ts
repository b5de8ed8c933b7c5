// A VAT201 for a period that spans 1 April 2018 (issue 34, item 16). The VAT201 of such a period
// computes field 4 as field 1 × 15/115 (and 14A/15 take the 15% claims), so supplies and
// purchases at 14% have no place of their own on it: their VAT is declared in field 12 "Other
// and imported services" (output) and field 18 "Other" (input). As read in Moore South Africa,
// "Completing your VAT return for March and April where the VAT rate was amended from 14% to 15%"
// (May 2018), repeating SARS's notice to vendors of categories B, D and E: "For supplies made on
// or before 31 March and subject to VAT at 14%, the VAT amount should be calculated manually and
// included in Field 12"; "input tax claims subject to 14% VAT ... Field 18"; imports stay in 14A
// and 15A whatever the rate. SARS's own guide (VAT-GEN-01-G01) could not be read here.
// Each adjustment lands where it is positive (docs/decisions.md: increases of output tax in 12,
// decreases in 18): a 14% debit note and a 14% credit note are not netted against each other.
//
// The company is VAT-registered from 2017-01-01, category B: period 2018-04 is 2018-03-01 to
// 2018-04-30, its return at 15% (the rate at its end, VAT Act s7(1)(a) as amended from
// 2018-04-01).
//   INV-1 2018-03-15  standard 1,000.00 at 14%: VAT 140.00, total 1,140.00
//   INV-2 2018-04-10  standard 1,000.00 at 15%: VAT 150.00, total 1,150.00
//   DN    2018-04-12  debit note on INV-1, 100.00: it takes INV-1's 14% (s21): VAT 14.00
//   CN-1  2018-04-20  credit note on INV-1, 200.00 at 14%: VAT 28.00
//   CN-2  2018-04-22  credit note on INV-2, 100.00 at 15%: VAT 15.00 (a 15% adjustment: fields 1/4)
//   J1    2018-03-20  fees 500.00 + VAT 70.00 at 14% (input_standard)
//   J2    2018-04-05  fees 1,000.00 + VAT 150.00 at 15% (input_standard)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { released, type Sales, salesSetup } from '../invoices/invoices.factories.ts';
import { report } from './reports.factories.ts';

let t: TestApp;
let s: Sales;

const line = (unitPrice: number) => ({ description: 'Stock', quantity: 1, unitPrice, taxCode: 'standard' });

async function purchase(date: string, net: number, vat: number, rate: number) {
  const res = await s.api({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: {
      date,
      description: `Fees at ${rate}%`,
      lines: [
        { accountCode: '6000', debit: net, taxCode: 'input_standard', taxRate: rate },
        { accountCode: '1300', debit: vat, taxCode: 'input_standard', taxRate: rate },
        { accountCode: '1000', credit: net + vat },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
}

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2018-05-15T08:00:00.000Z');
  s = await salesSetup(t, await register(t.app, { plan: 'business' }));
  const inv1 = await released(s, { issueDate: '2018-03-15', dueDate: '2018-04-14', lines: [line(1000)] });
  assert.deepEqual([inv1.vatTotal, inv1.total], [140, 1140]);
  const inv2 = await released(s, { issueDate: '2018-04-10', dueDate: '2018-05-10', lines: [line(1000)] });
  assert.deepEqual([inv2.vatTotal, inv2.total], [150, 1150]);
  const note = (documentType: string, issueDate: string, of: string, net: number) =>
    released(s, { documentType, issueDate, dueDate: issueDate, creditedDocumentId: of, lines: [line(net)] });
  assert.equal((await note('debit_note', '2018-04-12', inv1.id, 100)).vatTotal, 14);
  assert.equal((await note('credit_note', '2018-04-20', inv1.id, 200)).vatTotal, 28);
  assert.equal((await note('credit_note', '2018-04-22', inv2.id, 100)).vatTotal, 15);
  await purchase('2018-03-20', 500, 70, 14);
  await purchase('2018-04-05', 1000, 150, 15);
});
after(() => t.close());

interface Vat {
  vat201: Record<string, number>;
  output: { lines: Array<{ taxCode: string; rate: number; net: number; vat: number; transition?: true }> };
}

// Worked by hand from the rule above.
const EXPECTED = {
  // 15% only: INV-2 1,150.00 less CN-2 115.00 = 1,035.00; its VAT 150.00 − 15.00 = 135.00.
  field1: 1035,
  field4: 135,
  // Output tax at 14%, each where it is positive: INV-1 140.00 + DN 14.00 = 154.00.
  field12: 154,
  // 4 + 12 = 135 + 154.
  field13: 289,
  // J2, at 15%.
  field15: 150,
  // J1's 70.00 claimed at 14% + CN-1's 28.00 decrease of output tax = 98.00 (not 28 − 14 = 14).
  field18: 98,
  // 15 + 18.
  field19: 248,
  // 289 − 248 = 41.00. The VAT accounts agree: output 140 + 150 + 14 − 28 − 15 = 261.00, input
  // 70 + 150 = 220.00; 261 − 220 = 41.00.
  field20: 41,
};

const pick = (v: Record<string, number>) =>
  Object.fromEntries(Object.keys(EXPECTED).map((k) => [k, v[k]])) as typeof EXPECTED;

describe('a VAT201 spanning 1 April 2018', () => {
  test('14% supplies in field 12, 14% input in 18; a 14% debit and credit note not netted', async () => {
    const r = await report<Vat>(s.api, '/api/reports/vat?period=2018-04');
    assert.deepEqual(pick(r.vat201), EXPECTED);
    // Nothing else in the return.
    for (const f of ['field1A', 'field2', 'field3', 'field14', 'field15A', 'field16', 'field17'])
      assert.equal(r.vat201[f], 0, f);
    // The 14% lines are listed, marked as at an earlier rate: 1,000 + 100 − 200 = 900.00 net,
    // 140 + 14 − 28 = 126.00 VAT.
    assert.deepEqual(
      r.output.lines.filter((l) => l.transition),
      [{ taxCode: 'standard', rate: 14, transition: true, net: 900, vat: 126 }],
    );
  });

  test('a range ending before 1 April 2018 is a return at 14%: its supplies in fields 1 and 4', async () => {
    const r = await report<Vat>(s.api, '/api/reports/vat?from=2018-03-01&to=2018-03-31');
    // INV-1 1,000.00 + 140.00 = 1,140.00; J1 70.00 in field 15.
    assert.deepEqual(
      [r.vat201.field1, r.vat201.field4, r.vat201.field12, r.vat201.field15, r.vat201.field18],
      [1140, 140, 0, 70, 0],
    );
  });

  test('submitted, the period answers the same fields', async () => {
    const res = await s.api({ method: 'POST', url: '/api/reports/vat/periods/2018-04/submit' });
    assert.equal(res.statusCode, 200, res.body);
    const r = await report<Vat>(s.api, '/api/reports/vat?period=2018-04');
    assert.deepEqual(pick(r.vat201), EXPECTED);
  });
});
