// Bad debts written off (VAT Act s22(1), SARS VAT 404; VAT201 field 17), through the API: the
// entry, the invoice's balance and status, the VAT report and aged debtors. Figures by hand.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createDoc, pay, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-04-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

/** An invoice of 1,000 + 15% VAT 150 = 1,150, issued 2026-03-02 (s7(1)(a): 15% since 2018-04-01). */
const INVOICE = {
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  lines: [{ description: 'Stock sold on credit', quantity: 1, unitPrice: 1000 }],
};

type Line = {
  accountCode: string;
  debit: number;
  credit: number;
  taxCode: string | null;
  taxRate: number | null;
};

async function entry(s: Sales, id: string) {
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode, l.taxRate]);
}

const writeOff = (s: Sales, id: string, payload: object) =>
  s.api({ method: 'POST', url: `/api/invoices/${id}/write-off`, payload });

const invoice = async (s: Sales, id: string) =>
  (await s.api({ method: 'GET', url: `/api/invoices/${id}` })).json();

async function debtors(s: Sales, asOf: string) {
  const rows = (await s.api({ method: 'GET', url: `/api/contacts/aged-debtors?asOf=${asOf}` })).json();
  return rows.find((r: { contactId: string }) => r.contactId === s.customerId)?.total ?? 0;
}

const vat201 = async (s: Sales) =>
  (await s.api({ method: 'GET', url: '/api/reports/vat?from=2026-03-01&to=2026-04-30' })).json().vat201;

