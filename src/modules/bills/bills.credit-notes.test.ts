// Supplier credit notes: against an approved bill, at its tax codes and rates (VAT Act s21), never
// more than what remains of it; settled by offset (the bill owes less) or refund (money back).
// Figures worked by hand; the bill is the factories' 1,000.00 standard + 200.00 exempt = 1,350.00.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { entryLines, fetched, type Sales } from '../invoices/invoices.factories.ts';
import { approved, created, type Purchases, payBill, purchasesSetup } from './bills.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function setup() {
  const b = await register(t.app, { plan: 'business' });
  return purchasesSetup(t, b);
}

const sales = (p: Purchases): Sales => ({ api: p.api, customerId: p.supplierId });

function credit(p: Purchases, billId: string, o: Record<string, unknown> = {}) {
  return p.api({
    method: 'POST',
    url: '/api/bills/credit-notes',
    payload: {
      billId,
      creditNoteNumber: 'SCN-1',
      issueDate: '2026-03-05',
      settlement: 'offset',
      reason: 'Damaged paper returned',
      lines: [{ description: 'Paper returned', quantity: 1, unitPrice: 100 }],
      ...o,
    },
  });
}

async function balances(p: Purchases, codes: string[]) {
  const tb = await fetched(sales(p), '/api/reports/trial-balance?asOf=2026-03-31');
  return codes.map((code) => {
    const a = tb.accounts.find((x: { code: string }) => x.code === code);
    return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
  });
}

