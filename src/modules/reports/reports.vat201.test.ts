// The VAT201 in full (issue 14, "The VAT return (VAT201) in full"; SARS GEN-ELEC-04-G01): one VAT
// period whose postings touch every field, each field checked against figures worked out by hand
// below from the rule it cites. The company is VAT-registered from 2017-01-01, category B (the
// default): the period 2018-06 is 2018-05-01 to 2018-06-30, all at 15% (VAT Act s7(1)(a)).
//
// Postings in the period (through the API: sales documents, a credit note, manual journals, a
// write-off and its recovery; one supplier credit note through the posting service, which a
// manual journal may not tag at 14% after 2018-04-01):
//   INV-A 2018-05-10   standard 2,000.00        VAT 15% × 2,000.00 = 300.00
//                      zero 500.00, zero_export 800.00, exempt 300.00: no VAT (s11(1), s11(1)(a), s12)
//                      accommodation_long 3,000.00  VAT 15% × 60% × 3,000.00 = 270.00 (s10(10))
//                      accommodation_short 1,000.00 VAT 15% × 1,000.00 = 150.00
//   INV-B 2018-05-02   standard 1,000.00        VAT 150.00, total 1,150.00
//   CN    2018-05-20   credit note of net 500.00 against INV-0 (2018-03-15, at 14%): it takes the
//                      14% of that supply (s21): VAT 70.00: the transition, a decrease of output tax
//   J1    2018-05-12   vehicle sold: Cr equipment 5,000.00 + VAT 750.00, standard_capital
//   J2    2018-05-15   imported services (s7(1)(c)): VAT 15% × 2,000.00 = 300.00 declared
//   J3    2018-06-05   stock taken into private use (s18(1)): Cr purchases 1,000.00 + VAT 150.00
//   J4    2018-05-18   capital goods imported: VAT 15% × (20,000.00 + 10%) = 3,300.00 (s13(2))
//   J5    2018-05-08   equipment bought: 10,000.00 + VAT 1,500.00 (input_capital)
//   J6    2018-05-09   fees: 1,000.00 + VAT 150.00 (input_standard)
//   J7    2018-05-22   stock imported: VAT 15% × (4,000.00 + 10%) = 660.00 (input_import)
//   J8    2018-06-08   equipment taken into taxable use (s18(4)): 575.00 split into 500.00 + VAT 75.00
//   J9    2018-06-12   other input tax adjustment: 200.00 + VAT 30.00 (input_other)
//   WO    2018-06-10   575.00 of INV-B written off: VAT 575.00 × 15/115 = 75.00 claimed (s22(1))
//   REC   2018-06-20   230.00 of it recovered: VAT 230.00 × 75.00 / 575.00 = 30.00 declared (s22(2))
//   SCN   2018-05-25   a supplier's credit note against a 14% bill: net 50.00, VAT 7.00 at 14%: a
//                      decrease of input tax, the transition's mirror
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createDoc, release, released, type Sales, salesSetup } from '../invoices/invoices.factories.ts';
import { accountIds, csvOf, pdfOf, postEntry, report } from './reports.factories.ts';

let t: TestApp;
let s: Sales;

type Tag = [code: string, rate: number];
type Line = [accountCode: string, side: 'debit' | 'credit', amount: number, tag?: Tag];

async function journal(date: string, description: string, lines: Line[]) {
  const res = await s.api({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: {
      date,
      description,
      lines: lines.map(([accountCode, side, amount, tag]) => ({
        accountCode,
        [side]: amount,
        ...(tag ? { taxCode: tag[0], taxRate: tag[1] } : {}),
      })),
    },
  });
  assert.equal(res.statusCode, 201, `${description}: ${res.body}`);
}

