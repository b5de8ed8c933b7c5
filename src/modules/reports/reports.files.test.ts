// Every report as CSV (parsed back) and as PDF (its text extracted with unpdf): the file's type
// and name, the header row, the title, the company, the period and the figures; a long report
// breaks over pages that repeat the headings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { post } from '../ledger/index.ts';
import { type Api, accountIds, csvOf, journal, pdfOf, postEntry } from './reports.factories.ts';

let t: TestApp;
let a: Registered;
let api: Api;
let ids: Record<string, string>;

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-15T10:00:00.000Z');
  a = await register(t.app, { plan: 'business', companyName: 'Jacaranda Bakery CC' });
  api = as(t.app, a.token, a.companyId);
  ids = await accountIds(api);
  await journal(api, '2026-03-01', 'Capital introduced', [
    ['1000', 50_000],
    ['3000', 0, 50_000],
  ]);
  await journal(api, '2026-03-05', 'Sales, "Saturday" market', [
    ['1000', 12_345.67],
    ['4000', 0, 12_345.67],
  ]);
  await journal(api, '2026-04-15', 'Bank charges', [
    ['6100', 125.5],
    ['1000', 0, 125.5],
  ]);
  await journal(api, '2026-04-20', 'Oven', [
    ['1500', 8_000],
    ['1000', 0, 8_000],
  ]);
  const contact = await as(
    t.app,
    a.token,
  )({ method: 'POST', url: '/api/contacts', payload: { name: '=HYPERLINK("x") Café, Ltd' } });
  await postEntry(t, a.tenantId, a.companyId, '2026-04-01', 'Invoice 1', [
    {
      accountId: ids['1100']!,
      debit: '1150.00',
      contactId: contact.json().id,
      openItemId: crypto.randomUUID(),
    },
    { accountId: ids['4000']!, credit: '1000.00', taxCode: 'standard', taxRate: 15 },
    { accountId: ids['2100']!, credit: '150.00', taxCode: 'standard', taxRate: 15 },
  ]);
});
after(() => t.close());

const get = (url: string) => api({ method: 'GET', url });

describe('CSV', () => {
  test('income statement: a header row, then the sections with their totals', async () => {
    const rows = csvOf(
      await get('/api/reports/income-statement?format=csv'),
      /income-statement_2026-03-01_2026-05-15/,
    );
    assert.deepEqual(rows[0], ['Code', 'Account', 'Amount']);
    assert.deepEqual(rows[1], ['', 'Revenue', '']);
    assert.deepEqual(rows[2], ['4000', 'Sales', '13345.67']);
    assert.ok(rows.some((r) => r[1] === 'Total revenue' && r[2] === '13345.67'));
    assert.ok(rows.some((r) => r[1] === 'Bank charges' && r[2] === '125.50'));
    // No income tax in these books: net profit before tax = after tax (issue 14's tax line).
    assert.ok(rows.some((r) => r[1] === 'Net profit before tax' && r[2] === '13220.17'));
    assert.deepEqual(rows.at(-1), ['', 'Net profit after tax', '13220.17']);
    assert.ok(
      rows.every((r) => r.length === 3),
      'every record has the header’s fields',
    );
  });

  test('without format, the Accept header chooses: text/csv, application/pdf, JSON by default', async () => {
    const url = '/api/reports/income-statement';
    const csv = await api({ method: 'GET', url, headers: { accept: 'text/csv' } });
    assert.equal(csv.statusCode, 200, csv.body);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const pdf = await api({
      method: 'GET',
      url,
      headers: { accept: 'application/json;q=0.5, application/pdf' },
    });
    assert.match(String(pdf.headers['content-type']), /^application\/pdf/);
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'text/csv;q=0.5, application/json',
      'image/png',
    ]) {
      const json = await api({ method: 'GET', url, headers: accept ? { accept } : {} });
      assert.match(String(json.headers['content-type']), /^application\/json/, String(accept));
    }
    // format wins over Accept.
    const given = await api({ method: 'GET', url: `${url}?format=json`, headers: { accept: 'text/csv' } });
    assert.match(String(given.headers['content-type']), /^application\/json/);
  });

  test('balance sheet, trial balance, cash flow, general ledger, VAT and aged debtors', async () => {
    const bs = csvOf(await get('/api/reports/balance-sheet?format=csv'), /balance-sheet_2026-05-15\.csv/);
    assert.ok(bs.some((r) => r[1] === 'Total assets' && r[2] === '63370.17'));
    assert.ok(bs.some((r) => r[1] === 'Total liabilities and equity' && r[2] === '63370.17'));

    const tb = csvOf(await get('/api/reports/trial-balance?format=csv'), /trial-balance_2026-05-15/);
    assert.deepEqual(tb[0], ['Code', 'Account', 'Type', 'Debit', 'Credit']);
    assert.deepEqual(tb.at(-1), ['', 'Total', '', '63495.67', '63495.67']);

    const cf = csvOf(await get('/api/reports/cash-flow?format=csv'), /cash-flow_2026-03-01_2026-05-15/);
    assert.deepEqual(cf.at(-1), ['', 'Closing cash', '54220.17']);

    const gl = csvOf(
      await get(`/api/reports/general-ledger?format=csv&accountId=${ids['1000']}`),
      /general-ledger_2026-03-01_2026-05-15/,
    );
    assert.deepEqual(gl[0], ['Account', 'Date', 'Description', 'Reference', 'Debit', 'Credit', 'Balance']);
    assert.deepEqual(gl[1], ['1000 Bank', '2026-03-01', 'Opening balance', '', '', '', '0.00']);
    // A description with a comma and quotes comes back whole.
    assert.deepEqual(gl[3], [
      '1000 Bank',
      '2026-03-05',
      'Sales, "Saturday" market',
      'REF-2026-03-05',
      '12345.67',
      '0.00',
      '62345.67',
    ]);
    assert.deepEqual(gl.at(-1), [
      '1000 Bank',
      '2026-05-15',
      'Closing balance',
      '',
      '62345.67',
      '8125.50',
      '54220.17',
    ]);

    const vat = csvOf(await get('/api/reports/vat?format=csv'), /vat_2026-03-01_2026-05-15/);
    assert.deepEqual(vat[0], ['Tax code', 'Rate %', 'Net', 'VAT']);
    assert.ok(
      vat.some((r) => r[0] === 'Standard-rated supplies (standard)' && r[1] === '15' && r[3] === '150.00'),
    );
    // The second block: the VAT201 fields, after an empty line, with its own header row.
    const at = vat.findIndex((r) => r[0] === 'Field');
    assert.ok(at > 0);
    assert.deepEqual(vat[at - 1], ['']);
    // SARS's label of field 1 (GEN-ELEC-04-G01).
    assert.deepEqual(vat[at + 1], [
      '1',
      'Standard rate (excluding capital goods and/or services and accommodation): consideration including VAT',
      '1150.00',
    ]);

    const aged = csvOf(await get('/api/reports/aged-debtors?format=csv'), /aged-debtors_2026-05-15/);
    assert.deepEqual(aged[0], [
      'Contact',
      'Current',
      '1-30 days',
      '31-60 days',
      '61-90 days',
      '91-120 days',
      'Over 120 days',
      'Unapplied credit',
      'Total',
    ]);
    // A name that a spreadsheet would run as a formula is kept as text.
    assert.equal(aged[1]![0], '\'=HYPERLINK("x") Café, Ltd');
    assert.equal(aged[1]![8], '1150.00');
    // No due date: it ages from its date, 2026-04-01, 44 days before today.
    assert.deepEqual(aged.at(-1), [
      'Total',
      '0.00',
      '0.00',
      '1150.00',
      '0.00',
      '0.00',
      '0.00',
      '0.00',
      '1150.00',
    ]);
  });
});

