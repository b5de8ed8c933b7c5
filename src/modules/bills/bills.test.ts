// Supplier bills: capture, approval (posting), payments, void, deletion, rejection, the duplicate
// number guard and the tax invoice rule. Figures worked by hand from the rule each test cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied } from '../../../test/support/problem.ts';
import { keyTokenFor } from '../../platform/auth/api-keys.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { entryLines, fetched, type Sales } from '../invoices/invoices.factories.ts';
import {
  act,
  approved,
  createBill,
  created,
  type Purchases,
  payBill,
  purchasesSetup,
} from './bills.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function setup(opts: { supplierVatNumber?: string | null } = {}) {
  const b = await register(t.app, { plan: 'business' });
  return { b, p: await purchasesSetup(t, b, opts) };
}

const sales = (p: Purchases): Sales => ({ api: p.api, customerId: p.supplierId });

/** Balances (debit − credit) by account code from the trial balance. */
async function balances(p: Purchases, asOf: string, codes: string[]) {
  const tb = await fetched(sales(p), `/api/reports/trial-balance?asOf=${asOf}`);
  return codes.map((code) => {
    const a = tb.accounts.find((x: { code: string }) => x.code === code);
    return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
  });
}

async function agedCreditor(p: Purchases, asOf: string) {
  const rows = await fetched(sales(p), `/api/reports/aged-creditors?asOf=${asOf}`);
  return rows.find((r: { contactId: string }) => r.contactId === p.supplierId) ?? null;
}