const line = (description: string, unitPrice: number, taxCode: string) => ({
  description,
  quantity: 1,
  unitPrice,
  taxCode,
});

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2018-07-15T08:00:00.000Z');
  const b = await register(t.app, { plan: 'business' });
  s = await salesSetup(t, b);

  // The 14% supply of the previous period that the credit note adjusts: 1,000.00 + 140.00.
  const inv0 = await released(s, {
    issueDate: '2018-03-15',
    dueDate: '2018-04-14',
    lines: [line('Stock', 1000, 'standard')],
  });
  const invA = await released(s, {
    issueDate: '2018-05-10',
    dueDate: '2018-06-09',
    lines: [
      line('Consulting', 2000, 'standard'),
      line('Brown bread', 500, 'zero'),
      line('Goods shipped to Namibia', 800, 'zero_export'),
      line('Interest on overdue account', 300, 'exempt'),
      line('Guest house, 60 nights', 3000, 'accommodation_long'),
      line('Guest house, 5 nights', 1000, 'accommodation_short'),
    ],
  });
  // 300 + 270 + 150 = 720.00 VAT; 2,000 + 500 + 800 + 300 + 3,000 + 1,000 = 7,600.00 net.
  assert.deepEqual([invA.vatTotal, invA.subtotal, invA.total], [720, 7600, 8320]);
  const invB = await released(s, {
    issueDate: '2018-05-02',
    dueDate: '2018-05-02',
    lines: [line('Consulting', 1000, 'standard')],
  });
  assert.equal(invB.total, 1150);
  const cn = await createDoc(s, {
    documentType: 'credit_note',
    issueDate: '2018-05-20',
    dueDate: '2018-05-20',
    creditedDocumentId: inv0.id,
    lines: [line('Returned stock', 500, 'standard')],
  });
  assert.deepEqual([cn.lines[0].vatRate, cn.vatTotal], [14, 70]);
  await release(s, cn.id);

  await journal('2018-05-12', 'J1 delivery vehicle sold', [
    ['1000', 'debit', 5750],
    ['1500', 'credit', 5000, ['standard_capital', 15]],
    ['2100', 'credit', 750, ['standard_capital', 15]],
  ]);
  await journal('2018-05-15', 'J2 VAT on imported services', [
    ['6000', 'debit', 300],
    ['2100', 'credit', 300, ['imported_services', 15]],
  ]);
  await journal('2018-06-05', 'J3 stock taken for private use', [
    ['6000', 'debit', 1150],
    ['5100', 'credit', 1000, ['change_in_use', 15]],
    ['2100', 'credit', 150, ['change_in_use', 15]],
  ]);
  await journal('2018-05-18', 'J4 capital goods imported, VAT paid at customs', [
    ['1500', 'debit', 20000],
    ['1300', 'debit', 3300, ['input_capital_import', 15]],
    ['1000', 'credit', 23300],
  ]);
  await journal('2018-05-08', 'J5 equipment bought', [
    ['1500', 'debit', 10000, ['input_capital', 15]],
    ['1300', 'debit', 1500, ['input_capital', 15]],
    ['1000', 'credit', 11500],
  ]);
  await journal('2018-05-09', 'J6 fees', [
    ['6000', 'debit', 1000, ['input_standard', 15]],
    ['1300', 'debit', 150, ['input_standard', 15]],
    ['1000', 'credit', 1150],
  ]);
  await journal('2018-05-22', 'J7 stock imported, VAT paid at customs', [
    ['5100', 'debit', 4000],
    ['1300', 'debit', 660, ['input_import', 15]],
    ['1000', 'credit', 4660],
  ]);
  await journal('2018-06-08', 'J8 equipment taken into taxable use', [
    ['1500', 'debit', 500, ['input_change_in_use', 15]],
    ['1300', 'debit', 75, ['input_change_in_use', 15]],
    ['1500', 'credit', 575],
  ]);
  await journal('2018-06-12', 'J9 other input tax', [
    ['6000', 'debit', 200, ['input_other', 15]],
    ['1300', 'debit', 30, ['input_other', 15]],
    ['1000', 'credit', 230],
  ]);
  const wo = await s.api({
    method: 'POST',
    url: `/api/invoices/${invB.id}/write-off`,
    payload: { date: '2018-06-10', amount: 575, reason: 'Customer in liquidation' },
  });
  assert.equal(wo.statusCode, 201, wo.body);
  assert.equal(wo.json().vatAmount, 75);
  const rec = await s.api({
    method: 'POST',
    url: `/api/invoices/${invB.id}/write-off/recover`,
    payload: { date: '2018-06-20', amount: 230 },
  });
  assert.equal(rec.statusCode, 201, rec.body);
  assert.equal(rec.json().vatAmount, 30);

  const ids = await accountIds(s.api);
  await postEntry(t, b.tenantId, b.companyId, '2018-05-25', 'SCN supplier credit note on a 14% bill', [
    { accountId: ids['2000']!, debit: '57.00' },
    { accountId: ids['5100']!, credit: '50.00', taxCode: 'input_standard', taxRate: 14 },
    { accountId: ids['1300']!, credit: '7.00', taxCode: 'input_standard', taxRate: 14 },
  ]);
});
after(() => t.close());

interface Vat {
  from: string;
  to: string;
  period: { id: string; status: string } | null;
  output: { lines: Array<{ taxCode: string; rate: number; net: number; vat: number; transition?: true }> };
  input: { lines: Array<{ taxCode: string; rate: number; net: number; vat: number; transition?: true }> };
  adjustments: unknown[];
  vat201: Record<string, number>;
  fields: Array<{ field: string; label: string; amount: number }>;
}