describe('offset', () => {
  test('100.00 standard (VAT 15.00) off a bill of 1,350.00: it owes 1,235.00; VAT201 field 15 falls to 135.00', async () => {
    const p = await setup();
    const bill = await approved(p);
    const res = await credit(p, bill.id);
    assert.equal(res.statusCode, 201, res.body);
    const note = res.json();
    // 100.00 at the bill's 15% = 15.00 VAT, 115.00 in all (s21: the supply's rate).
    assert.deepEqual(
      [
        note.net,
        note.vat,
        note.total,
        note.status,
        note.settlement,
        note.creditedBillNumber,
        note.supplierName,
      ],
      [100, 15, 115, 'applied', 'offset', 'KOS-1001', 'Karoo Office Supplies CC'],
    );
    // The mirror of the bill's entry: Dr creditors 115.00; Cr expense 100.00 and VAT input 15.00.
    assert.deepEqual(
      [...(await entryLines(sales(p), note.entryId))].sort((x, y) => String(x).localeCompare(String(y))),
      [
        ['1300', 0, 15, 'input_standard', 15],
        ['2000', 115, 0, null, null],
        ['6750', 0, 100, 'input_standard', 15],
      ],
    );
    const now = await fetched(sales(p), `/api/bills/${bill.id}`);
    assert.deepEqual([now.status, now.amountCredited, now.amountDue], ['partially_paid', 115, 1235]);
    // Creditors −1,350 + 115 = −1,235; VAT input 150 − 15 = 135; expenses 1,200 − 100 = 1,100.
    assert.deepEqual(await balances(p, ['2000', '1300', '6750']), [-1235, 135, 1100]);
    const aged = await fetched(sales(p), '/api/reports/aged-creditors?asOf=2026-03-20');
    assert.equal(aged.find((r: { contactId: string }) => r.contactId === p.supplierId).total, 1235);
    // VAT201 field 15: 150.00 on the bill less 15.00 on the note = 135.00 (the same period).
    const v = (await fetched(sales(p), '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.deepEqual([v.field14, v.field15], [0, 135]);
    // Listed (a bare array).
    const list = await fetched(sales(p), `/api/bills/credit-notes?billId=${bill.id}`);
    assert.ok(Array.isArray(list));
    assert.deepEqual(
      list.map((n: { id: string }) => n.id),
      [note.id],
    );
    // Its own address (the create's Location), and not another tenant's.
    assert.equal(res.headers.location, `/api/bills/credit-notes/${note.id}`);
    assert.deepEqual(await fetched(sales(p), `/api/bills/credit-notes/${note.id}`), note);
    const other = await setup();
    const foreign = await other.api({ method: 'GET', url: `/api/bills/credit-notes/${note.id}` });
    assert.equal(foreign.statusCode, 404, foreign.body);
    // The same supplier's number twice: 409.
    const dup = await credit(p, bill.id, { creditNoteNumber: ' scn-1' });
    assert.equal(dup.statusCode, 409, dup.body);
    assert.equal(dup.json().code, 'DUPLICATE_CREDIT_NOTE_NUMBER');
    // Voiding the bill is refused while the credit note stands.
    const v2 = await p.api({ method: 'POST', url: `/api/bills/${bill.id}/void`, payload: {} });
    assert.equal(v2.json().code, 'HAS_PAYMENTS');
  });

  test('never above what remains; only the bill’s tax codes; only an approved bill', async () => {
    const p = await setup();
    const bill = await approved(p);
    assert.equal((await credit(p, bill.id)).statusCode, 201);
    // What remains: 1,350 − 115 = 1,235. 1,100.00 standard + 15% = 1,265.00 is more: 400 lines.
    const over = await credit(p, bill.id, {
      creditNoteNumber: 'SCN-2',
      lines: [{ description: 'Too much', quantity: 1, unitPrice: 1100 }],
    });
    assert.equal(over.statusCode, 400, over.body);
    assert.match(over.body, /1265\.00 is more than the 1235\.00 that remains/);
    // Exactly what remains may be credited: 1,035.00 std (VAT 155.25 → 1,190.25) + 44.75 exempt = 1,235.00.
    const rest = await credit(p, bill.id, {
      creditNoteNumber: 'SCN-3',
      lines: [
        { description: 'Paper', quantity: 1, unitPrice: 1035 },
        { description: 'Postage', quantity: 1, unitPrice: 44.75, taxCode: 'exempt' },
      ],
    });
    assert.equal(rest.statusCode, 201, rest.body);
    const now = await fetched(sales(p), `/api/bills/${bill.id}`);
    assert.deepEqual([now.status, now.amountDue, now.amountCredited], ['paid', 0, 1350]);
    // A code the bill does not have: 400 naming the line.
    const other = await approved(p, { billNumber: 'KOS-9' });
    const capital = await credit(p, other.id, {
      creditNoteNumber: 'SCN-4',
      lines: [{ description: 'Machine', quantity: 1, unitPrice: 10, taxCode: 'standard_capital' }],
    });
    assert.equal(capital.statusCode, 400, capital.body);
    assert.match(capital.body, /lines\[0\]\.taxCode/);
    // A draft bill is not credited; neither is another tenant's (404).
    const draft = await created(p, { billNumber: 'KOS-10' });
    assert.equal((await credit(p, draft.id, { creditNoteNumber: 'SCN-5' })).json().code, 'NOT_APPROVED');
    const elsewhere = await setup();
    assert.equal((await credit(elsewhere, bill.id, { creditNoteNumber: 'SCN-6' })).statusCode, 404);
  });
});

describe('refund', () => {
  test('the supplier pays back 200.00 of a paid bill: Dr bank, Cr expense (exempt, no VAT); no more than was paid', async () => {
    const p = await setup();
    const bill = await approved(p);
    // Nothing paid yet: nothing to refund.
    const early = await credit(p, bill.id, { settlement: 'refund' });
    assert.equal(early.statusCode, 400, early.body);
    assert.match(early.body, /settlement/);
    assert.equal((await payBill(p, bill.id, 1350)).statusCode, 201);
    // Nothing due on a paid bill: an offset is refused.
    assert.equal((await credit(p, bill.id)).statusCode, 400);
    const res = await credit(p, bill.id, {
      settlement: 'refund',
      lines: [{ description: 'Postage overcharged', quantity: 1, unitPrice: 200, taxCode: 'exempt' }],
    });
    assert.equal(res.statusCode, 201, res.body);
    const note = res.json();
    assert.deepEqual([note.total, note.vat, note.status], [200, 0, 'refunded']);
    assert.ok(note.refundedAt);
    assert.deepEqual(await entryLines(sales(p), note.entryId), [
      ['1000', 200, 0, null, null],
      ['6750', 0, 200, 'input_exempt', 0],
    ]);
    // Bank: −1,350 + 200 = −1,150; creditors 0 (paid in full); expenses 1,200 − 200 = 1,000.
    assert.deepEqual(await balances(p, ['1000', '2000', '6750']), [-1150, 0, 1000]);
    const now = await fetched(sales(p), `/api/bills/${bill.id}`);
    assert.deepEqual([now.status, now.amountDue, now.amountCredited], ['paid', 0, 200]);
  });
});