describe('a bill of 1,000.00 standard-rated and 200.00 exempt', () => {
  test('VAT 150.00, total 1,350.00; approval posts Dr expense and VAT input, Cr creditors; paid in two parts', async () => {
    const { p } = await setup();
    const bill = await created(p);
    // Line 1: 10 × 100.00 = 1,000.00 at 15% (s7(1)(a)) = 150.00; line 2: exempt (s12), no VAT.
    assert.deepEqual(
      [bill.status, bill.subtotal, bill.vatAmount, bill.amount, bill.vatRate, bill.vendor],
      ['draft', 1200, 150, 1350, 15, 'Karoo Office Supplies CC'],
    );
    assert.equal(bill.supplierVatNumber, '4987654321'); // from the contact
    assert.equal(bill.entryId, null); // a draft posts nothing
    const submitted = await act(p, bill.id, 'submit');
    assert.equal(submitted.status, 'awaiting_approval');
    const ok = await act(p, bill.id, 'approve');
    assert.equal(ok.status, 'approved');
    // The entry: Dr General expenses 6750 1,000.00 (input_standard 15%) and 200.00 (input_exempt 0%),
    // Dr VAT input 1300 150.00 (input_standard 15%), Cr creditors control 2000 1,350.00: balanced,
    // 1,000 + 200 + 150 = 1,350.
    const lines = await entryLines(sales(p), ok.entryId);
    assert.deepEqual(
      [...lines].sort((x, y) => String(x).localeCompare(String(y))),
      [
        ['1300', 150, 0, 'input_standard', 15],
        ['2000', 0, 1350, null, null],
        ['6750', 1000, 0, 'input_standard', 15],
        ['6750', 200, 0, 'input_exempt', 0],
      ],
    );
    // Trial balance on 2026-03-31: creditors −1,350; VAT input +150; expenses +1,200; bank 0.
    assert.deepEqual(
      await balances(p, '2026-03-31', ['2000', '1300', '6750', '1000']),
      [-1350, 150, 1200, 0],
    );
    // Aged creditors: due 2026-04-01, so current on 2026-03-20 and 1-30 days past due on 2026-04-15.
    const early = await agedCreditor(p, '2026-03-20');
    assert.deepEqual([early.current, early.days30, early.total], [1350, 0, 1350]);
    const late = await agedCreditor(p, '2026-04-15');
    assert.deepEqual([late.current, late.days30, late.total], [0, 1350, 1350]);

    // 500 paid: 1,350 − 500 = 850 due; creditors −850, bank −500.
    const first = await payBill(p, bill.id, 500);
    assert.equal(first.statusCode, 201, first.body);
    let now = await fetched(sales(p), `/api/bills/${bill.id}`);
    assert.deepEqual([now.status, now.amountPaid, now.amountDue], ['partially_paid', 500, 850]);
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1000']), [-850, -500]);
    assert.deepEqual(await entryLines(sales(p), first.json().entryId), [
      ['2000', 500, 0, null, null],
      ['1000', 0, 500, null, null],
    ]);
    // More than is due is refused, naming amount.
    const over = await payBill(p, bill.id, 850.01);
    assert.equal(over.statusCode, 400, over.body);
    assert.equal(over.json().errors?.[0]?.field ?? over.json().field, 'amount');
    // The rest: 850; paid, creditors 0, bank −1,350, aged creditors empty for the supplier.
    assert.equal((await payBill(p, bill.id, 850)).statusCode, 201);
    now = await fetched(sales(p), `/api/bills/${bill.id}`);
    assert.deepEqual([now.status, now.amountDue], ['paid', 0]);
    assert.ok(now.paidAt);
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1000']), [0, -1350]);
    assert.equal((await agedCreditor(p, '2026-04-15'))?.total ?? 0, 0);
    assert.equal((await payBill(p, bill.id, 1)).statusCode, 409);
    // Voiding is refused while payments stand.
    const v = await p.api({ method: 'POST', url: `/api/bills/${bill.id}/void`, payload: {} });
    assert.equal(v.statusCode, 409, v.body);
    assert.equal(v.json().code, 'HAS_PAYMENTS');
    const payments = await fetched(sales(p), `/api/bills/${bill.id}/payments`);
    assert.deepEqual(
      payments.map((x: { amount: number }) => x.amount),
      [500, 850],
    );
    // Each payment reversed: owed again (850, then 1,350), back to approved; then the void stands.
    for (const [x, status, due] of [
      [payments[1], 'partially_paid', 850],
      [payments[0], 'approved', 1350],
    ] as const) {
      const r = await p.api({ method: 'DELETE', url: `/api/bills/${bill.id}/payments/${x.id}` });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.json().status, 'reversed');
      const b2 = await fetched(sales(p), `/api/bills/${bill.id}`);
      assert.deepEqual([b2.status, b2.amountDue, b2.paidAt], [status, due, null]);
    }
    const twice = await p.api({ method: 'DELETE', url: `/api/bills/${bill.id}/payments/${payments[0].id}` });
    assert.equal(twice.json().code, 'ALREADY_REVERSED');
    assert.equal((await act(p, bill.id, 'void', {})).status, 'void');
    // Everything back to nil: bank, creditors, VAT input, expenses.
    assert.deepEqual(await balances(p, '2026-03-31', ['1000', '2000', '1300', '6750']), [0, 0, 0, 0]);
  });

  test('void reverses the approval: every balance back to 0; the number may be captured again', async () => {
    const { p } = await setup();
    const bill = await approved(p);
    const del = await p.api({ method: 'DELETE', url: `/api/bills/${bill.id}` });
    assert.equal(del.statusCode, 409, del.body);
    assert.equal(del.json().code, 'BILL_POSTED');
    const voided = await act(p, bill.id, 'void', {});
    assert.equal(voided.status, 'void');
    assert.match(voided.ledgerNotice, /reversed/);
    // The reversal mirrors 1,350 / 150 / 1,200: all nil.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1300', '6750']), [0, 0, 0]);
    assert.equal((await agedCreditor(p, '2026-03-20'))?.total ?? 0, 0);
    const again = await p.api({ method: 'POST', url: `/api/bills/${bill.id}/void`, payload: {} });
    assert.equal(again.json().code, 'ALREADY_VOID');
    assert.equal((await createBill(p)).statusCode, 201); // a void bill's number does not count
  });

  test('deleting a draft answers what the ledger did (nothing); it is gone', async () => {
    const { p } = await setup();
    const bill = await created(p);
    const del = await p.api({ method: 'DELETE', url: `/api/bills/${bill.id}` });
    assert.equal(del.statusCode, 200, del.body);
    assert.match(del.json().ledgerNotice, /never posted: nothing in the ledger changed/);
    assert.equal((await p.api({ method: 'GET', url: `/api/bills/${bill.id}` })).statusCode, 404);
    assert.equal((await createBill(p)).statusCode, 201); // nor does a deleted one's
  });
});