// Every field, worked by hand (GEN-ELEC-04-G01; the VAT Act section in each comment).
const EXPECTED: Record<string, number> = {
  // s7(1)(a): INV-A 2,000 + INV-B 1,000 = 3,000.00 + VAT 450.00 = 3,450.00. The 14% credit
  // note is not here (the transition).
  field1: 3450,
  // J1: 5,000.00 + 750.00.
  field1A: 5750,
  field2: 500, // s11(1)
  field2A: 800, // s11(1)(a)
  field3: 300, // s12
  field4: 450,
  field4A: 750,
  // s10(10): 3,000.00 for stays over 28 days; 60% of it = 1,800.00; 1,000.00 for the short stays;
  // 8 = 1,800 + 1,000 = 2,800.00; 9 = 15% × 2,800.00 = 420.00 (= 270.00 + 150.00 posted).
  field5: 3000,
  field6: 1800,
  field7: 1000,
  field8: 2800,
  field9: 420,
  // s18(1): J3 1,000.00 + 150.00.
  field10: 1150,
  field11: 150,
  // s7(1)(c) J2 300.00 + s22(2) REC 30.00 + the supplier credit note's decrease of input tax 7.00.
  field12: 337,
  // 4 + 4A + 9 + 11 + 12 = 450 + 750 + 420 + 150 + 337.
  field13: 2107,
  field14: 1500, // J5
  field14A: 3300, // J4: 15% of the customs value plus 10% (s13(2))
  field15: 150, // J6
  field15A: 660, // J7
  field16: 75, // s18(4): J8
  field17: 75, // s22(1): WO
  // J9 30.00 + the 14% credit note's decrease of output tax 70.00 (the transition).
  field18: 100,
  // 14 + 14A + 15 + 15A + 16 + 17 + 18 = 1,500 + 3,300 + 150 + 660 + 75 + 75 + 100.
  field19: 5860,
  // 13 − 19 = 2,107 − 5,860: refundable. The VAT accounts agree: output posted 450 + 750 + 270 +
  // 150 + 300 + 150 + 30 − 70 = 2,030.00, input posted 1,500 + 3,300 + 150 + 660 + 75 + 75 + 30 −
  // 7 = 5,783.00; 2,030 − 5,783 = −3,753.00.
  field20: -3753,
};

describe('the VAT201 in full: one period touching every field', () => {
  test('each field against the figures worked by hand', async () => {
    const r = await report<Vat>(s.api, '/api/reports/vat?period=2018-06');
    assert.deepEqual([r.from, r.to], ['2018-05-01', '2018-06-30']);
    assert.deepEqual(r.period, {
      id: '2018-06',
      from: '2018-05-01',
      to: '2018-06-30',
      status: 'open',
      submittedAt: null,
    });
    assert.deepEqual(r.vat201, EXPECTED);
    assert.deepEqual(r.adjustments, []);
    // The transition lines are listed, marked, at the rate of the supply they adjust.
    assert.deepEqual(
      r.output.lines.filter((l) => l.transition),
      [{ taxCode: 'standard', rate: 14, transition: true, net: -500, vat: -70 }],
    );
    assert.deepEqual(
      r.input.lines.filter((l) => l.transition),
      [{ taxCode: 'input_standard', rate: 14, transition: true, net: -50, vat: -7 }],
    );
    // The same range by dates is the same period.
    const byDates = await report<Vat>(s.api, '/api/reports/vat?from=2018-05-01&to=2018-06-30');
    assert.deepEqual(byDates, r);
  });

  test('fields: every SARS field in order, with its number and label', async () => {
    const r = await report<Vat>(s.api, '/api/reports/vat?period=2018-06');
    assert.deepEqual(
      r.fields.map((f) => f.field),
      ['1', '1A', '2', '2A', '3', '4', '4A', '5', '6', '7', '8', '9', '10', '11', '12', '13'].concat([
        '14',
        '14A',
        '15',
        '15A',
        '16',
        '17',
        '18',
        '19',
        '20',
      ]),
    );
    for (const f of r.fields) assert.equal(f.amount, EXPECTED[`field${f.field}`], f.field);
    assert.equal(
      r.fields.find((f) => f.field === '5')?.label,
      'Supply of accommodation exceeding 28 days (value excluding VAT)',
    );
    assert.equal(r.fields.find((f) => f.field === '14A')?.label, 'Capital goods imported');
  });

  test('CSV and PDF print every field', async () => {
    const csv = csvOf(
      await s.api({ method: 'GET', url: '/api/reports/vat?period=2018-06&format=csv' }),
      /vat_2018-06/,
    );
    const at = csv.findIndex((row) => row[0] === 'Field');
    assert.deepEqual(csv[at + 12], ['9', 'Output tax on field 8', '420.00']);
    assert.deepEqual(csv[at + 25], [
      '20',
      'VAT payable/refundable (13 − 19; negative: refundable)',
      '-3753.00',
    ]);
    const pdf = (
      await pdfOf(
        await s.api({ method: 'GET', url: '/api/reports/vat?period=2018-06&format=pdf' }),
        /vat_2018-06/,
      )
    ).join('\n');
    for (const label of ['Capital goods imported', 'Change in use', 'Other and imported services'])
      assert.ok(pdf.includes(label), label);
  });
});
