// The VAT report and its VAT201 fields, from documents posted through the posting service with
// VAT codes and rates (15%, and 14% before 2018-04-01; zero-rated, exported, exempt; input VAT on
// goods, capital goods and imports); and the aged reports of the company of the header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import type { PostingLine } from '../ledger/index.ts';
import { type Api, accountIds, postEntry, report } from './reports.factories.ts';

let t: TestApp;
let a: Registered;
let api: Api;
let ids: Record<string, string>;
let customer: string;
let supplier: string;

// Account codes of the default chart.
const BANK = '1000';
const DEBTORS = '1100';
const VAT_INPUT = '1300';
const EQUIPMENT = '1500';
const CREDITORS = '2000';
const VAT_OUTPUT = '2100';
const SALES = '4000';
const OTHER_INCOME = '4900';
const PURCHASES = '5100';
const FEES = '6000';
const INSURANCE = '6250';

type Line = [
  code: string,
  side: 'debit' | 'credit',
  amount: string,
  tax?: [string, number],
  extra?: Partial<PostingLine>,
];

function entry(date: string, description: string, lines: Line[]) {
  return postEntry(
    t,
    a.tenantId,
    a.companyId,
    date,
    description,
    lines.map(([code, side, amount, tax, extra]) => ({
      accountId: ids[code]!,
      [side]: amount,
      ...(tax ? { taxCode: tax[0] as PostingLine['taxCode'], taxRate: tax[1] } : {}),
      ...extra,
    })),
  );
}

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2018-05-20T08:00:00.000Z');
  a = await register(t.app, { plan: 'business', vatRegistered: true, vatNumber: '4123456789' });
  api = as(t.app, a.token, a.companyId);
  ids = await accountIds(api);
  const contacts = as(t.app, a.token);
  const c1 = await contacts({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Bokmakierie Traders' },
  });
  customer = c1.json().id;
  const c2 = await contacts({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Fynbos Supplies', contactType: 'SUPPLIER' },
  });
  supplier = c2.json().id;
  const owes = (item: string, due: string) => ({ contactId: customer, openItemId: item, dueDate: due });
  const owed = (item: string, due: string) => ({ contactId: supplier, openItemId: item, dueDate: due });
  const inv1 = crypto.randomUUID();
  const inv2 = crypto.randomUUID();
  const inv3 = crypto.randomUUID();
  const bill1 = crypto.randomUUID();
  const bill2 = crypto.randomUUID();

  // Sales. At 14% before 2018-04-01, 15% from then.
  await entry('2018-03-15', 'Invoice 1 (14%)', [
    [DEBTORS, 'debit', '1140.00', undefined, owes(inv1, '2018-03-31')],
    [SALES, 'credit', '1000.00', ['standard', 14]],
    [VAT_OUTPUT, 'credit', '140.00', ['standard', 14]],
  ]);
  await entry('2018-04-10', 'Invoice 2 (15%)', [
    [DEBTORS, 'debit', '2300.00', undefined, owes(inv2, '2018-05-10')],
    [SALES, 'credit', '2000.00', ['standard', 15]],
    [VAT_OUTPUT, 'credit', '300.00', ['standard', 15]],
  ]);
  await entry('2018-04-12', 'Invoice 3 (zero-rated)', [
    [DEBTORS, 'debit', '500.00', undefined, owes(inv3, '2018-04-12')],
    [SALES, 'credit', '500.00', ['zero', 0]],
  ]);
  await entry('2018-04-13', 'Export sale', [
    [BANK, 'debit', '800.00'],
    [SALES, 'credit', '800.00', ['zero_export', 0]],
  ]);
  await entry('2018-04-14', 'Exempt income', [
    [BANK, 'debit', '300.00'],
    [OTHER_INCOME, 'credit', '300.00', ['exempt', 0]],
  ]);
  await entry('2018-04-16', 'Credit note on invoice 2', [
    [SALES, 'debit', '200.00', ['standard', 15]],
    [VAT_OUTPUT, 'debit', '30.00', ['standard', 15]],
    [DEBTORS, 'credit', '230.00', undefined, owes(inv2, '2018-05-10')],
  ]);
  await entry('2018-04-18', 'Old computer sold', [
    [BANK, 'debit', '1150.00'],
    [EQUIPMENT, 'credit', '1000.00', ['standard_capital', 15]],
    [VAT_OUTPUT, 'credit', '150.00', ['standard_capital', 15]],
  ]);
  // Purchases.
  await entry('2018-03-20', 'Bill 1 (14%)', [
    [PURCHASES, 'debit', '500.00', ['input_standard', 14]],
    [VAT_INPUT, 'debit', '70.00', ['input_standard', 14]],
    [CREDITORS, 'credit', '570.00', undefined, owed(bill1, '2018-04-19')],
  ]);
  await entry('2018-04-05', 'Bill 2 (15%)', [
    [FEES, 'debit', '1000.00', ['input_standard', 15]],
    [VAT_INPUT, 'debit', '150.00', ['input_standard', 15]],
    [CREDITORS, 'credit', '1150.00', undefined, owed(bill2, '2018-05-05')],
  ]);
  await entry('2018-04-08', 'Delivery vehicle', [
    [EQUIPMENT, 'debit', '10000.00', ['input_capital', 15]],
    [VAT_INPUT, 'debit', '1500.00', ['input_capital', 15]],
    [BANK, 'credit', '11500.00'],
  ]);
  await entry('2018-04-09', 'Imported stock, VAT paid at customs', [
    [PURCHASES, 'debit', '3000.00', ['input_import', 15]],
    [VAT_INPUT, 'debit', '450.00', ['input_import', 15]],
    [BANK, 'credit', '3450.00'],
  ]);
  await entry('2018-04-11', 'Insurance (exempt)', [
    [INSURANCE, 'debit', '200.00', ['input_exempt', 0]],
    [BANK, 'credit', '200.00'],
  ]);
  await entry('2018-04-20', 'Paid bill 1', [
    [CREDITORS, 'debit', '570.00', undefined, owed(bill1, '2018-04-19')],
    [BANK, 'credit', '570.00'],
  ]);
  // After the period.
  await entry('2018-05-02', 'Invoice 4', [
    [DEBTORS, 'debit', '1150.00', undefined, owes(crypto.randomUUID(), '2018-06-01')],
    [SALES, 'credit', '1000.00', ['standard', 15]],
    [VAT_OUTPUT, 'credit', '150.00', ['standard', 15]],
  ]);
});
after(() => t.close());