describe('approval', () => {
  test('the purchasing role captures and submits bills but may not approve or reject them (expenses:approve)', async () => {
    const { b, p } = await setup();
    const key = await keyTokenFor(t.app, b.token, {
      owner: 'business',
      roleId: 'purchasing',
      scopes: ['expenses:write'],
    });
    const clerk: Purchases = { ...p, api: as(t.app, key.token, b.companyId) };
    const bill = await created(clerk);
    await act(clerk, bill.id, 'submit');
    assertPermissionDenied(
      await clerk.api({ method: 'POST', url: `/api/bills/${bill.id}/approve` }),
      'expenses',
      'approve',
    );
    assertPermissionDenied(
      await clerk.api({ method: 'POST', url: `/api/bills/${bill.id}/reject`, payload: { reason: 'x' } }),
      'expenses',
      'approve',
    );
    // The owner (every permission) approves it.
    assert.equal((await act(p, bill.id, 'approve')).status, 'approved');
  });
});

describe('rejection', () => {
  test('a bill awaiting approval is rejected with a reason: bill.rejected carries number, supplier, amounts, reason', async () => {
    const { b, p } = await setup();
    const bill = await created(p);
    await act(p, bill.id, 'submit');
    const rejected = await act(p, bill.id, 'reject', { reason: 'Not ordered by us' });
    assert.deepEqual(
      [rejected.status, rejected.rejectionReason, rejected.entryId],
      ['rejected', 'Not ordered by us', null],
    );
    const events = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx.selectFrom('events').select(['data', 'company_id']).where('type', '=', 'bill.rejected').execute(),
    );
    assert.equal(events.length, 1);
    const data = events[0]!.data as Record<string, unknown>;
    assert.equal(events[0]!.company_id, b.companyId);
    assert.deepEqual(
      [
        data.billId,
        data.billNumber,
        data.contactId,
        data.vendor,
        data.subtotal,
        data.vatAmount,
        data.amount,
        data.reason,
      ],
      [bill.id, 'KOS-1001', p.supplierId, 'Karoo Office Supplies CC', 1200, 150, 1350, 'Not ordered by us'],
    );
    // Nothing posted; approving it now is refused.
    const approve = await p.api({ method: 'POST', url: `/api/bills/${bill.id}/approve` });
    assert.equal(approve.json().code, 'NOT_AWAITING_APPROVAL');
    assert.deepEqual(await balances(p, '2026-03-31', ['2000']), [0]);
  });
});

describe("the supplier's bill number", () => {
  test('the same supplier twice (any case, spaces trimmed) is 409 naming the existing bill; another supplier may use it', async () => {
    const { p } = await setup();
    const first = await created(p);
    const dup = await createBill(p, { billNumber: '  kos-1001 ' });
    assert.equal(dup.statusCode, 409, dup.body);
    assert.deepEqual(
      [dup.json().code, dup.json().existingBillId, dup.json().existingBillNumber],
      ['DUPLICATE_BILL_NUMBER', first.id, 'KOS-1001'],
    );
    assert.match(dup.json().detail, new RegExp(first.id));
    const other = await p.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Another Supplier', contactType: 'SUPPLIER', vatNumber: '4111111111' },
    });
    assert.equal((await createBill(p, { contactId: other.json().id })).statusCode, 201);
  });

  test('two creates at once with the same number: exactly one 201', async () => {
    const { p } = await setup();
    const answers = await Promise.all([
      createBill(p, { billNumber: 'RACE-1' }),
      createBill(p, { billNumber: 'race-1' }),
    ]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 409]);
    const list = await fetched(sales(p), '/api/bills');
    assert.equal(list.total, 1);
  });
});

describe('the supplier', () => {
  test("a customer is 400 naming contactId; another tenant's supplier is 404", async () => {
    const { p } = await setup();
    const customer = await p.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'A Customer', contactType: 'CUSTOMER' },
    });
    const res = await createBill(p, { contactId: customer.json().id });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /contactId/);
    const { p: other } = await setup();
    assert.equal((await createBill(p, { contactId: other.supplierId })).statusCode, 404);
  });
});

