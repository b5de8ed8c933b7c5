// The payment run: the four block reasons, a run paying two suppliers' three bills (one entry,
// worked figures, aged creditors cleared, the bank file), a held bill refused, and the
// bank-details confirmation lifting its block. Figures worked by hand from the rule each cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { entryLines, fetched, type Sales } from '../invoices/invoices.factories.ts';
import { act, approved, type Purchases, payBill, purchasesSetup } from './bills.factories.ts';
import {
  KAROO_BANK,
  proposal,
  runPayments,
  setBankDetails,
  supplier,
} from './bills.payment-run.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

const sales = (p: Purchases): Sales => ({ api: p.api, customerId: p.supplierId });

async function balances(p: Purchases, asOf: string, codes: string[]) {
  const tb = await fetched(sales(p), `/api/reports/trial-balance?asOf=${asOf}`);
  return codes.map((code) => {
    const a = tb.accounts.find((x: { code: string }) => x.code === code);
    return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
  });
}

async function agedTotal(p: Purchases, contactId: string, asOf: string) {
  const rows = await fetched(sales(p), `/api/reports/aged-creditors?asOf=${asOf}`);
  return rows.find((r: { contactId: string }) => r.contactId === contactId)?.total ?? 0;
}

const BUSHVELD_BANK = {
  bankName: 'Standard Bank',
  accountHolder: 'Bushveld Timber (Pty) Ltd',
  accountNumber: '0712345678',
  branchCode: '051001',
  accountType: 'savings',
};

/** 1,000.00 at 15% (VAT Act s7(1)(a)): VAT 150.00, total 1,150.00; n of them per line quantity. */
const line = (unitPrice: number) => [{ description: 'Timber', quantity: 1, unitPrice }];

async function setup() {
  const b = await register(t.app, { plan: 'business' });
  const p = await purchasesSetup(t, b);
  const bushveld = await supplier(p, 'Bushveld Timber (Pty) Ltd');
  return { b, p, bushveld };
}

