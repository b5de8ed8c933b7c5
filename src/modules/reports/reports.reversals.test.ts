// Issue 14, item 11: a reversal line in the general ledger says it is one ("Void: " and the text
// of the line it reverses) and names the contact the reversed line had, in the JSON and the CSV.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { reverse } from '../ledger/index.ts';
import { type Api, accountIds, csvOf, postEntry, report } from './reports.factories.ts';

let t: TestApp;
let a: Registered;
let api: Api;
let ids: Record<string, string>;
let customer: string;

interface GlLine {
  date: string;
  description: string;
  debit: number;
  credit: number;
  balance: number;
  contactName: string | null;
  reversesEntryId: string | null;
  entryId: string;
}
interface Gl {
  accounts: { code: string; lines: GlLine[]; closingBalance: number }[];
}

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-15T10:00:00.000Z');
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
  ids = await accountIds(api);
  const res = await as(
    t.app,
    a.token,
  )({ method: 'POST', url: '/api/contacts', payload: { name: 'Thandi Stores' } });
  assert.equal(res.statusCode, 201, res.body);
  customer = res.json().id;
});
after(() => t.close());

describe('general ledger: reversal lines', () => {
  test('a voided document: "Void: <original text> — <contact>" on each reversed line; the pair nets to nil', async () => {
    // An invoice as release posts it: Dr debtors 1 150.00 (the customer), Cr sales 1 000.00,
    // Cr VAT output 150.00 (15% of 1 000.00). Its void is the mirror image on the same date.
    const original = await postEntry(t, a.tenantId, a.companyId, '2026-04-10', 'Invoice INV-0001', [
      {
        accountId: ids['1100']!,
        debit: '1150.00',
        contactId: customer,
        openItemId: crypto.randomUUID(),
        description: 'Invoice INV-0001',
      },
      {
        accountId: ids['4000']!,
        credit: '1000.00',
        description: 'Shelving',
        taxCode: 'standard',
        taxRate: 15,
      },
      {
        accountId: ids['2100']!,
        credit: '150.00',
        description: 'VAT 15% on Invoice INV-0001',
        taxCode: 'standard',
        taxRate: 15,
      },
    ]);
    const voided = await withTenant(t.database.db, a.tenantId, (tx) =>
      reverse({ db: tx, tenantId: a.tenantId }, original, { description: 'Void of Invoice INV-0001' }),
    );
    const gl = await report<Gl>(api, '/api/reports/general-ledger?from=2026-04-01&to=2026-04-30');
    const by = Object.fromEntries(gl.accounts.map((x) => [x.code, x]));
    // Debtors: the original line, then its reversal naming the customer; 1 150 − 1 150 = 0.
    assert.deepEqual(
      by['1100']!.lines.map((l) => [
        l.description,
        l.debit,
        l.credit,
        l.balance,
        l.contactName,
        l.reversesEntryId,
      ]),
      [
        ['Invoice INV-0001', 1150, 0, 1150, 'Thandi Stores', null],
        ['Void: Invoice INV-0001 — Thandi Stores', 0, 1150, 0, 'Thandi Stores', original],
      ],
    );
    assert.equal(by['1100']!.lines[1]!.entryId, voided);
    // Sales and VAT lines had no contact: "Void: " and their own text only.
    assert.deepEqual(
      by['4000']!.lines.map((l) => [l.description, l.debit, l.credit, l.contactName]),
      [
        ['Shelving', 0, 1000, null],
        ['Void: Shelving', 1000, 0, null],
      ],
    );
    assert.deepEqual(
      by['2100']!.lines.map((l) => l.description),
      ['VAT 15% on Invoice INV-0001', 'Void: VAT 15% on Invoice INV-0001'],
    );
    for (const code of ['1100', '4000', '2100']) assert.equal(by[code]!.closingBalance, 0);

    // The CSV carries the same text.
    const csv = csvOf(
      await api({
        method: 'GET',
        url: `/api/reports/general-ledger?from=2026-04-01&to=2026-04-30&accountId=${ids['1100']}&format=csv`,
      }),
      /general-ledger_2026-04-01_2026-04-30/,
    );
    const name = '1100 Trade debtors (debtors control)';
    assert.deepEqual(csv[2], [name, '2026-04-10', 'Invoice INV-0001', '', '1150.00', '0.00', '1150.00']);
    assert.deepEqual(csv[3], [
      name,
      '2026-04-10',
      'Void: Invoice INV-0001 — Thandi Stores',
      '',
      '0.00',
      '1150.00',
      '0.00',
    ]);
  });

  test('a voided manual journal: lines without their own text take the journal’s', async () => {
    // Bank charges 125.50: Dr 6100, Cr 1000; voided on 2026-05-02.
    const res = await api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-05-01',
        description: 'Bank charges for April',
        lines: [
          { accountCode: '6100', debit: 125.5, description: 'Monthly service fee' },
          { accountCode: '1000', credit: 125.5 },
        ],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().id;
    const del = await api({ method: 'DELETE', url: `/api/ledger/journals/${id}?date=2026-05-02` });
    assert.ok(del.statusCode < 300, del.body);
    const gl = await report<Gl>(api, '/api/reports/general-ledger?from=2026-05-01&to=2026-05-31');
    const by = Object.fromEntries(gl.accounts.map((x) => [x.code, x]));
    assert.deepEqual(
      by['6100']!.lines.map((l) => [l.date, l.description, l.debit, l.credit]),
      [
        ['2026-05-01', 'Monthly service fee', 125.5, 0],
        ['2026-05-02', 'Void: Monthly service fee', 0, 125.5],
      ],
    );
    assert.deepEqual(
      by['1000']!.lines.map((l) => [l.date, l.description, l.debit, l.credit]),
      [
        ['2026-05-01', 'Bank charges for April', 0, 125.5],
        ['2026-05-02', 'Void: Bank charges for April', 125.5, 0],
      ],
    );
  });
});
