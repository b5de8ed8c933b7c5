// Advance payments (issue 14, item 7; VAT Act s9(1): the time of supply is the earlier of the
// invoice and any payment, so VAT is accounted when an advance payment is received). The entries,
// the VAT report of the month received and of the month applied (VAT counts once), a partial
// application and a refund of the rest, and a company not registered. Figures worked out by hand.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  balanceOfCode,
  entryLines,
  fetched,
  released,
  type Sales,
  salesSetup,
} from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-05-20T10:00:00Z');
});
after(() => t.close());

const setup = async (opts: { vatRegistered?: boolean } = {}): Promise<Sales> =>
  salesSetup(t, await register(t.app), opts);

const advance = (s: Sales, amount: number, date = '2026-03-20') =>
  s.api({
    method: 'POST',
    url: '/api/invoices/advance-payments',
    payload: { contactId: s.customerId, date, amount, reference: 'EFT 991' },
  });

/** An invoice of `net` + 15% VAT, issued 2026-04-05. */
const invoice = (s: Sales, net: number) =>
  released(s, {
    issueDate: '2026-04-05',
    dueDate: '2026-04-30',
    lines: [{ description: 'Kitchen fitted', quantity: 1, unitPrice: net }],
  });

const apply = (s: Sales, invoiceId: string, payload: object) =>
  s.api({ method: 'POST', url: `/api/invoices/${invoiceId}/allocations`, payload });

const vat201 = async (s: Sales, from: string, to: string) =>
  (await fetched(s, `/api/reports/vat?from=${from}&to=${to}`)).vat201;

describe('an advance payment', () => {
  test('received in March, applied in April: VAT 150 in March only', async () => {
    const s = await setup();
    const res = await advance(s, 1150);
    assert.equal(res.statusCode, 201, res.body);
    const credit = res.json();
    // VAT = 1,150 × 15/115 = 150; net 1,000 to income received in advance (2420).
    assert.deepEqual(
      [credit.kind, credit.amount, credit.vatAmount, credit.remaining, credit.status],
      ['advance_payment', 1150, 150, 1150, 'open'],
    );
    assert.deepEqual(await entryLines(s, credit.entryId), [
      ['1000', 1150, 0, null, null],
      ['2420', 0, 1000, 'standard', 15],
      ['2100', 0, 150, 'standard', 15],
    ]);
    // March: field 1 (VAT included) 1,150, field 4 output tax 150.
    let march = await vat201(s, '2026-03-01', '2026-03-31');
    assert.deepEqual([march.field1, march.field4], [1150, 150]);

    // The invoice of 1,000 + 150 = 1,150 in April, paid by the advance payment.
    const inv = await invoice(s, 1000);
    const a = await apply(s, inv.id, { sourceId: credit.id, date: '2026-04-05' });
    assert.equal(a.statusCode, 201, a.body);
    assert.deepEqual([a.json().amount, a.json().vatAmount], [1150, 150]);
    // Dr income in advance 1,000 and Dr VAT 150 (tagged standard: the reversal of March's) / Cr debtors 1,150.
    assert.deepEqual(await entryLines(s, a.json().entryId), [
      ['2420', 1000, 0, 'standard', 15],
      ['2100', 150, 0, 'standard', 15],
      ['1100', 0, 1150, null, null],
    ]);
    const i = await fetched(s, `/api/invoices/${inv.id}`);
    assert.deepEqual([i.status, i.amountPaid, i.amountDue], ['paid', 1150, 0]);
    assert.equal((await fetched(s, `/api/customer-credits/${credit.id}`)).status, 'applied');
    // April: the invoice's +1,150 / +150 and the application's −1,150 / −150: nothing. March
    // keeps its 150: the VAT counted once, when the payment was received.
    const april = await vat201(s, '2026-04-01', '2026-04-30');
    assert.deepEqual([april.field1, april.field4], [0, 0]);
    march = await vat201(s, '2026-03-01', '2026-03-31');
    assert.deepEqual([march.field1, march.field4], [1150, 150]);
  });

  test('half applied, the rest refunded: the VAT drawn out in proportion', async () => {
    const s = await setup();
    const credit = (await advance(s, 1150)).json();
    // An invoice of 500 + 75 = 575: 575 of the 1,150 applied, VAT 575 × 150 / 1,150 = 75, net 500.
    const inv = await invoice(s, 500);
    const a = (await apply(s, inv.id, { sourceId: credit.id, date: '2026-04-05' })).json();
    assert.deepEqual(await entryLines(s, a.entryId), [
      ['2420', 500, 0, 'standard', 15],
      ['2100', 75, 0, 'standard', 15],
      ['1100', 0, 575, null, null],
    ]);
    // Too much back: 600 of the 575 left is 400 naming amount.
    const refund = (payload: object) =>
      s.api({ method: 'POST', url: `/api/customer-credits/${credit.id}/refunds`, payload });
    const over = assertProblem(await refund({ amount: 600, date: '2026-04-10' }), 400);
    assert.equal(over.field, 'amount');
    // The rest, 575, refunded: the VAT left, 150 − 75 = 75, net 500 (a reduction of output tax, s21).
    const r = await refund({ date: '2026-04-10' });
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual([r.json().amount, r.json().vatAmount], [575, 75]);
    assert.deepEqual(await entryLines(s, r.json().entryId), [
      ['2420', 500, 0, 'standard', 15],
      ['2100', 75, 0, 'standard', 15],
      ['1000', 0, 575, null, null],
    ]);
    const c = await fetched(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.remaining, c.status], [0, 'refunded']);
    // Income received in advance is back to nothing: 1,000 − 500 − 500 = 0.
    assert.equal(await balanceOfCode(s, '2420'), 0);
    // VAT output: Cr 150 received, Dr 75 applied, Dr 75 refunded, Cr 75 the invoice's own:
    // 75 owed to SARS (debits less credits: −75), the VAT of the one supply made.
    assert.equal(await balanceOfCode(s, '2100'), -75);
  });

  test("another customer's invoice is 400 sourceId; not registered: no VAT part", async () => {
    const s = await setup();
    const credit = (await advance(s, 1150)).json();
    const other = await s.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Other Traders', contactType: 'CUSTOMER' },
    });
    const theirs = await invoice({ ...s, customerId: other.json().id }, 100);
    assert.equal(assertProblem(await apply(s, theirs.id, { sourceId: credit.id }), 400).field, 'sourceId');

    const u = await setup({ vatRegistered: false });
    const plain = (await advance(u, 500)).json();
    assert.equal(plain.vatAmount, 0);
    assert.deepEqual(await entryLines(u, plain.entryId), [
      ['1000', 500, 0, null, null],
      ['2420', 0, 500, null, null],
    ]);
    // An unknown customer is 400 naming contactId.
    const bad = await u.api({
      method: 'POST',
      url: '/api/invoices/advance-payments',
      payload: { contactId: crypto.randomUUID(), date: '2026-03-20', amount: 10 },
    });
    assert.equal(assertProblem(bad, 400).field, 'contactId');
  });
});
