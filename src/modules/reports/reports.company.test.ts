// The statements of a (Pty) Ltd (issue 14): VAT as one net line on the balance sheet (what the
// company would settle with SARS), and income tax below net profit before tax on the income
// statement. Figures worked out by hand in the comments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Api, accountIds, csvOf, journal, postEntry, report } from './reports.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-15T10:00:00.000Z');
});
after(() => t.close());

type Amounts = {
  accounts: { id: string | null; code: string | null; name: string; amount: number }[];
  total: number;
};
type Group = Amounts & { subtype: string; name: string };
type Side = { groups: Group[]; total: number };
interface Sheet {
  assets: Side;
  liabilities: Side;
  equity: Side & { currentYearEarnings: number };
  totalLiabilitiesAndEquity: number;
  balanced: boolean;
}
const lines = (s: Side) =>
  s.groups.flatMap((g) => g.accounts.map((l) => [g.subtype, l.code, l.name, l.amount]));

describe('balance sheet: VAT as one net line', () => {
  let a: Registered;
  let api: Api;
  let ids: Record<string, string>;
  const sheet = (asOf: string) => report<Sheet>(api, `/api/reports/balance-sheet?asOf=${asOf}`);

  before(async () => {
    a = await register(t.app, {
      companyName: 'Vaal Traders (Pty) Ltd',
      vatRegistered: true,
      vatNumber: '4123456789',
    });
    api = as(t.app, a.token, a.companyId);
    // Registered for VAT from the start of the financial year (before every posting below).
    const from = await as(
      t.app,
      a.token,
    )({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { vatRegistered: true, vatRegisteredFrom: '2026-03-01' },
    });
    assert.equal(from.statusCode, 200, from.body);
    ids = await accountIds(api);
    const entry = (date: string, description: string, ls: Parameters<typeof postEntry>[5]) =>
      postEntry(t, a.tenantId, a.companyId, date, description, ls);
    // A cash sale of 1 000 at 15%: output VAT 1 000 × 15% = 150 (VAT Act s7(1)(a)).
    await entry('2026-03-10', 'Cash sale', [
      { accountId: ids['1000']!, debit: '1150.00' },
      { accountId: ids['4000']!, credit: '1000.00', taxCode: 'standard', taxRate: 15 },
      { accountId: ids['2100']!, credit: '150.00', taxCode: 'standard', taxRate: 15 },
    ]);
    // A purchase of 300 at 15%: input VAT 300 × 15% = 45 (s16(3)).
    await entry('2026-03-20', 'Stock bought', [
      { accountId: ids['5100']!, debit: '300.00', taxCode: 'input_standard', taxRate: 15 },
      { accountId: ids['1300']!, debit: '45.00', taxCode: 'input_standard', taxRate: 15 },
      { accountId: ids['1000']!, credit: '345.00' },
    ]);
    // The VAT201 for March: 150 − 45 = 105 payable. The accountant closes input and output into
    // the VAT control account (a manual journal), then pays SARS from the bank.
    await journal(api, '2026-04-20', 'VAT201 March: input and output to VAT control', [
      ['2100', 150],
      ['1300', 0, 45],
      ['2110', 0, 105],
    ]);
    await journal(api, '2026-04-25', 'VAT paid to SARS', [
      ['2110', 105],
      ['1000', 0, 105],
    ]);
    // April: a purchase of 400 at 15%, input VAT 60, and no sales: SARS owes the company.
    await entry('2026-04-28', 'Equipment', [
      { accountId: ids['1500']!, debit: '400.00', taxCode: 'input_capital', taxRate: 15 },
      { accountId: ids['1300']!, debit: '60.00', taxCode: 'input_capital', taxRate: 15 },
      { accountId: ids['1000']!, credit: '460.00' },
    ]);
  });

  test('output 150 and input 45: one VAT payable of 105, and the sheet balances', async () => {
    const r = await sheet('2026-03-31');
    // Bank 1 150 − 345 = 805; VAT output (credit 150) and input (debit 45) net to a credit of
    // 105; profit 1 000 − 300 = 700. Assets 805 = liabilities 105 + equity 700.
    assert.deepEqual(lines(r.assets), [['bank', '1000', 'Bank', 805]]);
    assert.deepEqual(lines(r.liabilities), [['current_liability', null, 'VAT payable', 105]]);
    assert.equal(r.assets.total, 805);
    assert.equal(r.liabilities.total, 105);
    assert.equal(r.equity.currentYearEarnings, 700);
    assert.equal(r.totalLiabilitiesAndEquity, 805);
    assert.equal(r.balanced, true);
    // The trial balance keeps the accounts apart: 1300 Dr 45, 2100 Cr 150.
    const tb = await report<{ accounts: { code: string; debit: number; credit: number }[] }>(
      api,
      '/api/reports/trial-balance?asOf=2026-03-31',
    );
    const tbOf = (code: string) => tb.accounts.find((x) => x.code === code);
    assert.deepEqual([tbOf('1300')?.debit, tbOf('2100')?.credit], [45, 150]);
  });

  test('closed into VAT control: still 105 payable; paid: no VAT line at all', async () => {
    // 2026-04-20: input 0, output 0, control Cr 105: the same 105 payable, from the control account.
    const closed = await sheet('2026-04-20');
    assert.deepEqual(lines(closed.liabilities), [['current_liability', null, 'VAT payable', 105]]);
    assert.equal(closed.balanced, true);
    // 2026-04-25: control Dr 105 Cr 105 = 0: nothing to show. Bank 805 − 105 = 700 = equity 700.
    const paid = await sheet('2026-04-25');
    assert.deepEqual(lines(paid.liabilities), []);
    assert.deepEqual(lines(paid.assets), [['bank', '1000', 'Bank', 700]]);
    assert.equal(paid.balanced, true);
  });

  test('input exceeding output: one VAT receivable among the current assets', async () => {
    // 2026-04-30: input 60 (debit), output 0, control 0: a net debit of 60. Bank 700 − 460 = 240,
    // equipment 400; assets 240 + 60 + 400 = 700 = equity 700 (no profit since March).
    const r = await sheet('2026-04-30');
    assert.deepEqual(lines(r.assets), [
      ['bank', '1000', 'Bank', 240],
      ['current_asset', null, 'VAT receivable', 60],
      ['fixed_asset', '1500', 'Equipment', 400],
    ]);
    assert.deepEqual(lines(r.liabilities), []);
    assert.equal(r.assets.total, 700);
    assert.equal(r.balanced, true);
  });
});

