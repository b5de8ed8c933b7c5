// Deposits (issue 14, item 7; VAT Act s1: a deposit is no "consideration" until applied or
// forfeited): no VAT on the document, a deposit larger than its invoice leaving customer credit,
// refunds, and forfeiting with its VAT in the VAT report. Figures worked out by hand.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  createDoc,
  entryLines,
  fetched,
  release,
  released,
  type Sales,
  salesSetup,
} from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-04-20T10:00:00Z');
});
after(() => t.close());

const setup = async (opts: { vatRegistered?: boolean } = {}): Promise<Sales> =>
  salesSetup(t, await register(t.app), opts);

const deposit = (s: Sales, amount: number, issueDate = '2026-03-01') =>
  released(s, {
    documentType: 'deposit',
    issueDate,
    dueDate: issueDate,
    lines: [{ description: 'Deposit on a kitchen', quantity: 1, unitPrice: amount }],
  });

function refused(
  res: Parameters<typeof assertProblem>[0],
  status: number,
  what: { field?: string; code?: string },
) {
  const body = assertProblem(res, status);
  if (what.field) assert.equal(body.field, what.field, String(body.detail));
  if (what.code) assert.equal(body.code, what.code, String(body.detail));
}

const post = (s: Sales, url: string, payload: object) => s.api({ method: 'POST', url, payload });

describe('a deposit carries no VAT', () => {
  test('a line of 1,150 (standard asked): out of scope, VAT 0, total 1,150; Dr bank / Cr deposits 1,150', async () => {
    const s = await setup();
    const dep = await released(s, {
      documentType: 'deposit',
      lines: [{ description: 'Deposit', quantity: 1, unitPrice: 1150, taxCode: 'standard' }],
    });
    assert.deepEqual(
      [dep.subtotal, dep.vatTotal, dep.total, dep.lines[0].taxCode],
      [1150, 0, 1150, 'out_of_scope'],
    );
    assert.deepEqual(await entryLines(s, dep.entryId), [
      ['1000', 1150, 0, null, null],
      ['2200', 0, 1150, null, null],
    ]);
  });
});

describe('what a deposit shows as due (issue 34, item 20)', () => {
  test('a draft asks for its total; released it is paid, nothing due, all of it remaining', async () => {
    const s = await setup();
    const draft = await createDoc(s, {
      documentType: 'deposit',
      lines: [{ description: 'Deposit on a kitchen', quantity: 1, unitPrice: 2000 }],
    });
    // Not yet received: the 2,000 asked for is due, nothing of it is held.
    assert.deepEqual([draft.status, draft.amountDue, draft.amountRemaining], ['draft', 2000, 0]);
    // Released, the deposit is money in hand (Dr bank 2,000): paid 2,000, due 2,000 − 2,000 = 0;
    // all 2,000 is still to apply, refund or forfeit.
    const dep = await release(s, draft.id);
    assert.deepEqual(
      [dep.status, dep.amountPaid, dep.amountDue, dep.amountRemaining],
      ['paid', 2000, 0, 2000],
    );
    // Applied to an invoice of 1,150 (1,000 + 15%): the rest, 850, is a customer credit of its
    // own; the deposit itself has nothing left and nothing due.
    const inv = await released(s, { lines: [{ description: 'Kitchen', quantity: 1, unitPrice: 1000 }] });
    const res = await post(s, `/api/invoices/${inv.id}/allocations`, {
      sourceId: dep.id,
      date: '2026-03-05',
    });
    assert.equal(res.statusCode, 201, res.body);
    const after = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([after.amountDue, after.amountRemaining], [0, 0]);
  });
});