interface VatSide {
  lines: { taxCode: string; rate: number; net: number; vat: number }[];
  totalNet: number;
  totalVat: number;
}
interface Vat {
  from: string;
  to: string;
  output: VatSide;
  input: VatSide;
  vat201: Record<string, number>;
}

const byCode = (s: VatSide) => s.lines.map((l) => [l.taxCode, l.rate, l.net, l.vat]);

describe('VAT report', () => {
  test('output and input by code and rate, both rates, and the VAT201 fields', async () => {
    const r = await report<Vat>(api, '/api/reports/vat?from=2018-03-01&to=2018-04-30');
    assert.deepEqual(byCode(r.output), [
      ['exempt', 0, 300, 0],
      ['standard', 14, 1000, 140],
      ['standard', 15, 1800, 270],
      ['standard_capital', 15, 1000, 150],
      ['zero', 0, 500, 0],
      ['zero_export', 0, 800, 0],
    ]);
    assert.deepEqual([r.output.totalNet, r.output.totalVat], [5400, 560]);
    assert.deepEqual(byCode(r.input), [
      ['input_capital', 15, 10000, 1500],
      ['input_exempt', 0, 200, 0],
      ['input_import', 15, 3000, 450],
      ['input_standard', 14, 500, 70],
      ['input_standard', 15, 1000, 150],
    ]);
    assert.deepEqual([r.input.totalNet, r.input.totalVat], [14700, 2170]);
    // A return ending 2018-04-30 is made at 15%: its field 4 is field 1 × 15/115, so what was
    // supplied or bought at 14% (March) is declared by its VAT in fields 12 and 18 (issue 34,
    // item 16; reports.vat201.ts cites the source).
    assert.deepEqual(r.vat201, {
      // 15% only: invoice 2 2,000.00 less its credit note 200.00 = 1,800.00, + VAT 270.00.
      field1: 2070,
      field1A: 1150,
      field2: 500,
      field2A: 800,
      field3: 300,
      field4: 270,
      field4A: 150,
      // No accommodation, change in use, imported services or adjustments in this period.
      field5: 0,
      field6: 0,
      field7: 0,
      field8: 0,
      field9: 0,
      field10: 0,
      field11: 0,
      // Invoice 1's VAT at 14%.
      field12: 140,
      // 4 + 4A + 12 = 270 + 150 + 140.
      field13: 560,
      field14: 1500,
      field14A: 0,
      // Bill 2 at 15%; bill 1's 70.00 at 14% is in field 18.
      field15: 150,
      field15A: 450,
      field16: 0,
      field17: 0,
      field18: 70,
      // 14 + 15 + 15A + 18 = 1,500 + 150 + 450 + 70.
      field19: 2170,
      field20: -1610,
    });
  });

  test('one month at 15%: a VAT payable', async () => {
    const r = await report<Vat>(api, '/api/reports/vat?from=2018-05-01&to=2018-05-31');
    assert.deepEqual(byCode(r.output), [['standard', 15, 1000, 150]]);
    assert.deepEqual(r.input.lines, []);
    assert.equal(r.vat201.field1, 1150);
    assert.equal(r.vat201.field4, 150);
    assert.equal(r.vat201.field20, 150);
  });

  test('defaults: the financial year to today', async () => {
    const r = await report<Vat>(api, '/api/reports/vat');
    assert.deepEqual([r.from, r.to], ['2018-03-01', '2018-05-20']);
    assert.equal(r.vat201.field13, 710);
  });
});