describe('income statement: income tax', () => {
  test('profit before tax 1 000, income tax 270 (27%), net profit after tax 730', async () => {
    const a = await register(t.app, { companyName: 'Karoo Consulting (Pty) Ltd' });
    const api = as(t.app, a.token, a.companyId);
    await journal(api, '2026-03-05', 'Consulting', [
      ['1000', 1_500],
      ['4100', 0, 1_500],
    ]);
    await journal(api, '2026-03-31', 'Rent', [
      ['6400', 500],
      ['1000', 0, 500],
    ]);
    // Profit before tax 1 500 − 500 = 1 000; the corporate rate is 27% (years of assessment
    // ending on or after 31 March 2023): 1 000 × 27% = 270, provided as a journal.
    await journal(api, '2026-04-30', 'Income tax provision', [
      ['9000', 270],
      ['2120', 0, 270],
    ]);
    const r = await report<{
      expenses: Amounts;
      netProfitBeforeTax: number;
      incomeTax: Amounts;
      netProfit: number;
    }>(api, '/api/reports/income-statement?from=2026-03-01&to=2026-05-15');
    assert.deepEqual(
      r.expenses.accounts.map((l) => [l.code, l.amount]),
      [['6400', 500]],
    );
    assert.equal(r.expenses.total, 500);
    assert.equal(r.netProfitBeforeTax, 1_000);
    assert.deepEqual(
      r.incomeTax.accounts.map((l) => [l.code, l.name, l.amount]),
      [['9000', 'Income tax expense', 270]],
    );
    assert.equal(r.incomeTax.total, 270);
    assert.equal(r.netProfit, 730);
    // The balance sheet: bank 1 500 − 500 = 1 000 = income tax payable 270 + earnings 730.
    const s = await report<Sheet>(api, '/api/reports/balance-sheet?asOf=2026-05-15');
    assert.deepEqual(lines(s.liabilities), [
      ['current_liability', '2120', 'Income tax payable (SARS, provisional tax)', 270],
    ]);
    assert.equal(s.equity.currentYearEarnings, 730);
    assert.equal(s.balanced, true);
    // Printed: net profit before tax, the income tax section, net profit after tax.
    const rows = csvOf(
      await api({
        method: 'GET',
        url: '/api/reports/income-statement?from=2026-03-01&to=2026-05-15&format=csv',
      }),
      /income-statement_2026-03-01_2026-05-15/,
    );
    const at = (label: string) => rows.findIndex((row) => row[1] === label);
    assert.deepEqual(rows[at('Net profit before tax')], ['', 'Net profit before tax', '1000.00']);
    assert.deepEqual(rows[at('Income tax') + 1], ['9000', 'Income tax expense', '270.00']);
    assert.deepEqual(rows.at(-1), ['', 'Net profit after tax', '730.00']);
    assert.ok(at('Net profit before tax') < at('Income tax'));
  });
});