describe('a deposit larger than its invoice', () => {
  test('2,000 applied to 1,150: Dr deposits 2,000 / Cr debtors 1,150 / Cr deposits 850 (customer credit)', async () => {
    const s = await setup();
    const dep = await deposit(s, 2000);
    // 1,000 + 15% = 1,150.
    const inv = await released(s, { lines: [{ description: 'Kitchen', quantity: 1, unitPrice: 1000 }] });
    const res = await post(s, `/api/invoices/${inv.id}/allocations`, {
      sourceId: dep.id,
      date: '2026-03-05',
    });
    assert.equal(res.statusCode, 201, res.body);
    // 2,000 − 1,150 = 850 stays a deposit, as the customer's credit.
    assert.deepEqual(await entryLines(s, res.json().entryId), [
      ['2200', 2000, 0, null, null],
      ['1100', 0, 1150, null, null],
      ['2200', 0, 850, null, null],
    ]);
    assert.equal(res.json().amount, 1150);
    const i = await fetched(s, `/api/invoices/${inv.id}`);
    assert.deepEqual([i.status, i.amountPaid, i.amountDue], ['paid', 1150, 0]);
    assert.equal((await fetched(s, `/api/invoices/${dep.id}`)).amountDue, 0);
    const credits = await fetched(s, `/api/customer-credits?contactId=${s.customerId}&status=open`);
    assert.deepEqual(
      credits.items.map((c: { kind: string; remaining: number; documentId: string }) => [
        c.kind,
        c.remaining,
        c.documentId,
      ]),
      [['deposit_excess', 850, dep.id]],
    );
    const credit = credits.items[0];
    // Refunded: Dr deposits 850 (the credit's item) / Cr bank 850; customer deposits back to 0.
    const r = await post(s, `/api/customer-credits/${credit.id}/refunds`, { date: '2026-03-10' });
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual(await entryLines(s, r.json().entryId), [
      ['2200', 850, 0, null, null],
      ['1000', 0, 850, null, null],
    ]);
    assert.equal((await fetched(s, `/api/customer-credits/${credit.id}`)).status, 'refunded');
  });
});

describe('refunding a deposit', () => {
  test('500: 200 then 300 back; over-refund 400; a draft 409; status refunded', async () => {
    const s = await setup();
    const dep = await deposit(s, 500);
    const url = `/api/customer-credits/${dep.id}/refunds`;
    refused(await post(s, url, { amount: 600, date: '2026-03-10' }), 400, { field: 'amount' });
    refused(await post(s, url, { amount: 200, date: '2026-02-28' }), 400, { field: 'date' });
    const first = await post(s, url, { amount: 200, date: '2026-03-10' });
    assert.equal(first.statusCode, 201, first.body);
    // Dr customer deposits 200 / Cr bank 200.
    assert.deepEqual(await entryLines(s, first.json().entryId), [
      ['2200', 200, 0, null, null],
      ['1000', 0, 200, null, null],
    ]);
    let d = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([d.status, d.amountDue, d.amountRemaining], ['paid', 0, 300]);
    const rest = await post(s, url, { date: '2026-03-11' });
    assert.equal(rest.json().amount, 300);
    d = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([d.status, d.amountRemaining, d.amountRefunded], ['refunded', 0, 500]);
    refused(await post(s, url, { date: '2026-03-12' }), 409, { code: 'NO_CREDIT_LEFT' });
    // Refunds stand on it: voiding it is refused until they are reversed.
    refused(await s.api({ method: 'DELETE', url: `/api/invoices/${dep.id}` }), 409, { code: 'HAS_PAYMENTS' });
    // Listed with the deposit's refunds; the second reversed: 300 is a deposit again.
    const listed = await fetched(s, url);
    assert.deepEqual(
      listed.map((r: { amount: number; status: string }) => [r.amount, r.status]),
      [
        [200, 'paid'],
        [300, 'paid'],
      ],
    );
    const undo = await s.api({
      method: 'DELETE',
      url: `${url}/${rest.json().id}`,
    });
    assert.equal(undo.statusCode, 200, undo.body);
    d = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([d.status, d.amountRemaining], ['paid', 300]);

    const draft = await createDoc(s, {
      documentType: 'deposit',
      lines: [{ description: 'Deposit', quantity: 1, unitPrice: 100 }],
    });
    refused(await post(s, `/api/customer-credits/${draft.id}/refunds`, { date: '2026-03-10' }), 409, {
      code: 'NOT_OPEN',
    });
    // An invoice is no credit: 404.
    const inv = await released(s);
    assertProblem(await post(s, `/api/customer-credits/${inv.id}/refunds`, { date: '2026-03-10' }), 404);
  });

  test('a credit note of 115 (100 + 15% VAT) that credits no invoice: refunded, Dr debtors 115 / Cr bank 115', async () => {
    const s = await setup();
    const cn = await released(s, {
      documentType: 'credit_note',
      lines: [{ description: 'Returned goods', quantity: 1, unitPrice: 100 }],
    });
    // A credit note is a credit the list shows: refunded through the same route.
    const r = await post(s, `/api/customer-credits/${cn.id}/refunds`, { date: '2026-03-10' });
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual(await entryLines(s, r.json().entryId), [
      ['1100', 115, 0, null, null],
      ['1000', 0, 115, null, null],
    ]);
    assert.equal((await fetched(s, `/api/invoices/${cn.id}`)).status, 'refunded');
  });
});