interface Aged {
  contactId: string | null;
  contactName: string;
  current: number;
  days30: number;
  days60: number;
  days90: number;
  days120: number;
  older: number;
  total: number;
  overdue: number;
}

describe('aged debtors and creditors', () => {
  test('the contacts module’s rows for the company of the header', async () => {
    const debtors = await report<Aged[]>(api, '/api/reports/aged-debtors?asOf=2018-04-30');
    assert.deepEqual(debtors, [
      {
        contactId: customer,
        contactName: 'Bokmakierie Traders',
        current: 2070,
        days30: 1640,
        days60: 0,
        days90: 0,
        days120: 0,
        older: 0,
        unapplied: 0,
        total: 3710,
        overdue: 1640,
      },
    ]);
    const same = await as(
      t.app,
      a.token,
    )({
      method: 'GET',
      url: `/api/contacts/aged-debtors?asOf=2018-04-30&companyId=${a.companyId}`,
    });
    assert.deepEqual(same.json(), debtors);
    const creditors = await report<Aged[]>(api, '/api/reports/aged-creditors?asOf=2018-04-30');
    assert.deepEqual(
      creditors.map((r) => [r.contactName, r.current, r.total]),
      [['Fynbos Supplies', 1150, 1150]],
    );
    // Today by default: invoice 4 is current, the others older.
    const now = await report<Aged[]>(api, '/api/reports/aged-debtors');
    assert.equal(now[0]!.total, 4860);
  });

  test('another company of the tenant shows only its own', async () => {
    const res = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Other Co' } });
    assert.equal(res.statusCode, 201, res.body);
    const other = as(t.app, a.token, res.json().id);
    assert.deepEqual(await report(other, '/api/reports/aged-debtors'), []);
    assert.deepEqual(await report(other, '/api/reports/aged-creditors'), []);
    const vat = await report<Vat>(other, '/api/reports/vat?from=2018-03-01&to=2018-04-30');
    assert.deepEqual(vat.output.lines, []);
    assert.equal(vat.vat201.field20, 0);
  });
});
