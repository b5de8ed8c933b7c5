// Issue 14, items 6 and 1: a sales line carries a tax code (the rate follows from the code and the
// issue date), the posting tags each income and VAT line with it, and the VAT report puts each code
// in its VAT201 field; a negative line (a discount, an item returned) posts on the other side as
// long as neither the document's total nor its VAT comes to less than zero (issue 34, item 18: that
// is a credit note's work, s21). Figures worked by hand from the VAT Act:
//   s7(1)(a)  standard rate 15% (14% before 2018-04-01)  → field 1 (VAT included), field 4 the VAT
//   s11(1)    zero-rated goods and services              → field 2
//   s11(1)(a) zero-rated exports                         → field 2A
//   s12       exempt supplies, no VAT                    → field 3
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createDoc, release, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

type Line = {
  accountCode: string;
  debit: number;
  credit: number;
  taxCode: string | null;
  taxRate: number | null;
};

async function entry(s: Sales, id: string | null) {
  assert.ok(id, 'the document posted an entry');
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode, l.taxRate]);
}

interface VatReport {
  output: { lines: Array<{ taxCode: string; rate: number; net: number; vat: number }> };
  vat201: Record<string, number>;
}

async function vat(s: Sales, from: string, to: string): Promise<VatReport> {
  const res = await s.api({ method: 'GET', url: `/api/reports/vat?from=${from}&to=${to}&format=json` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const lineOf = (description: string, unitPrice: number, extra: object = {}) => ({
  description,
  quantity: 1,
  unitPrice,
  ...extra,
});

describe('tax codes on sales lines', () => {
  test('standard 1,000, zero 200, export 300, exempt 400, out of scope 50: each in its VAT201 field', async () => {
    const s = await setup();
    const inv = await released(s, {
      lines: [
        lineOf('Consulting', 1000, { taxCode: 'standard' }),
        lineOf('Brown bread', 200, { taxCode: 'zero' }),
        lineOf('Goods shipped to Namibia', 300, { taxCode: 'zero_export' }),
        lineOf('Interest on overdue account', 400, { taxCode: 'exempt' }),
        lineOf('Disbursement', 50, { taxCode: 'out_of_scope' }),
      ],
    });
    // VAT: 1,000 × 15% = 150.00 on the standard line only (s7(1)(a)); the others carry none.
    // Net 1,000 + 200 + 300 + 400 + 50 = 1,950; total 1,950 + 150 = 2,100.
    assert.deepEqual(
      inv.lines.map((l: { taxCode: string; vatRate: number; vatAmount: number }) => [
        l.taxCode,
        l.vatRate,
        l.vatAmount,
      ]),
      [
        ['standard', 15, 150],
        ['zero', 0, 0],
        ['zero_export', 0, 0],
        ['exempt', 0, 0],
        ['out_of_scope', 0, 0],
      ],
    );
    assert.deepEqual([inv.subtotal, inv.vatTotal, inv.total], [1950, 150, 2100]);
    // Each income line carries its code; out of scope carries none (it is in no field).
    assert.deepEqual(await entry(s, inv.entryId), [
      ['1100', 2100, 0, null, null],
      ['4000', 0, 1000, 'standard', 15],
      ['4000', 0, 200, 'zero', 0],
      ['4000', 0, 300, 'zero_export', 0],
      ['4000', 0, 400, 'exempt', 0],
      ['4000', 0, 50, null, null],
      ['2100', 0, 150, 'standard', 15],
    ]);
    const r = await vat(s, '2026-03-01', '2026-03-31');
    assert.deepEqual(
      r.output.lines.map((l) => [l.taxCode, l.rate, l.net, l.vat]),
      // The report lists the codes in their order (alphabetical).
      [
        ['exempt', 0, 400, 0],
        ['standard', 15, 1000, 150],
        ['zero', 0, 200, 0],
        ['zero_export', 0, 300, 0],
      ],
    );
    // Field 1 is the consideration including VAT (SARS VAT201: 1,000 excl. + 150 VAT = 1,150);
    // field 4 its VAT, 150; field 2 = 200 (s11(1)); 2A = 300 (s11(1)(a)); 3 = 400 (s12).
    assert.equal(r.vat201.field1, 1150);
    assert.equal(r.vat201.field2, 200);
    assert.equal(r.vat201.field2A, 300);
    assert.equal(r.vat201.field3, 400);
    assert.equal(r.vat201.field4, 150);
    assert.equal(r.vat201.field13, 150);
    assert.equal(r.vat201.field20, 150);
  });

  test('March 2018: standard is 14%; vatRate 14 means standard, vatRate 15 is refused', async () => {
    const s = await setup();
    const dates = { issueDate: '2018-03-15', dueDate: '2018-04-14' };
    // 1,000 × 14% = 140.00 (the rate before 2018-04-01); total 1,140.
    const inv = await released(s, { ...dates, lines: [lineOf('Consulting', 1000)] });
    assert.deepEqual(
      [inv.lines[0].taxCode, inv.lines[0].vatRate, inv.vatTotal, inv.total],
      ['standard', 14, 140, 1140],
    );
    const stated = await createDoc(s, { ...dates, lines: [lineOf('Consulting', 500, { vatRate: 14 })] });
    // 500 × 14% = 70.00
    assert.deepEqual([stated.lines[0].taxCode, stated.lines[0].vatAmount], ['standard', 70]);
    const r = await vat(s, '2018-03-01', '2018-03-31');
    assert.deepEqual(r.output.lines, [{ taxCode: 'standard', rate: 14, net: 1000, vat: 140 }]);
    // Field 1 = 1,000 + 140 = 1,140; field 4 = 140 (the draft of 500 posts nothing).
    assert.deepEqual([r.vat201.field1, r.vat201.field4], [1140, 140]);

    const refused = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        ...dates,
        lines: [lineOf('Fine', 100), lineOf('Not a rate of March 2018', 100, { vatRate: 15 })],
      },
    });
    assert.equal(assertProblem(refused, 400).field, 'lines[1].vatRate');
  });

  test('vatRate: 0 is zero, 15 standard (2026); any other rate or a disagreeing code is 400 naming it', async () => {
    const s = await setup();
    const doc = await createDoc(s, {
      lines: [
        lineOf('Maize meal', 80, { vatRate: 0 }),
        lineOf('Consulting', 200, { vatRate: 15 }),
        lineOf('Plain', 10),
      ],
    });
    assert.deepEqual(
      doc.lines.map((l: { taxCode: string; vatAmount: number }) => [l.taxCode, l.vatAmount]),
      // 200 × 15% = 30.00; 10 × 15% = 1.50 (neither given: standard)
      [
        ['zero', 0],
        ['standard', 30],
        ['standard', 1.5],
      ],
    );
    const post = (lines: object[]) =>
      s.api({
        method: 'POST',
        url: '/api/invoices',
        payload: {
          contactId: s.customerId,
          documentType: 'invoice',
          issueDate: '2026-03-02',
          dueDate: '2026-04-01',
          lines,
        },
      });
    assert.equal(
      assertProblem(await post([lineOf('Ten percent', 100, { vatRate: 10 })]), 400).field,
      'lines[0].vatRate',
    );
    assert.equal(
      assertProblem(await post([lineOf('Old rate', 100, { vatRate: 14 })]), 400).field,
      'lines[0].vatRate',
    );
    assert.equal(
      assertProblem(await post([lineOf('a', 1), lineOf('b', 1, { taxCode: 'exempt', vatRate: 15 })]), 400)
        .field,
      'lines[1].vatRate',
    );
    assert.equal(
      assertProblem(await post([lineOf('a', 1, { taxCode: 'input_standard' })]), 400).field,
      'lines[0].taxCode',
    );
    // Both given and agreeing: accepted.
    const agreed = await createDoc(s, {
      lines: [lineOf('Export', 100, { taxCode: 'zero_export', vatRate: 0 })],
    });
    assert.equal(agreed.lines[0].taxCode, 'zero_export');
  });

  test('a draft keeps its codes: a new issue date prices them again (14% in March 2018); a quote converts with them', async () => {
    const s = await setup();
    const draft = await createDoc(s, {
      lines: [lineOf('Consulting', 1000), lineOf('Interest', 100, { taxCode: 'exempt' })],
    });
    // 1,000 × 15% = 150; exempt 100 none: total 1,250.
    assert.equal(draft.total, 1250);
    const moved = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${draft.id}`,
      payload: { issueDate: '2018-03-15', dueDate: '2018-04-14' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    // 1,000 × 14% = 140; total 1,000 + 140 + 100 = 1,240; the exempt line stays exempt.
    assert.deepEqual(
      [moved.json().total, moved.json().lines.map((l: { taxCode: string }) => l.taxCode)],
      [1240, ['standard', 'exempt']],
    );
    const quote = await createDoc(s, {
      documentType: 'quote',
      lines: [lineOf('Export', 300, { taxCode: 'zero_export' }), lineOf('Consulting', 100)],
    });
    const conv = await s.api({
      method: 'POST',
      url: `/api/invoices/${quote.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    assert.equal(conv.statusCode, 201, conv.body);
    assert.deepEqual(
      conv.json().lines.map((l: { taxCode: string }) => l.taxCode),
      ['zero_export', 'standard'],
    );
  });

  test('not VAT-registered: the codes are kept, no VAT is charged and the posting carries no tag', async () => {
    const s = await salesSetup(t, await register(t.app), { vatRegistered: false });
    const inv = await released(s, {
      lines: [lineOf('Consulting', 1000), lineOf('Export', 300, { taxCode: 'zero_export' })],
    });
    assert.deepEqual(
      inv.lines.map((l: { taxCode: string; vatRate: number }) => [l.taxCode, l.vatRate]),
      [
        ['standard', 0],
        ['zero_export', 0],
      ],
    );
    assert.deepEqual(await entry(s, inv.entryId), [
      ['1100', 1300, 0, null, null],
      ['4000', 0, 1000, null, null],
      ['4000', 0, 300, null, null],
    ]);
  });
});

describe('recurring schedules take the same line', () => {
  test('a template line keeps its taxCode; a rate that is no rate of its start date is 400 naming it', async () => {
    const s = await setup();
    const payload = (lines: object[]) => ({
      contactId: s.customerId,
      frequency: 'monthly',
      startDate: '2026-04-01',
      lines,
    });
    const res = await s.api({
      method: 'POST',
      url: '/api/recurring',
      payload: payload([lineOf('Retainer', 4500), lineOf('Interest', 10, { taxCode: 'exempt' })]),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      res.json().lines.map((l: { taxCode: string | null }) => l.taxCode),
      [null, 'exempt'],
    );
    const refused = await s.api({
      method: 'POST',
      url: '/api/recurring',
      payload: payload([lineOf('Retainer', 4500, { vatRate: 10 })]),
    });
    assert.equal(assertProblem(refused, 400).field, 'lines[0].vatRate');
  });
});

describe('negative lines', () => {
  test('1,000 standard and a −100 discount: net 900, VAT 135, total 1,035; Dr income 100; VAT field 1 = 1,035, field 4 = 135', async () => {
    const s = await setup();
    const inv = await released(s, { lines: [lineOf('Consulting', 1000), lineOf('Discount', -100)] });
    // 1,000 × 15% = 150.00; −100 × 15% = −15.00; VAT 135.00; net 900.00; total 1,035.00.
    assert.deepEqual([inv.subtotal, inv.vatTotal, inv.total], [900, 135, 1035]);
    assert.deepEqual(
      inv.lines.map((l: { netAmount: number; vatAmount: number }) => [l.netAmount, l.vatAmount]),
      [
        [1000, 150],
        [-100, -15],
      ],
    );
    // The discount posts as a debit to income; the VAT of the rate nets to one credit of 135
    // (150 − 15). Debits 1,035 + 100 = 1,135 = credits 1,000 + 135: the entry balances.
    assert.deepEqual(await entry(s, inv.entryId), [
      ['1100', 1035, 0, null, null],
      ['4000', 0, 1000, 'standard', 15],
      ['4000', 100, 0, 'standard', 15],
      ['2100', 0, 135, 'standard', 15],
    ]);
    const r = await vat(s, '2026-03-01', '2026-03-31');
    assert.deepEqual(r.output.lines, [{ taxCode: 'standard', rate: 15, net: 900, vat: 135 }]);
    // Field 1 = 900 + 135 = 1,035 (VAT included); field 4 = 135.
    assert.deepEqual([r.vat201.field1, r.vat201.field4, r.vat201.field20], [1035, 135, 135]);
  });

  test('VAT below zero on an invoice is refused (issue 34, item 18): the return goes on a credit note (s21)', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    // A zero-rated sale of 1,000 and a standard-rated item of 100 returned on the same invoice:
    // VAT 0 + (−100 × 15%) = −15.00, total 1,000 − 100 − 15 = 885. The total is positive, but
    // the invoice would reduce output tax (field 4 −15) with no credit note: refused, naming the
    // VAT total, on create and on update.
    const lines = [lineOf('Maize meal', 1000, { taxCode: 'zero' }), lineOf('Returned kettle', -100)];
    const created = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines,
      },
    });
    const body = assertProblem(created, 422);
    assert.deepEqual([body.code, body.field], ['CREDIT_NOTE_REQUIRED', 'vatTotal']);
    const draft = await createDoc(s);
    const updated = await s.api({ method: 'PATCH', url: `/api/invoices/${draft.id}`, payload: { lines } });
    assert.deepEqual(
      [assertProblem(updated, 422).code, assertProblem(updated, 422).field],
      ['CREDIT_NOTE_REQUIRED', 'vatTotal'],
    );
    // A cash sale is a tax invoice too.
    const cash = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'cash_sale',
        issueDate: '2026-03-02',
        dueDate: '2026-03-02',
        lines,
      },
    });
    assert.equal(assertProblem(cash, 422).field, 'vatTotal');
    // A draft stored before the rule (its VAT set below zero behind the API) is refused at release.
    await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .updateTable('invoices')
        .set({ vat_total: '-15.00', total: '885.00' })
        .where('tenant_id', '=', b.tenantId)
        .where('id', '=', draft.id)
        .execute(),
    );
    const rel = await s.api({ method: 'POST', url: `/api/invoices/${draft.id}/release` });
    assert.deepEqual(
      [assertProblem(rel, 422).code, assertProblem(rel, 422).field],
      ['CREDIT_NOTE_REQUIRED', 'vatTotal'],
    );
    // The way it is done: the sale of 1,000 zero-rated, and a credit note for the kettle, 100 +
    // 15% = 115; fields: 2 = 1,000, 1 = −115, 4 = −15 (the credit note's decrease, s21).
    await released(s, { lines: [lines[0]!] });
    const cn = await released(s, { documentType: 'credit_note', lines: [lineOf('Returned kettle', 100)] });
    assert.deepEqual([cn.vatTotal, cn.total], [15, 115]);
    const r = await vat(s, '2026-03-01', '2026-03-31');
    assert.deepEqual([r.vat201.field1, r.vat201.field2, r.vat201.field4], [-115, 1000, -15]);
  });

  test('a credit note with a negative line is the mirror: Cr income on the negative line', async () => {
    const s = await setup();
    const cn = await released(s, {
      documentType: 'credit_note',
      lines: [lineOf('Return', 200), lineOf('Restocking fee kept', -50)],
    });
    // Net 150; VAT 30 − 7.50 = 22.50; total 172.50. Debits 200 + 22.50 = 222.50 = credits 172.50 + 50.
    assert.equal(cn.total, 172.5);
    assert.deepEqual(await entry(s, cn.entryId), [
      ['1100', 0, 172.5, null, null],
      ['4000', 200, 0, 'standard', 15],
      ['4000', 0, 50, 'standard', 15],
      ['2100', 22.5, 0, 'standard', 15],
    ]);
  });

  test('a document whose total is negative is refused at create and update, naming total (422)', async () => {
    const s = await setup();
    const lines = [lineOf('Consulting', 100), lineOf('Refund', -200)];
    const created = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines,
      },
    });
    // 100 − 200 = −100 net, −15 VAT: −115 in all. Money given back is a credit note (s21).
    assert.deepEqual(
      [assertProblem(created, 422).code, assertProblem(created, 422).field],
      ['CREDIT_NOTE_REQUIRED', 'total'],
    );
    const draft = await createDoc(s);
    const updated = await s.api({ method: 'PATCH', url: `/api/invoices/${draft.id}`, payload: { lines } });
    assert.equal(assertProblem(updated, 422).field, 'total');
    // A credit note keeps its own rule: one below zero is a 400 naming lines.
    const note = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'credit_note',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines,
      },
    });
    assert.equal(assertProblem(note, 400).field, 'lines');
    // A total of exactly zero is no negative total, but posts nothing: kept as a draft.
    const zero = await createDoc(s, { lines: [lineOf('Consulting', 100), lineOf('Waived', -100)] });
    assert.equal(zero.total, 0);
    const res = await s.api({ method: 'POST', url: `/api/invoices/${zero.id}/release` });
    assert.equal(assertProblem(res, 400).field, 'lines');
    // The draft refused to change is as it was.
    const same = await release(s, draft.id);
    assert.equal(same.total, 1149.99);
  });
});