describe('writing off a bad debt', () => {
  test('1,150 written off in full: Dr bad debts 1,000, Dr VAT 150, Cr debtors 1,150; field 17 = 150', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    assert.equal(inv.total, 1150);
    const before = await vat201(s);
    // Before: output tax 150 (field 4), no input tax: field 20 = 150 payable.
    assert.deepEqual([before.field4, before.field17, before.field19, before.field20], [150, 0, 0, 150]);

    const res = await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Customer liquidated' });
    assert.equal(res.statusCode, 201, res.body);
    const w = res.json();
    // VAT part: 1,150 × 150 / 1,150 = 150 (= 1,150 × 15/115); net 1,150 − 150 = 1,000.
    assert.deepEqual([w.amount, w.vatAmount, w.netAmount, w.date], [1150, 150, 1000, '2026-04-15']);
    assert.deepEqual(await entry(s, w.entryId), [
      ['6800', 1000, 0, 'input_bad_debt', 15],
      ['1300', 150, 0, 'input_bad_debt', 15],
      ['1100', 0, 1150, null, null],
    ]);
    const after = await invoice(s, inv.id);
    assert.deepEqual(
      [after.status, after.amountDue, after.amountWrittenOff, after.amountPaid],
      ['written_off', 0, 1150, 0],
    );

    // s22(1): the 150 is input tax in field 17; field 19 = 14 + 15 + 15A + 17 = 150; field 20 =
    // 13 − 19 = 150 − 150 = 0, 150 less than before.
    const now = await vat201(s);
    assert.deepEqual(
      [now.field4, now.field13, now.field17, now.field19, now.field20],
      [150, 150, 150, 150, 0],
    );
    // Aged debtors: nothing left owing (1,150 − 1,150).
    assert.equal(await debtors(s, '2026-04-20'), 0);
    // Nothing left to write off; a written-off invoice is not voided (its write-off stays).
    assert.equal(
      assertProblem(await writeOff(s, inv.id, { date: '2026-04-16', reason: 'again' }), 409).code,
      'ALREADY_PAID',
    );
    assert.equal(
      assertProblem(await s.api({ method: 'DELETE', url: `/api/invoices/${inv.id}` }), 409).code,
      'HAS_PAYMENTS',
    );
  });

  test('a partial write-off of 575: VAT 75, net 500; the rest stays open, then is written off too', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const res = await writeOff(s, inv.id, {
      date: '2026-04-10',
      amount: 575,
      reason: 'Half lost in a dispute',
    });
    assert.equal(res.statusCode, 201, res.body);
    // 575 × 150 / 1,150 = 75 (= 575 × 15/115); net 575 − 75 = 500.
    assert.deepEqual([res.json().vatAmount, res.json().netAmount], [75, 500]);
    assert.deepEqual(await entry(s, res.json().entryId), [
      ['6800', 500, 0, 'input_bad_debt', 15],
      ['1300', 75, 0, 'input_bad_debt', 15],
      ['1100', 0, 575, null, null],
    ]);
    const half = await invoice(s, inv.id);
    // A part written off is not a payment: still open (overdue past 2026-03-16), 575 due.
    assert.deepEqual([half.status, half.amountDue, half.amountWrittenOff], ['overdue', 575, 575]);
    assert.equal(await debtors(s, '2026-04-20'), 575);
    // The rest, by default all that is due: (575 + 575) × 150/1,150 − 75 = 150 − 75 = 75.
    const rest = await writeOff(s, inv.id, { date: '2026-04-12', reason: 'The rest too' });
    assert.equal(rest.statusCode, 201, rest.body);
    assert.deepEqual([rest.json().amount, rest.json().vatAmount, rest.json().netAmount], [575, 75, 500]);
    assert.equal((await invoice(s, inv.id)).status, 'written_off');
    assert.equal((await vat201(s)).field17, 150);
  });

  test('after a payment of 400: the 750 left is written off with VAT 750 × 150/1,150 = 97.83', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    assert.equal((await pay(s, inv.id, 400, '2026-03-10')).statusCode, 201);
    const res = await writeOff(s, inv.id, { date: '2026-04-10', reason: 'Customer absconded' });
    assert.equal(res.statusCode, 201, res.body);
    // 750 × 150 / 1,150 = 97.826… → 97.83 half-up; net 750 − 97.83 = 652.17.
    assert.deepEqual([res.json().amount, res.json().vatAmount, res.json().netAmount], [750, 97.83, 652.17]);
    assert.equal((await invoice(s, inv.id)).status, 'written_off');
    assert.equal((await vat201(s)).field17, 97.83);
  });

  test('a write-off emits invoice.updated with the document written off, and no invoice.paid', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    const inv = await released(s, INVOICE);
    assert.equal((await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Gone' })).statusCode, 201);
    const events = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('events')
        .select(['type', 'data'])
        .where('tenant_id', '=', b.tenantId)
        .where('type', 'in', ['invoice.updated', 'invoice.paid'])
        .orderBy('created_at')
        .execute(),
    );
    const last = events.at(-1)!;
    const data = last.data as { id: string; status: string; amountDue: number; amountWrittenOff: number };
    assert.deepEqual(
      [last.type, data.id, data.status, data.amountDue, data.amountWrittenOff],
      ['invoice.updated', inv.id, 'written_off', 0, 1150],
    );
    assert.ok(!events.some((e) => e.type === 'invoice.paid'));
  });

  test('a zero-rated invoice claims no VAT: the whole 1,000 to bad debts, untagged', async () => {
    const s = await setup();
    const inv = await released(s, {
      ...INVOICE,
      lines: [{ description: 'Brown bread', quantity: 1, unitPrice: 1000, taxCode: 'zero' }],
    });
    const res = await writeOff(s, inv.id, { date: '2026-04-10', reason: 'Gone' });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(await entry(s, res.json().entryId), [
      ['6800', 1000, 0, null, null],
      ['1100', 0, 1000, null, null],
    ]);
    assert.equal((await vat201(s)).field17, 0);
  });

  test('refusals: too much (400 amount), a draft (409 NOT_OPEN), before the issue date (400 date), locked (409)', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const big = assertProblem(
      await writeOff(s, inv.id, { date: '2026-04-10', amount: 1150.01, reason: 'x' }),
      400,
    );
    assert.equal(big.field, 'amount');
    const draft = await createDoc(s, INVOICE);
    assert.equal(
      assertProblem(await writeOff(s, draft.id, { date: '2026-04-10', reason: 'x' }), 409).code,
      'NOT_OPEN',
    );
    assert.equal(
      assertProblem(await writeOff(s, inv.id, { date: '2026-03-01', reason: 'x' }), 400).field,
      'date',
    );
    await s.api({ method: 'PATCH', url: '/api/ledger/settings', payload: { lockDate: '2026-03-31' } });
    assert.equal(
      assertProblem(await writeOff(s, inv.id, { date: '2026-03-31', reason: 'x' }), 409).code,
      'PERIOD_LOCKED',
    );
    const quote = await createDoc(s, { ...INVOICE, documentType: 'quote' });
    assert.equal(
      assertProblem(await writeOff(s, quote.id, { date: '2026-04-10', reason: 'x' }), 409).code,
      'NOT_RECEIVABLE',
    );
    // Nothing was written off by any of them.
    assert.equal((await invoice(s, inv.id)).amountDue, 1150);
  });

  test('a manual journal cannot tag input_bad_debt (400 naming the line)', async () => {
    const s = await setup();
    const res = await s.api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-04-10',
        description: 'Bad debt by hand',
        lines: [
          { accountCode: '6800', debit: 100, taxCode: 'input_bad_debt', taxRate: 15 },
          { accountCode: '1300', debit: 15, taxCode: 'input_bad_debt', taxRate: 15 },
          { accountCode: '1000', credit: 115 },
        ],
      },
    });
    assert.equal(assertProblem(res, 400).field, 'lines[0].taxCode');
  });
});