describe('the payment run', () => {
  test('the four block reasons: on hold, disputed, no bank details, bank details changed (with its warning)', async () => {
    const { p, bushveld } = await setup();
    const nobank = await supplier(p, 'Lowveld Fuel Depot', '4222222222');
    // Karoo's details are old (captured 2026-03-01, 19 days before the run): payable.
    await setBankDetails(t, p, p.supplierId, KAROO_BANK, '2026-03-01T08:00:00Z');
    const held = await approved(p, { billNumber: 'KOS-1', lines: line(100) });
    const disputed = await approved(p, { billNumber: 'KOS-2', lines: line(200) });
    const fine = await approved(p, { billNumber: 'KOS-3', lines: line(300) });
    await act(p, held.id, 'hold', { reason: 'Waiting for the delivery note' });
    await act(p, disputed.id, 'dispute', { reason: 'Short-delivered: 2 boxes of 10' });
    const noDetails = await approved(p, { contactId: nobank, billNumber: 'LFD-9', lines: line(400) });
    // Bushveld's details were captured two days before the run by the owner, not confirmed.
    const changed = await approved(p, { contactId: bushveld, billNumber: 'BT-7', lines: line(500) });
    await setBankDetails(t, p, bushveld, BUSHVELD_BANK, '2026-03-18T08:00:00Z');

    t.clock.set('2026-03-20T08:00:00Z');
    const res = await proposal(p, '2026-04-05');
    assert.equal(res.statusCode, 200, res.body);
    const run = res.json();
    // Payable: KOS-3 alone, 300.00 + 15% = 345.00.
    assert.deepEqual(run.suppliers, [
      {
        contactId: p.supplierId,
        payee: 'Karoo Office Supplies CC',
        bankName: 'First National Bank',
        accountMasked: '••••4567',
        total: 345,
        bills: [{ billId: fine.id, billNumber: 'KOS-3', dueDate: '2026-04-01', amount: 345 }],
      },
    ]);
    assert.equal(run.total, 345);
    const byBill = new Map(run.blocked.map((x: { billId: string }) => [x.billId, x]));
    assert.deepEqual(
      [held.id, disputed.id, noDetails.id, changed.id].map(
        (id) => (byBill.get(id) as { blockedReason: string })?.blockedReason,
      ),
      ['on_hold', 'disputed', 'no_bank_details', 'bank_details_changed'],
    );
    // The spec's blocked item, field for field (100.00 + 15% = 115.00 held; 500 + 75 = 575.00 changed).
    assert.deepEqual(byBill.get(changed.id), {
      billId: changed.id,
      vendor: 'Bushveld Timber (Pty) Ltd',
      contactId: bushveld,
      billNumber: 'BT-7',
      payee: 'Bushveld Timber (Pty) Ltd',
      blockedReason: 'bank_details_changed',
      warning:
        'Bank details changed on 2026-03-18 by Owner: confirm with the supplier by phone on a known number before paying',
      dueDate: '2026-04-01',
      amount: 575,
    });
    assert.deepEqual(
      [held.id, disputed.id, noDetails.id].map((id) => {
        const x = byBill.get(id) as { amount: number; warning: string; payee: string };
        return [x.amount, x.warning, x.payee];
      }),
      [
        [115, 'On hold: Waiting for the delivery note', 'Karoo Office Supplies CC'],
        [230, 'Disputed with the supplier: Short-delivered: 2 boxes of 10', 'Karoo Office Supplies CC'],
        [
          460,
          'Lowveld Fuel Depot has no bank details: capture them (PUT /api/contacts/{id}/bank-details) before paying',
          'Lowveld Fuel Depot',
        ],
      ],
    );
    // Default dueBy: today + 7 = 2026-03-27, before every due date (2026-04-01): nothing listed.
    const soon = (await proposal(p)).json();
    assert.deepEqual([soon.dueBy, soon.total, soon.suppliers, soon.blocked], ['2026-03-27', 0, [], []]);
  });

  test("two suppliers' three bills paid in one run: one entry, creditors and bank down by the total, the file", async () => {
    const { p, bushveld } = await setup();
    await setBankDetails(t, p, p.supplierId, KAROO_BANK, '2026-03-01T08:00:00Z');
    await setBankDetails(t, p, bushveld, BUSHVELD_BANK, '2026-03-01T08:00:00Z');
    // Karoo: KOS-1001 the factory's 1,000.00 standard + 200.00 exempt = 1,350.00 (VAT 150.00,
    // s7(1)(a) and s12), 350.00 paid already, so 1,000.00 due; KOS-1002 500.00 + 75.00 = 575.00.
    // Bushveld: BT-7 2,000.00 + 300.00 = 2,300.00. Due in all: 1,000 + 575 + 2,300 = 3,875.00.
    const k1 = await approved(p, { billNumber: 'KOS-1001' });
    assert.equal((await payBill(p, k1.id, 350, '2026-03-05')).statusCode, 201);
    const k2 = await approved(p, { billNumber: 'KOS-1002', lines: line(500) });
    const b1 = await approved(p, { contactId: bushveld, billNumber: 'BT-7', lines: line(2000) });
    // Before: creditors 2000 −(1,350 + 575 + 2,300 − 350) = −3,875.00; bank 1000 −350.00.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1000']), [-3875, -350]);

    t.clock.set('2026-03-20T08:00:00Z');
    const proposed = (await proposal(p, '2026-04-05')).json();
    assert.equal(proposed.total, 3875);
    assert.deepEqual(
      proposed.suppliers.map((s: { payee: string; total: number }) => [s.payee, s.total]),
      [
        ['Bushveld Timber (Pty) Ltd', 2300],
        ['Karoo Office Supplies CC', 1575],
      ],
    );
    const clientId = crypto.randomUUID();
    const body = { clientId, date: '2026-03-25', billIds: [k1.id, k2.id, b1.id] };
    const res = await runPayments(p, body);
    assert.equal(res.statusCode, 201, res.body);
    const run = res.json();
    assert.equal(res.headers.location, `/api/bills/payment-runs/${clientId}`);
    assert.deepEqual([run.id, run.total, run.count, run.bankProfile], [clientId, 3875, 3, 'generic']);
    assert.deepEqual(
      run.payments.map((x: { billNumber: string; payee: string; accountMasked: string; amount: number }) => [
        x.billNumber,
        x.payee,
        x.accountMasked,
        x.amount,
      ]),
      [
        ['BT-7', 'Bushveld Timber (Pty) Ltd', '••••5678', 2300],
        ['KOS-1001', 'Karoo Office Supplies CC', '••••4567', 1000],
        ['KOS-1002', 'Karoo Office Supplies CC', '••••4567', 575],
      ],
    );
    // ONE entry: Dr creditors control 2000 per bill (2,300 + 1,000 + 575), Cr bank 1000 3,875.00.
    assert.deepEqual(await entryLines(sales(p), run.entryId), [
      ['2000', 2300, 0, null, null],
      ['2000', 1000, 0, null, null],
      ['2000', 575, 0, null, null],
      ['1000', 0, 3875, null, null],
    ]);
    // After: creditors −3,875 + 3,875 = 0; bank −350 − 3,875 = −4,225.00.
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1000']), [0, -4225]);
    // Each bill paid, with its own payment record sharing the run's entry.
    for (const [bill, paidInRun] of [
      [k1, 1000],
      [k2, 575],
      [b1, 2300],
    ] as const) {
      const now = await fetched(sales(p), `/api/bills/${bill.id}`);
      assert.deepEqual([now.status, now.amountDue], ['paid', 0]);
      const payments = await fetched(sales(p), `/api/bills/${bill.id}/payments`);
      const last = payments.at(-1);
      assert.deepEqual([last.amount, last.entryId, last.date], [paidInRun, run.entryId, '2026-03-25']);
    }
    // Aged creditors: nothing left for either supplier.
    assert.equal(await agedTotal(p, p.supplierId, '2026-04-15'), 0);
    assert.equal(await agedTotal(p, bushveld, '2026-04-15'), 0);
    // Nothing left to propose.
    assert.equal((await proposal(p, '2026-04-05')).json().total, 0);

    // The replay answers the same run with 200; GET answers it too.
    const again = await runPayments(p, body);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().entryId, run.entryId);
    assert.deepEqual((await fetched(sales(p), `/api/bills/payment-runs/${clientId}`)).payments, run.payments);
    const listed = await fetched(sales(p), '/api/bills/payment-runs');
    assert.deepEqual([listed.total, listed.items[0].id, listed.items[0].payments.length], [1, clientId, 3]);

    // The bank file: the whole account numbers (only here), two-decimal amounts, bill numbers.
    const file = await p.api({ method: 'GET', url: run.fileUrl });
    assert.equal(file.statusCode, 200, file.body);
    assert.equal(file.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(String(file.headers['content-disposition']), /payment-run-2026-03-25-generic\.csv/);
    assert.equal(
      file.body,
      [
        'Payee name,Account number,Branch code,Account type,Amount,Reference,Your reference',
        'Bushveld Timber (Pty) Ltd,0712345678,051001,savings,2300.00,BT-7,PAYRUN 2026-03-25',
        'Karoo Office Supplies CC,62001234567,250655,cheque,1000.00,KOS-1001,PAYRUN 2026-03-25',
        'Karoo Office Supplies CC,62001234567,250655,cheque,575.00,KOS-1002,PAYRUN 2026-03-25',
        '',
      ].join('\r\n'),
    );
    // Another company's run is not found (its company header).
    const other = await register(t.app, { plan: 'business' });
    const stranger = as(t.app, other.token, other.companyId);
    assert.equal(
      (await stranger({ method: 'GET', url: `/api/bills/payment-runs/${clientId}` })).statusCode,
      404,
    );
    assert.equal((await stranger({ method: 'GET', url: run.fileUrl })).statusCode, 404);

    // Reversing one payment of the run: its own mirror entry (Dr bank 575, Cr creditors 575);
    // the run's entry and the other payments stand. Creditors −575, bank −4,225 + 575 = −3,650.
    const k2pay = run.payments.find((x: { billId: string }) => x.billId === k2.id);
    const rev = await p.api({ method: 'DELETE', url: `/api/bills/${k2.id}/payments/${k2pay.paymentId}` });
    assert.equal(rev.statusCode, 200, rev.body);
    assert.deepEqual(await entryLines(sales(p), rev.json().reversalEntryId), [
      ['1000', 575, 0, null, null],
      ['2000', 0, 575, null, null],
    ]);
    assert.deepEqual(await balances(p, '2026-03-31', ['2000', '1000']), [-575, -3650]);
    assert.equal((await fetched(sales(p), `/api/bills/${k1.id}`)).status, 'paid');
    assert.equal((await fetched(sales(p), `/api/bills/${k2.id}`)).status, 'approved');
  });

  test('a held bill is refused: by the run (nothing written) and by a single payment, until released', async () => {
    const { p } = await setup();
    await setBankDetails(t, p, p.supplierId, KAROO_BANK, '2026-03-01T08:00:00Z');
    const held = await approved(p, { billNumber: 'KOS-1', lines: line(100) });
    const fine = await approved(p, { billNumber: 'KOS-2', lines: line(200) });
    t.clock.set('2026-03-20T08:00:00Z');
    const on = await act(p, held.id, 'hold', { reason: 'Waiting for the delivery note' });
    assert.deepEqual([on.onHold, on.holdReason], [true, 'Waiting for the delivery note']);
    // A hold twice, or on a draft, is a conflict.
    const twice = await p.api({
      method: 'POST',
      url: `/api/bills/${held.id}/hold`,
      payload: { reason: 'again' },
    });
    assert.equal(twice.statusCode, 409, twice.body);
    const draft = (
      await p.api({
        method: 'POST',
        url: '/api/bills',
        payload: {
          contactId: p.supplierId,
          billNumber: 'KOS-D',
          issueDate: '2026-03-02',
          dueDate: '2026-04-01',
          lines: line(10),
        },
      })
    ).json();
    const d = await p.api({ method: 'POST', url: `/api/bills/${draft.id}/hold`, payload: { reason: 'x' } });
    assert.deepEqual([d.statusCode, d.json().code], [409, 'NOT_APPROVED']);

    const res = await runPayments(p, { date: '2026-03-25', billIds: [fine.id, held.id] });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'PAYMENT_BLOCKED');
    assert.deepEqual(
      res.json().blocked.map((x: { billId: string; blockedReason: string }) => [x.billId, x.blockedReason]),
      [[held.id, 'on_hold']],
    );
    assert.match(res.json().detail, /KOS-1 \(on_hold\)/);
    // Nothing written: the good bill is unpaid, the bank untouched.
    assert.deepEqual(await fetched(sales(p), `/api/bills/${fine.id}/payments`), []);
    assert.deepEqual(await balances(p, '2026-03-31', ['1000']), [0]);

    const single = await payBill(p, held.id, 115, '2026-03-25');
    assert.deepEqual([single.statusCode, single.json().code], [409, 'ON_HOLD']);
    const released = await act(p, held.id, 'release-hold');
    assert.deepEqual([released.onHold, released.holdReason], [false, null]);
    // A dispute stops a single payment too, until resolved.
    await act(p, held.id, 'dispute', { reason: 'Wrong price' });
    const disputed = await payBill(p, held.id, 115, '2026-03-25');
    assert.deepEqual([disputed.statusCode, disputed.json().code], [409, 'DISPUTED']);
    await act(p, held.id, 'resolve-dispute');
    // Released and resolved: 100.00 + 15% = 115.00 and 200.00 + 15% = 230.00, 345.00 in one run.
    const paid = await runPayments(p, { date: '2026-03-25', billIds: [fine.id, held.id] });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.equal(paid.json().total, 345);
    assert.deepEqual(await balances(p, '2026-03-31', ['1000', '2000']), [-345, 0]);
  });

  test('a changed account blocks the run until another person confirms it; its maker cannot', async () => {
    const { b, p } = await setup();
    await setBankDetails(t, p, p.supplierId, KAROO_BANK, '2026-03-01T08:00:00Z');
    const bill = await approved(p, { billNumber: 'KOS-1', lines: line(100) });
    // A "new account" letter, captured by the owner on 2026-03-19.
    await setBankDetails(
      t,
      p,
      p.supplierId,
      { ...KAROO_BANK, accountNumber: '1048899123' },
      '2026-03-19T08:00:00Z',
    );
    t.clock.set('2026-03-20T08:00:00Z');
    const blocked = (await proposal(p, '2026-04-05')).json().blocked;
    assert.deepEqual(
      blocked.map((x: { billId: string; blockedReason: string }) => [x.billId, x.blockedReason]),
      [[bill.id, 'bank_details_changed']],
    );
    const refused = await runPayments(p, { date: '2026-03-25', billIds: [bill.id] });
    assert.deepEqual([refused.statusCode, refused.json().code], [409, 'PAYMENT_BLOCKED']);
    assert.equal(refused.json().blocked[0].blockedReason, 'bank_details_changed');

    const url = `/api/contacts/${p.supplierId}/bank-details/confirm`;
    const self = await p.api({ method: 'POST', url });
    assert.deepEqual([self.statusCode, self.json().code], [409, 'SAME_USER']);
    assert.equal((await proposal(p, '2026-04-05')).json().blocked.length, 1);

    const thandi = await addMember(t, b, 'accountant', { name: 'Thandi Nkosi' });
    const ok = await as(t.app, thandi.token, b.companyId)({ method: 'POST', url });
    assert.equal(ok.statusCode, 200, ok.body);
    const now = (await proposal(p, '2026-04-05')).json();
    assert.deepEqual([now.blocked, now.total, now.suppliers[0].accountMasked], [[], 115, '••••9123']);
    const run = await runPayments(p, { date: '2026-03-25', billIds: [bill.id] });
    assert.equal(run.statusCode, 201, run.body);
    const file = await p.api({ method: 'GET', url: run.json().fileUrl });
    assert.match(file.body, /Karoo Office Supplies CC,1048899123,250655,cheque,115\.00,KOS-1,/);
    // A viewer reads the run (masked) but not the file with the whole account numbers.
    const viewer = as(t.app, (await addMember(t, b, 'viewer')).token, b.companyId);
    assert.equal(
      (await viewer({ method: 'GET', url: `/api/bills/payment-runs/${run.json().id}` })).statusCode,
      200,
    );
    const denied = await viewer({ method: 'GET', url: run.json().fileUrl });
    assert.equal(denied.statusCode, 403, denied.body);
  });
});
