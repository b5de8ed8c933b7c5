// What each document type does to the ledger, and the books after release, payment, credit
// note, deposit and void: the journal entry's lines, the debtors control balance and aged
// debtors, all read back through the API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, pay, released, type Sales, salesSetup } from './invoices.factories.ts';

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
  contactId: string | null;
};

async function entry(s: Sales, id: string | null): Promise<Array<[string, number, number, string | null]>> {
  assert.ok(id, 'the document posted an entry');
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode]);
}

async function debtors(s: Sales) {
  const rows = (await s.api({ method: 'GET', url: '/api/contacts/aged-debtors?asOf=2026-03-20' })).json();
  return rows.find((r: { contactId: string }) => r.contactId === s.customerId) ?? null;
}

async function balanceOf(s: Sales, code: string): Promise<number> {
  const accounts = (await s.api({ method: 'GET', url: '/api/accounts' })).json();
  const account = accounts.find((a: { code: string }) => a.code === code);
  const lines = (await s.api({ method: 'GET', url: `/api/ledger?accountId=${account.id}&limit=200` })).json();
  return Math.round(lines.items.reduce((n: number, l: Line) => n + l.debit * 100 - l.credit * 100, 0)) / 100;
}

describe('ledger effect of each document type', () => {
  test('invoice: Dr debtors 1,149.99; Cr sales 999.99 (standard 15%); Cr VAT output 150.00', async () => {
    const s = await setup();
    const inv = await released(s);
    assert.equal(inv.status, 'open');
    assert.deepEqual(await entry(s, inv.entryId), [
      ['1100', 1149.99, 0, null],
      ['4000', 0, 999.99, 'standard'],
      ['2100', 0, 150, 'standard'],
    ]);
    assert.deepEqual(await debtors(s), {
      contactId: s.customerId,
      contactName: 'Thandi Stores (Pty) Ltd',
      current: 1149.99,
      days30: 0,
      days60: 0,
      days90: 0,
      days120: 0,
      older: 0,
      unapplied: 0,
      total: 1149.99,
      overdue: 0,
    });
  });

  test('debit note as an invoice; credit note the mirror; cash sale Dr bank; deposit Dr bank Cr customer deposits', async () => {
    const s = await setup();
    const dn = await released(s, { documentType: 'debit_note' });
    assert.deepEqual(await entry(s, dn.entryId), [
      ['1100', 1149.99, 0, null],
      ['4000', 0, 999.99, 'standard'],
      ['2100', 0, 150, 'standard'],
    ]);
    const cn = await released(s, {
      documentType: 'credit_note',
      lines: [{ description: 'Return', quantity: 1, unitPrice: 100 }],
    });
    assert.deepEqual(await entry(s, cn.entryId), [
      ['1100', 0, 115, null],
      ['4000', 100, 0, 'standard'],
      ['2100', 15, 0, 'standard'],
    ]);
    const cash = await released(s, {
      documentType: 'cash_sale',
      lines: [{ description: 'Counter sale', quantity: 2, unitPrice: 50, vatRate: 0 }],
    });
    assert.equal(cash.status, 'paid');
    assert.equal(cash.amountDue, 0);
    assert.deepEqual(await entry(s, cash.entryId), [
      ['1000', 100, 0, null],
      ['4000', 0, 100, 'zero'],
    ]);
    const dep = await released(s, {
      documentType: 'deposit',
      lines: [{ description: 'Deposit', quantity: 1, unitPrice: 200 }],
    });
    assert.equal(dep.status, 'paid');
    // A deposit is no supply until applied or forfeited (VAT Act s1): no VAT on it, 200 in all.
    assert.deepEqual([dep.vatTotal, dep.total], [0, 200]);
    assert.deepEqual(await entry(s, dep.entryId), [
      ['1000', 200, 0, null],
      ['2200', 0, 200, null],
    ]);
  });

  test('quote, pro forma, sales order and delivery note post nothing', async () => {
    const s = await setup();
    for (const documentType of ['quote', 'pro_forma', 'sales_order', 'delivery_note']) {
      const d = await released(s, { documentType });
      assert.equal(d.status, 'open', documentType);
      assert.equal(d.entryId, null, documentType);
    }
    const lines = (await s.api({ method: 'GET', url: '/api/ledger' })).json();
    assert.equal(lines.total, 0);
  });

  test('a company not registered for VAT posts no VAT line and no VAT code', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b, { vatRegistered: false });
    const inv = await released(s);
    assert.deepEqual(await entry(s, inv.entryId), [
      ['1100', 999.99, 0, null],
      ['4000', 0, 999.99, null],
    ]);
  });

  test('a lock date refuses a release dated on or before it; a foreign currency is 422', async () => {
    const s = await setup();
    await s.api({ method: 'PATCH', url: '/api/ledger/settings', payload: { lockDate: '2026-02-28' } });
    const old = await createDoc(s, { issueDate: '2026-02-10', dueDate: '2026-03-10' });
    assert.equal(
      assertProblem(await s.api({ method: 'POST', url: `/api/invoices/${old.id}/release` }), 409).code,
      'PERIOD_LOCKED',
    );
    assert.equal((await s.api({ method: 'GET', url: `/api/invoices/${old.id}` })).json().status, 'draft');
    const usd = await createDoc(s, { currency: 'USD' });
    assertProblem(await s.api({ method: 'POST', url: `/api/invoices/${usd.id}/release` }), 422);
  });
});