describe('recovering a bad debt (s22(2))', () => {
  const recover = (s: Sales, id: string, payload: object) =>
    s.api({ method: 'POST', url: `/api/invoices/${id}/write-off/recover`, payload });

  test('575 of 1,150 written off comes back: Dr bank 575, Cr recovered 500, Cr VAT output 75; field 12', async () => {
    const s = await setup();
    const accounts = (await s.api({ method: 'GET', url: '/api/accounts' })).json();
    const recoveredAccount = accounts.find((a: { code: string }) => a.code === '4950');
    assert.deepEqual(
      [recoveredAccount?.name, recoveredAccount?.type, recoveredAccount?.subtype],
      ['Bad debts recovered', 'income', 'other_income'],
    );
    const inv = await released(s, INVOICE);
    assert.equal(
      assertProblem(await recover(s, inv.id, { date: '2026-04-18', amount: 10 }), 409).code,
      'NOT_WRITTEN_OFF',
    );
    assert.equal((await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Liquidated' })).statusCode, 201);

    const res = await recover(s, inv.id, {
      date: '2026-04-18',
      amount: 575,
      reference: 'Liquidation dividend',
    });
    assert.equal(res.statusCode, 201, res.body);
    // In the proportion claimed: 575 × 150 (VAT claimed) / 1,150 (written off) = 75; net 500.
    assert.deepEqual([res.json().amount, res.json().vatAmount, res.json().netAmount], [575, 75, 500]);
    assert.deepEqual(await entry(s, res.json().entryId), [
      ['1000', 575, 0, null, null],
      ['4950', 0, 500, 'bad_debt_recovered', 15],
      ['2100', 0, 75, 'bad_debt_recovered', 15],
    ]);
    // Output: field 4 = 150 (the sale), field 12 = 75 (recovered), 13 = 4 + 4A + 12 = 225;
    // input: 17 = 150 (written off), 19 = 150; 20 = 225 − 150 = 75.
    const v = await vat201(s);
    assert.deepEqual(
      [v.field4, v.field12, v.field13, v.field17, v.field19, v.field20],
      [150, 75, 225, 150, 150, 75],
    );
    // The document stays written off: nothing is due on it, and aged debtors show nothing.
    const doc = await invoice(s, inv.id);
    assert.deepEqual([doc.status, doc.amountDue], ['written_off', 0]);
    assert.equal(await debtors(s, '2026-04-20'), 0);

    // More than the 575 left: 400 naming amount. The rest: (575 + 575) × 150/1,150 − 75 = 75.
    assert.equal(
      assertProblem(await recover(s, inv.id, { date: '2026-04-19', amount: 575.01 }), 400).field,
      'amount',
    );
    const rest = await recover(s, inv.id, { date: '2026-04-19', amount: 575 });
    assert.equal(rest.statusCode, 201, rest.body);
    assert.equal(rest.json().vatAmount, 75);
    assert.equal(
      assertProblem(await recover(s, inv.id, { date: '2026-04-19', amount: 1 }), 409).code,
      'NOT_WRITTEN_OFF',
    );
    // All of it back: 12 = 150 = 17, so 20 = 150 + 150 − 150 = 150, as if it had been paid.
    const all = await vat201(s);
    assert.deepEqual([all.field12, all.field17, all.field20], [150, 150, 150]);
  });
});