describe('PDF', () => {
  test('every report: a real PDF with the company, the title, the period and its figures', async () => {
    const cases: Array<[string, RegExp, string, string[]]> = [
      ['income-statement', /income-statement_/, 'Income statement', ['13 345.67', 'Net profit', '13 220.17']],
      [
        'balance-sheet',
        /balance-sheet_/,
        'Balance sheet',
        ['As at 15 May 2026', 'Total assets', '63 370.17'],
      ],
      ['trial-balance', /trial-balance_/, 'Trial balance', ['63 495.67']],
      ['general-ledger', /general-ledger_/, 'General ledger', ['Opening balance', '54 220.17']],
      ['cash-flow', /cash-flow_/, 'Cash flow statement', ['Closing cash', '54 220.17']],
      ['vat', /vat_/, 'VAT report', ['VAT201', 'Total output tax', '150.00']],
      ['aged-debtors', /aged-debtors_/, 'Aged debtors', ['Café', '1 150.00']],
      ['aged-creditors', /aged-creditors_/, 'Aged creditors', ['Total']],
    ];
    for (const [route, filename, title, figures] of cases) {
      const pages = await pdfOf(await get(`/api/reports/${route}?format=pdf`), filename);
      const text = pages.join('\n');
      assert.ok(text.includes('Jacaranda Bakery CC'), `${route}: the company`);
      assert.ok(text.includes(title), `${route}: the title`);
      for (const f of figures) assert.ok(text.includes(f), `${route}: ${f} in\n${text}`);
      assert.match(pages[0]!, /Page 1 of \d+/);
    }
    const is = (await pdfOf(await get('/api/reports/income-statement?format=pdf'), /income/)).join('\n');
    assert.ok(is.includes('1 March 2026 to 15 May 2026'), 'the period');
  });

  test('a long report breaks over pages; each page repeats the heading and the columns', async () => {
    // 300 journals of two lines each in one transaction: 600 lines, many pages.
    await withTenant(t.database.db, a.tenantId, async (tx) => {
      for (let i = 0; i < 300; i++) {
        await post(
          { db: tx, tenantId: a.tenantId },
          {
            companyId: a.companyId,
            date: '2026-05-02',
            description: `Card sale ${i + 1}`,
            source: { type: 'test' },
            lines: [
              { accountId: ids['1000']!, debit: '10.00' },
              { accountId: ids['4000']!, credit: '10.00' },
            ],
          },
        );
      }
    });
    const pages = await pdfOf(
      await get('/api/reports/general-ledger?format=pdf&from=2026-05-01'),
      /general-ledger/,
    );
    assert.ok(pages.length >= 10, `${pages.length} pages`);
    for (const [i, page] of pages.entries()) {
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} numbered`);
      assert.ok(page.includes('Jacaranda Bakery CC'), `page ${i + 1} names the company`);
      assert.ok(page.includes('Balance'), `page ${i + 1} repeats the columns`);
    }
    const all = pages.join('\n');
    assert.ok(all.includes('Card sale 1'), 'the first line');
    assert.ok(all.includes('Card sale 300'), 'the last line');
    // Bank: 54 220.17 + 3 000.00 = 57 220.17 at its close.
    assert.ok(all.includes('57 220.17'));
  });
});
