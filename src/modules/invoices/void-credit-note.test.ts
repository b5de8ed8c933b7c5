// Voiding a released tax invoice issues a credit note for the whole of it (issue 14, item 5;
// VAT Act s21(1), (3): the customer may hold the tax invoice, so its cancellation is a credit
// note, numbered, printable and sendable). Only a never-released draft is simply deleted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfOf } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

// One line of 1,000.00 at the standard rate: VAT 15% (s7(1)(a)) = 150.00, total 1,150.00.
const THOUSAND = [{ description: 'Consulting', quantity: 1, unitPrice: 1000 }];

async function get(s: Sales, url: string) {
  const res = await s.api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function voidIt(s: Sales, id: string, date?: string) {
  const res = await s.api({ method: 'DELETE', url: `/api/invoices/${id}${date ? `?date=${date}` : ''}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function creditNotes(s: Sales) {
  return (await get(s, '/api/invoices?documentType=credit_note&limit=100')).items;
}

describe('voiding a released tax invoice issues a credit note (s21)', () => {
  test('1,150 released then voided: CN-0001 of 1,150, released, applied to it; the books net to nothing', async () => {
    const s = await setup();
    const inv = await released(s, { lines: THOUSAND });
    assert.equal(inv.number, 'INV-0001');
    assert.equal(inv.total, 1150);

    const voided = await voidIt(s, inv.id);
    assert.equal(voided.status, 'void');
    assert.equal(voided.voidEntryId, null, 'the invoice keeps its entry: no reversal');
    assert.equal(voided.amountDue, 0);
    // The credit note is applied to the invoice whole: 1,150 credited.
    assert.equal(voided.amountCredited, 1150);

    const cn = await get(s, `/api/invoices/${voided.voidedByCreditNoteId}`);
    assert.equal(cn.documentType, 'credit_note');
    assert.equal(cn.number, 'CN-0001');
    assert.equal(cn.creditedDocumentId, inv.id);
    // Dated the day it is issued: today by the test's clock (no `date` given).
    assert.equal(cn.issueDate, '2026-03-20');
    assert.ok(cn.entryId && cn.releasedAt, 'released and posted');
    // Wholly applied to the invoice it credits: nothing left of it.
    assert.equal(cn.status, 'applied');
    assert.deepEqual([cn.subtotal, cn.vatTotal, cn.total, cn.amountDue], [1000, 150, 1150, 0]);
    assert.deepEqual(
      cn.lines.map(
        (l: {
          description: string;
          quantity: number;
          unitPrice: number;
          taxCode: string;
          vatRate: number;
        }) => [l.description, l.quantity, l.unitPrice, l.taxCode, l.vatRate],
      ),
      [['Consulting', 1, 1000, 'standard', 15]],
    );

    // Its entry is the mirror of the invoice's: Dr sales 1,000, Dr VAT output 150, Cr debtors 1,150.
    const entry = await get(s, `/api/ledger/journals/${cn.entryId}`);
    assert.deepEqual(
      entry.lines.map((l: { accountCode: string; debit: number; credit: number }) => [
        l.accountCode,
        l.debit,
        l.credit,
      ]),
      [
        ['1100', 0, 1150],
        ['4000', 1000, 0],
        ['2100', 150, 0],
      ],
    );

    // Income statement for March: revenue 1,000 (the invoice) − 1,000 (the credit note) = 0.
    const income = await get(s, '/api/reports/income-statement?from=2026-03-01&to=2026-03-31');
    assert.equal(income.revenue.total, 0);
    assert.equal(income.netProfit, 0);

    // VAT for March: field 1 (standard-rated supplies incl. VAT) 1,150 − 1,150 = 0; field 4
    // (output tax) 150 − 150 = 0; nothing payable.
    const vat = await get(s, '/api/reports/vat?from=2026-03-01&to=2026-03-31');
    assert.equal(vat.vat201.field1, 0);
    assert.equal(vat.vat201.field4, 0);
    assert.equal(vat.vat201.field20, 0);

    // Aged debtors: the invoice's item (Dr 1,150) and the credit note's (Cr 1,150) both closed by
    // the application, so the customer owes nothing and is not listed.
    const aged = await get(s, '/api/contacts/aged-debtors?asOf=2026-03-31');
    assert.equal(
      aged.find((r: { contactId: string }) => r.contactId === s.customerId),
      undefined,
    );

    // The general ledger shows both: sales credited 1,000 by INV-0001, debited 1,000 by CN-0001.
    const gl = await get(s, '/api/reports/general-ledger?from=2026-03-01&to=2026-03-31');
    const sales = gl.accounts.find((a: { code: string }) => a.code === '4000');
    assert.deepEqual(
      sales.lines.map((l: { date: string; reference: string; debit: number; credit: number }) => [
        l.date,
        l.reference,
        l.debit,
        l.credit,
      ]),
      [
        ['2026-03-02', 'INV-0001', 0, 1000],
        ['2026-03-20', 'CN-0001', 1000, 0],
      ],
    );
    assert.equal(sales.closingBalance, 0);

    // Printable: its PDF is a tax credit note naming the invoice (s21(3)(b)).
    const [text] = await pdfOf(
      await s.api({ method: 'GET', url: `/api/invoices/${cn.id}/pdf` }),
      /CN-0001\.pdf/,
    );
    for (const w of ['Tax Credit Note', 'Credit note for invoice INV-0001'])
      assert.ok(text!.includes(w), `"${w}" is not in:\n${text}`);

    // A second void: 409, and no second credit note.
    const again = await s.api({ method: 'DELETE', url: `/api/invoices/${inv.id}` });
    assert.equal(assertProblem(again, 409).code, 'ALREADY_VOID');
    assert.equal((await creditNotes(s)).length, 1);
    // Its application is part of the void: undoing it would make a void invoice owed again.
    const applications = await get(s, `/api/invoices/${inv.id}/allocations`);
    assert.equal(applications.length, 1);
    const undo = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${inv.id}/allocations/${applications[0].id}`,
    });
    assert.equal(assertProblem(undo, 409).code, 'ALREADY_VOID');
    // The credit note, applied, cannot itself be voided while it stands applied.
    const cnVoid = await s.api({ method: 'DELETE', url: `/api/invoices/${cn.id}` });
    assert.equal(assertProblem(cnVoid, 409).code, 'HAS_PAYMENTS');
  });

  test('a draft is deleted (204) with no credit note', async () => {
    const s = await setup();
    const draft = await createDoc(s, { lines: THOUSAND });
    assert.equal((await s.api({ method: 'DELETE', url: `/api/invoices/${draft.id}` })).statusCode, 204);
    assert.deepEqual(await creditNotes(s), []);
  });

  test('`date` dates the credit note; before the invoice it is 400 naming date', async () => {
    const s = await setup();
    const inv = await released(s, { lines: THOUSAND });
    const early = await s.api({ method: 'DELETE', url: `/api/invoices/${inv.id}?date=2026-03-01` });
    assert.equal(assertProblem(early, 400).field, 'date');
    assert.deepEqual(await creditNotes(s), []);
    const voided = await voidIt(s, inv.id, '2026-03-25');
    const cn = await get(s, `/api/invoices/${voided.voidedByCreditNoteId}`);
    assert.equal(cn.issueDate, '2026-03-25');
    // An invoice dated after today (2026-03-20): the default is its issue date, never before it.
    const ahead = await released(s, { issueDate: '2026-04-10', dueDate: '2026-05-10', lines: THOUSAND });
    const aheadVoid = await voidIt(s, ahead.id);
    assert.equal((await get(s, `/api/invoices/${aheadVoid.voidedByCreditNoteId}`)).issueDate, '2026-04-10');
  });

  test("the credit note takes the invoice's rate: a 14% invoice of 2018 voided in 2026", async () => {
    const s = await setup();
    // 1,000 at 14% (the standard rate before 2018-04-01) = 140 VAT, total 1,140.
    const inv = await released(s, { issueDate: '2018-03-15', dueDate: '2018-04-14', lines: THOUSAND });
    assert.equal(inv.total, 1140);
    const voided = await voidIt(s, inv.id);
    const cn = await get(s, `/api/invoices/${voided.voidedByCreditNoteId}`);
    // s21: the credit note adjusts the output tax charged on that supply, at 14%, though dated 2026.
    assert.equal(cn.issueDate, '2026-03-20');
    assert.deepEqual([cn.subtotal, cn.vatTotal, cn.total], [1000, 140, 1140]);
    assert.equal(cn.lines[0].vatRate, 14);
  });

  test('a debit note is voided by a credit note too', async () => {
    const s = await setup();
    const dn = await released(s, { documentType: 'debit_note', lines: THOUSAND });
    const voided = await voidIt(s, dn.id);
    const cn = await get(s, `/api/invoices/${voided.voidedByCreditNoteId}`);
    assert.equal(cn.creditedDocumentId, dn.id);
    assert.equal(cn.total, 1150);
    assert.equal(cn.status, 'applied');
  });

  test('a cash sale is voided by a credit note refunded at once: the money goes back, the VAT is reduced', async () => {
    const s = await setup();
    const cash = await released(s, { documentType: 'cash_sale', lines: THOUSAND });
    // The sale: Dr bank 1,150, Cr sales 1,000, Cr VAT output 150 (paid on the spot).
    const voided = await voidIt(s, cash.id);
    assert.equal(voided.status, 'void');
    assert.equal(voided.voidEntryId, null, 'cancelled by a credit note, not a silent reversal');
    const cn = await get(s, `/api/invoices/${voided.voidedByCreditNoteId}`);
    assert.deepEqual(
      [cn.documentType, cn.number, cn.creditedDocumentId, cn.total, cn.vatTotal],
      ['credit_note', 'CN-0001', cash.id, 1150, 150],
    );
    // Nothing was owing on the sale, so the credit note is not applied to it: it is refunded
    // whole, the same day, from the bank: Dr debtors 1,150 (the note's item) / Cr bank 1,150.
    assert.equal(cn.status, 'refunded');
    assert.equal(cn.amountRefunded, 1150);
    const refunds = await get(s, `/api/customer-credits/${cn.id}/refunds`);
    assert.deepEqual(
      refunds.map((r: { amount: number; reference: string }) => [r.amount, r.reference]),
      [[1150, `Void of ${cash.number}`]],
    );
    // The books net to nothing: bank +1,150 − 1,150 = 0; sales 1,000 − 1,000 = 0; debtors
    // −1,150 + 1,150 = 0. The VAT return shows the sale (field 1 = 1,150, 4 = 150) and the
    // credit note against it in the same period (s21: −1,150 and −150): both fields 0.
    const tb = await get(s, '/api/reports/trial-balance?asOf=2026-03-31');
    const balance = (code: string) => {
      const a = tb.accounts.find((x: { code: string }) => x.code === code);
      return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
    };
    assert.deepEqual([balance('1000'), balance('4000'), balance('1100'), balance('2100')], [0, 0, 0, 0]);
    const v = (await get(s, '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.deepEqual([v.field1, v.field4], [0, 0]);
  });

  test('a credit note may name a cash sale (goods returned): it is customer credit, refunded on request', async () => {
    const s = await setup();
    const cash = await released(s, { documentType: 'cash_sale', lines: THOUSAND });
    // One of the two items of 500 returned: 500 + 15% = 575 (s21, the sale's rate).
    const note = await released(s, {
      documentType: 'credit_note',
      creditedDocumentId: cash.id,
      lines: [{ description: 'Consulting (half)', quantity: 1, unitPrice: 500 }],
    });
    assert.deepEqual([note.total, note.status, note.creditedDocumentId], [575, 'open', cash.id]);
    const paid = await s.api({
      method: 'POST',
      url: `/api/customer-credits/${note.id}/refunds`,
      payload: { date: '2026-03-20' },
    });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.equal(paid.json().amount, 575);
    assert.equal((await get(s, `/api/invoices/${note.id}`)).status, 'refunded');
  });

  test('other documents keep the reversal: a credit note, a quote', async () => {
    const s = await setup();
    // A credit note naming no invoice: reversed.
    const note = await released(s, { documentType: 'credit_note', lines: THOUSAND });
    const noteVoid = await voidIt(s, note.id);
    assert.ok(noteVoid.voidEntryId);
    assert.equal(noteVoid.voidedByCreditNoteId, null);
    // A quote posts nothing: void, with neither.
    const quote = await released(s, { documentType: 'quote', lines: THOUSAND });
    const quoteVoid = await voidIt(s, quote.id);
    assert.equal(quoteVoid.status, 'void');
    assert.deepEqual([quoteVoid.voidEntryId, quoteVoid.voidedByCreditNoteId], [null, null]);
    // Only the one credit note made above exists.
    assert.deepEqual(
      (await creditNotes(s)).map((n: { id: string }) => n.id),
      [note.id],
    );
  });
});