describe('the tax invoice rule (DECISIONS.md: VAT Act s16(2), s20)', () => {
  // 5,000.00 net at 15% = 750.00: 5,750.00 incl. VAT, above R5,000: a full tax invoice is needed.
  const BIG = [{ description: 'Laptop', quantity: 1, unitPrice: 5000 }];
  test('above R5,000 a standard-rated bill without the VAT number is 400 naming supplierVatNumber', async () => {
    const { p } = await setup({ supplierVatNumber: null });
    const res = await createBill(p, { lines: BIG });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /supplierVatNumber/);
    const ok = await created(p, { lines: BIG, supplierVatNumber: '4555555555' });
    assert.deepEqual([ok.amount, ok.supplierVatNumber, ok.vatWarning], [5750, '4555555555', null]);
  });
  test('from R50 to R5,000 it is kept with a warning; exempt-only bills need no number', async () => {
    const { p } = await setup({ supplierVatNumber: null });
    // 1,000 + 150 + 200 exempt = 1,350: an abridged tax invoice, which should name the number.
    const small = await created(p);
    assert.equal(small.supplierVatNumber, null);
    assert.match(small.vatWarning, /VAT number is missing/);
    // 6,000 exempt: no VAT claimed, no tax invoice needed.
    const exempt = await created(p, {
      billNumber: 'EX-1',
      lines: [{ description: 'Rent (residential)', quantity: 1, unitPrice: 6000, taxCode: 'exempt' }],
    });
    assert.deepEqual([exempt.vatAmount, exempt.vatWarning], [0, null]);
  });
});

describe('VAT201 input tax', () => {
  test('field 15 takes other goods and services, field 14 capital goods', async () => {
    const { p } = await setup();
    // Bill 1: 1,000 standard (VAT 150) + 200 exempt → field 15: 150.00.
    await approved(p);
    // Bill 2: a machine of 10,000.00 at 15% = 1,500.00, capital (s16(3)) → field 14: 1,500.00.
    await approved(p, {
      billNumber: 'KOS-1002',
      lines: [{ description: 'Packing machine', quantity: 1, unitPrice: 10000, taxCode: 'standard_capital' }],
    });
    // A draft posts nothing: not in the return.
    await created(p, { billNumber: 'KOS-1003' });
    const v = (await fetched(sales(p), '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    // 19 = 14 + 15 = 1,650.00; nothing output, so 20 = 0 − 1,650 = −1,650.00 (a refund due).
    assert.deepEqual([v.field14, v.field15, v.field19, v.field20], [1500, 150, 1650, -1650]);
  });
});

describe('the list', () => {
  test('paged envelope with status, contactId, from/to and dueBefore', async () => {
    const { p } = await setup();
    const a = await approved(p);
    await created(p, { billNumber: 'KOS-2', issueDate: '2026-04-02', dueDate: '2026-05-01' });
    const all = await fetched(sales(p), '/api/bills');
    assert.deepEqual([all.total, all.page, all.items.length], [2, 1, 2]);
    const byStatus = await fetched(sales(p), '/api/bills?status=approved');
    assert.deepEqual(
      byStatus.items.map((x: { id: string }) => x.id),
      [a.id],
    );
    const due = await fetched(sales(p), '/api/bills?dueBefore=2026-04-15');
    assert.equal(due.total, 1);
    const april = await fetched(sales(p), '/api/bills?from=2026-04-01&to=2026-04-30');
    assert.deepEqual(
      april.items.map((x: { billNumber: string }) => x.billNumber),
      ['KOS-2'],
    );
    assert.equal((await fetched(sales(p), `/api/bills?contactId=${p.supplierId}`)).total, 2);
  });
});

describe('catalogue conventions', () => {
  test('Idempotency-Key on create answers the first bill again; GET carries an ETag', async () => {
    const { p } = await setup();
    const key = crypto.randomUUID();
    const payload = {
      contactId: p.supplierId,
      billNumber: 'IDEM-1',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'Toner', quantity: 1, unitPrice: 10 }],
    };
    const one = await p.api({
      method: 'POST',
      url: '/api/bills',
      headers: { 'idempotency-key': key },
      payload,
    });
    const two = await p.api({
      method: 'POST',
      url: '/api/bills',
      headers: { 'idempotency-key': key },
      payload,
    });
    assert.equal(one.statusCode, 201, one.body);
    assert.equal(two.statusCode, 201, two.body);
    assert.equal(two.json().id, one.json().id);
    assert.match(String(one.headers.location), new RegExp(`/api/bills/${one.json().id}$`));
    const got = await p.api({ method: 'GET', url: `/api/bills/${one.json().id}` });
    assert.ok(got.headers.etag);
    const again = await p.api({
      method: 'GET',
      url: `/api/bills/${one.json().id}`,
      headers: { 'if-none-match': String(got.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    // A repeated clientId answers 200 with the bill it made.
    const clientId = crypto.randomUUID();
    const first = await createBill(p, { billNumber: 'CID-1', clientId });
    const replay = await createBill(p, { billNumber: 'CID-1', clientId });
    assert.deepEqual([first.statusCode, replay.statusCode, replay.json().id], [201, 200, clientId]);
  });
});