describe('forfeiting a deposit', () => {
  test('1,150 forfeited: Dr deposits 1,150 / Cr 4960 1,000 / Cr VAT 150 (15/115); VAT201 fields 1 and 4', async () => {
    const s = await setup();
    const dep = await deposit(s, 1150);
    const res = await post(s, `/api/invoices/${dep.id}/forfeit`, {
      date: '2026-03-20',
      reason: 'Order cancelled',
    });
    assert.equal(res.statusCode, 201, res.body);
    const f = res.json();
    // VAT = 1,150 × 15/115 = 150; net 1,150 − 150 = 1,000.
    assert.deepEqual([f.amount, f.vatAmount, f.netAmount], [1150, 150, 1000]);
    assert.deepEqual(await entryLines(s, f.entryId), [
      ['2200', 1150, 0, null, null],
      ['4960', 0, 1000, 'standard', 15],
      ['2100', 0, 150, 'standard', 15],
    ]);
    const d = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([d.status, d.amountDue, d.amountForfeited], ['forfeited', 0, 1150]);
    const listed = await fetched(s, `/api/customer-credits?contactId=${s.customerId}`);
    assert.deepEqual(
      listed.items.map((c: { id: string; status: string; remaining: number }) => [
        c.id,
        c.status,
        c.remaining,
      ]),
      [[dep.id, 'forfeited', 0]],
    );
    // The deposit itself posted no VAT; the forfeit is the supply. VAT201 field 1 is the
    // consideration VAT included (net 1,000 + VAT 150 = 1,150), field 4 its output tax, 150.
    const vat = (await fetched(s, '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.deepEqual([vat.field1, vat.field4], [1150, 150]);
    const url = `/api/invoices/${dep.id}`;
    refused(await post(s, `${url}/forfeit`, { date: '2026-03-21', reason: 'again' }), 409, {
      code: 'NOT_OPEN',
    });
    refused(await post(s, `/api/customer-credits/${dep.id}/refunds`, { date: '2026-03-21' }), 409, {
      code: 'NOT_OPEN',
    });
    const inv = await released(s);
    refused(await post(s, `/api/invoices/${inv.id}/allocations`, { sourceId: dep.id }), 409, {
      code: 'NOT_OPEN',
    });
    refused(await post(s, `/api/invoices/${inv.id}/forfeit`, { date: '2026-03-21', reason: 'x' }), 409, {
      code: 'NOT_A_DEPOSIT',
    });
  });

  test('before 2018-04-01 the fraction is 14/114; not registered, no VAT at all', async () => {
    const s = await setup();
    const dep = await deposit(s, 1140, '2018-03-01');
    const f = (await post(s, `/api/invoices/${dep.id}/forfeit`, { date: '2018-03-15', reason: 'x' })).json();
    // 1,140 × 14/114 = 140; net 1,000.
    assert.deepEqual(await entryLines(s, f.entryId), [
      ['2200', 1140, 0, null, null],
      ['4960', 0, 1000, 'standard', 14],
      ['2100', 0, 140, 'standard', 14],
    ]);
    const u = await setup({ vatRegistered: false });
    const dep2 = await deposit(u, 500);
    const g = (await post(u, `/api/invoices/${dep2.id}/forfeit`, { date: '2026-03-15', reason: 'x' })).json();
    assert.deepEqual([g.vatAmount, g.netAmount], [0, 500]);
    assert.deepEqual(await entryLines(u, g.entryId), [
      ['2200', 500, 0, null, null],
      ['4960', 0, 500, null, null],
    ]);
  });
});

describe('forfeiting what is left of a partly applied deposit (issue 34, item 17)', () => {
  test('2,000 applied to 1,150, 115 of the rest applied: the 735 left is forfeited with its VAT', async () => {
    const s = await setup();
    const dep = await deposit(s, 2000);
    // 1,000 + 15% = 1,150: the deposit settles it; 2,000 − 1,150 = 850 is left as the deposit's
    // excess, a customer credit on customer deposits.
    const a = await released(s, { lines: [{ description: 'Kitchen', quantity: 1, unitPrice: 1000 }] });
    const applied = await post(s, `/api/invoices/${a.id}/allocations`, {
      sourceId: dep.id,
      date: '2026-03-05',
    });
    assert.equal(applied.statusCode, 201, applied.body);
    const credits = await fetched(s, `/api/customer-credits?contactId=${s.customerId}&status=open`);
    const credit = credits.items[0];
    assert.deepEqual([credit.kind, credit.remaining], ['deposit_excess', 850]);
    // 100 + 15% = 115 of it applied to a second invoice: 850 − 115 = 735 left.
    const b = await released(s, { lines: [{ description: 'Handles', quantity: 1, unitPrice: 100 }] });
    const part = await post(s, `/api/invoices/${b.id}/allocations`, {
      sourceId: credit.id,
      date: '2026-03-06',
    });
    assert.equal(part.statusCode, 201, part.body);

    // Before the forfeit's date could not be: the rest became a credit on 2026-03-05.
    refused(await post(s, `/api/invoices/${dep.id}/forfeit`, { date: '2026-03-04', reason: 'x' }), 400, {
      field: 'date',
    });
    const res = await post(s, `/api/invoices/${dep.id}/forfeit`, { date: '2026-03-20', reason: 'Cancelled' });
    assert.equal(res.statusCode, 201, res.body);
    const f = res.json();
    // VAT = 735 × 15/115 = 95.869… → 95.87 (half-up); net 735 − 95.87 = 639.13.
    assert.deepEqual([f.amount, f.vatAmount, f.netAmount], [735, 95.87, 639.13]);
    // Dr customer deposits on the credit's own open item, so customer deposits end at 0.
    assert.deepEqual(await entryLines(s, f.entryId), [
      ['2200', 735, 0, null, null],
      ['4960', 0, 639.13, 'standard', 15],
      ['2100', 0, 95.87, 'standard', 15],
    ]);
    const d = await fetched(s, `/api/invoices/${dep.id}`);
    assert.deepEqual([d.status, d.amountForfeited, d.amountRemaining], ['forfeited', 735, 0]);
    const c = await fetched(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.status, c.remaining], ['forfeited', 0]);
    const balances = await fetched(s, '/api/reports/trial-balance?asOf=2026-03-31');
    const deposits = balances.accounts.find((x: { code: string }) => x.code === '2200');
    assert.ok(!deposits || (deposits.debit === 0 && deposits.credit === 0), JSON.stringify(deposits));
    // Nothing is left: no second forfeit, no refund, and the application that made the credit
    // cannot be undone under it.
    refused(await post(s, `/api/invoices/${dep.id}/forfeit`, { date: '2026-03-21', reason: 'x' }), 409, {
      code: 'NOT_OPEN',
    });
    refused(await post(s, `/api/customer-credits/${credit.id}/refunds`, { date: '2026-03-21' }), 409, {
      code: 'NOT_OPEN',
    });
    const undo = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${a.id}/allocations/${applied.json().id}`,
    });
    refused(undo, 409, { code: 'CREDIT_IN_USE' });
    // VAT201 for March: invoices 1,150 + 115 = 1,265.00 (VAT 150 + 15 = 165.00) and the forfeit
    // 735.00 (VAT 95.87): field 1 = 2,000.00, field 4 = 260.87.
    const vat = (await fetched(s, '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.deepEqual([vat.field1, vat.field4], [2000, 260.87]);
  });
});