describe('the books after payment, credit note, deposit and void', () => {
  // An overpayment is customer credit now (customer-credits.test.ts).
  test('partial then full payment: Dr bank, Cr debtors; statuses; aged debtors follow', async () => {
    const s = await setup();
    const inv = await released(s);
    const first = await pay(s, inv.id, 149.99);
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(await entry(s, first.json().entryId), [
      ['1000', 149.99, 0, null],
      ['1100', 0, 149.99, null],
    ]);
    let now = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([now.status, now.amountPaid, now.amountDue], ['partially_paid', 149.99, 1000]);
    assert.equal((await debtors(s)).total, 1000);
    const rest = await pay(s, inv.id, 1000);
    assert.equal(rest.statusCode, 201);
    now = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([now.status, now.amountDue], ['paid', 0]);
    assert.equal(await debtors(s), null, 'nothing owed: no aged debtors row');
    assert.equal(await balanceOf(s, '1000'), 1149.99);
    assert.equal(assertProblem(await pay(s, inv.id, 1), 409).code, 'ALREADY_PAID');
    // Reversing a payment makes the amount due again.
    const reversed = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${inv.id}/payments/${rest.json().id}`,
    });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json().status, 'reversed');
    now = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([now.status, now.amountDue], ['partially_paid', 1000]);
    assert.equal(await balanceOf(s, '1000'), 149.99);
    const listed = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/payments` })).json();
    assert.deepEqual(
      listed.map((p: { amount: number; status: string }) => [p.amount, p.status]),
      [
        [149.99, 'received'],
        [1000, 'reversed'],
      ],
    );
    // A payment on a draft, or to a non-bank account, is refused.
    const draft = await createDoc(s);
    assertProblem(await pay(s, draft.id, 10), 409);
  });

  test('a credit note naming its invoice is applied on release; aged debtors net; undoing it restores', async () => {
    const s = await setup();
    const inv = await released(s, { issueDate: '2026-01-10', dueDate: '2026-02-09' });
    const cn = await released(s, {
      documentType: 'credit_note',
      issueDate: '2026-03-01',
      dueDate: '2026-03-01',
      creditedInvoiceId: inv.id,
      lines: [{ description: 'Returned one', quantity: 1, unitPrice: 333.33 }],
    });
    assert.equal(cn.amountDue, 0, 'the whole credit note is used');
    const after = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([after.status, after.amountCredited, after.amountDue], ['overdue', 383.33, 766.66]);
    const row = await debtors(s);
    // Due 2026-02-09: 39 days overdue on 2026-03-20, in the 31–60 bucket.
    assert.deepEqual([row.total, row.days60, row.current], [766.66, 766.66, 0]);
    const allocations = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/allocations` })).json();
    assert.equal(allocations.length, 1);
    assert.deepEqual([allocations[0].sourceType, allocations[0].amount], ['credit_note', 383.33]);
    const undone = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${inv.id}/allocations/${allocations[0].id}`,
    });
    assert.equal(undone.statusCode, 200, undone.body);
    assert.equal(undone.json().amountDue, 1149.99);
    // Unapplied, the credit note is a credit in the customer's aged debtors.
    assert.equal((await debtors(s)).total, 766.66);
    const again = await s.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/allocations`,
      payload: { sourceId: cn.id, amount: 100 },
    });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal((await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json().amountDue, 1049.99);
  });

  test('a deposit applied to the final invoice; applying it again is 409', async () => {
    const s = await setup();
    const dep = await released(s, {
      documentType: 'deposit',
      lines: [{ description: 'Deposit', quantity: 1, unitPrice: 400 }],
    });
    const inv = await released(s);
    const applied = await s.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/allocations`,
      payload: { sourceId: dep.id },
    });
    assert.equal(applied.statusCode, 201, applied.body);
    // The deposit is 400 (no VAT on a deposit, s1); 1,149.99 − 400 = 749.99 left due.
    assert.deepEqual(await entry(s, applied.json().entryId), [
      ['2200', 400, 0, null],
      ['1100', 0, 400, null],
    ]);
    const now = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([now.status, now.amountPaid, now.amountDue], ['partially_paid', 400, 749.99]);
    const twice = await s.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/allocations`,
      payload: { sourceId: dep.id },
    });
    assert.equal(assertProblem(twice, 409).code, 'DEPOSIT_ALREADY_APPLIED');
    assert.equal(await balanceOf(s, '2200'), 0);
  });

  test('void: a credit note for the whole invoice, the mirror of its entry, applied; with a payment it is 409', async () => {
    const s = await setup();
    const inv = await released(s);
    const paid = await released(s);
    await pay(s, paid.id, 10);
    const voided = (await s.api({ method: 'DELETE', url: `/api/invoices/${inv.id}` })).json();
    // The invoice's own entry stays: its void is the credit note (VAT Act s21), not a reversal.
    assert.equal(voided.status, 'void');
    assert.equal(voided.voidEntryId, null);
    const cn = (await s.api({ method: 'GET', url: `/api/invoices/${voided.voidedByCreditNoteId}` })).json();
    // The whole invoice credited at its own rate: net 999.99, VAT 15% of it = 150.00 (the line's
    // own rounding, as on the invoice), total 1,149.99; Dr sales, Dr VAT output, Cr debtors.
    assert.deepEqual(await entry(s, cn.entryId), [
      ['1100', 0, 1149.99, null],
      ['4000', 999.99, 0, 'standard'],
      ['2100', 150, 0, 'standard'],
    ]);
    // Debtors: two invoices of 1,149.99 = 2,299.98, less the credit note 1,149.99, less 10 paid
    // = 1,139.99 (what the paid invoice still owes).
    assert.equal((await debtors(s)).total, 1139.99);
    assert.equal(
      assertProblem(await s.api({ method: 'DELETE', url: `/api/invoices/${paid.id}` }), 409).code,
      'HAS_PAYMENTS',
    );
    // Sales: Cr 999.99 twice, Dr 999.99 once (the credit note) = a credit of 999.99.
    assert.equal(await balanceOf(s, '4000'), -999.99);
  });
});

describe('the income statement and aged debtors through a document’s life', () => {
  test('release, payment, credit note and void each show in the income statement and aged debtors', async () => {
    const s = await setup();
    const period = '/api/reports/income-statement?from=2026-03-01&to=2026-03-31';
    const income = async () => {
      const r = (await s.api({ method: 'GET', url: period })).json();
      return [r.revenue.total, r.netProfit];
    };
    const vat = async () =>
      (await s.api({ method: 'GET', url: '/api/reports/vat?from=2026-03-01&to=2026-03-31' })).json();
    assert.deepEqual(await income(), [0, 0]);
    // Released: revenue excludes VAT; the customer owes the total.
    const inv = await released(s, { issueDate: '2026-03-02', dueDate: '2026-04-01' });
    assert.deepEqual(await income(), [999.99, 999.99]);
    assert.equal((await debtors(s)).total, 1149.99);
    // A payment changes neither revenue nor profit, only what is owed.
    await pay(s, inv.id, 500);
    assert.deepEqual(await income(), [999.99, 999.99]);
    assert.equal((await debtors(s)).total, 649.99);
    // A credit note reduces revenue by its net and what is owed by its total.
    await released(s, {
      documentType: 'credit_note',
      issueDate: '2026-03-05',
      dueDate: '2026-03-05',
      creditedInvoiceId: inv.id,
      lines: [{ description: 'Returned', quantity: 1, unitPrice: 100 }],
    });
    assert.deepEqual(await income(), [899.99, 899.99]);
    assert.equal((await debtors(s)).total, 534.99);
    const v = await vat();
    assert.equal(v.vat201.field4, 135);
    // A second invoice voided: it leaves no trace in the period's figures.
    const second = await released(s, { issueDate: '2026-03-06', dueDate: '2026-04-05' });
    assert.deepEqual(await income(), [1899.98, 1899.98]);
    await s.api({ method: 'DELETE', url: `/api/invoices/${second.id}` });
    assert.deepEqual(await income(), [899.99, 899.99]);
    assert.equal((await debtors(s)).total, 534.99);
  });
});

describe('concurrency', () => {
  // Two payments of 700 at once on 1,149.99: they take turns, so the second sees 449.99 due and
  // leaves 700 − 449.99 = 250.01 as the customer's credit (never both counted against the due).
  test('two payments at once that together overpay: the second leaves the excess as credit', async () => {
    const s = await setup();
    const inv = await released(s);
    const results = await Promise.all([pay(s, inv.id, 700), pay(s, inv.id, 700)]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 201]);
    const now = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` })).json();
    assert.deepEqual([now.status, now.amountPaid, now.amountDue], ['paid', 1149.99, 0]);
    assert.equal(await balanceOf(s, '1000'), 1400);
    const credits = (
      await s.api({ method: 'GET', url: `/api/customer-credits?contactId=${s.customerId}` })
    ).json();
    assert.deepEqual(
      credits.items.map((c: { kind: string; remaining: number }) => [c.kind, c.remaining]),
      [['overpayment', 250.01]],
    );
  });

  test('release twice at once: one 200, one 409, one entry', async () => {
    const s = await setup();
    const inv = await createDoc(s);
    const results = await Promise.all([
      s.api({ method: 'POST', url: `/api/invoices/${inv.id}/release` }),
      s.api({ method: 'POST', url: `/api/invoices/${inv.id}/release` }),
    ]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409]);
    const entries = (await s.api({ method: 'GET', url: '/api/ledger/journals' })).json();
    assert.equal(entries.total, 1);
  });
});
