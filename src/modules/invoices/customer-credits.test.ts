// Unapplied customer credit (issue 14, item 8) through the API: an overpayment's entry, the
// contact's credit in aged debtors, applying it to a later invoice, the refusals, and the
// reversal of a payment whose credit is in use. Figures worked out by hand in the comments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

/** A refusal with this status naming this field (400) or code (409). */
export function refused(
  res: Parameters<typeof assertProblem>[0],
  status: number,
  what: { field?: string; code?: string },
) {
  const body = assertProblem(res, status);
  if (what.field) assert.equal(body.field, what.field, String(body.detail));
  if (what.code) assert.equal(body.code, what.code, String(body.detail));
}

import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { withTenant } from '../../platform/db/tenant.ts';
import { invoiceEvents } from './index.ts';
import { pay, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-04-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

/** 1,000 + 15% VAT (s7(1)(a), 15% since 2018-04-01) = 1,150, issued 2026-03-02. */
const INVOICE = {
  issueDate: '2026-03-02',
  dueDate: '2026-03-31',
  lines: [{ description: 'Shelving', quantity: 1, unitPrice: 1000 }],
};
/** 200 + 30 VAT = 230, issued 2026-04-01. */
const LATER = {
  issueDate: '2026-04-01',
  dueDate: '2026-04-30',
  lines: [{ description: 'Installation', quantity: 1, unitPrice: 200 }],
};

type Line = { accountCode: string; debit: number; credit: number };

export async function entry(s: Sales, id: string) {
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit]);
}

const get = async (s: Sales, url: string) => {
  const res = await s.api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

async function agedTotal(s: Sales, asOf: string) {
  const rows = await get(s, `/api/contacts/aged-debtors?asOf=${asOf}`);
  return rows.find((r: { contactId: string }) => r.contactId === s.customerId)?.total ?? 0;
}

async function overpaid(s: Sales) {
  const inv = await released(s, INVOICE);
  const res = await pay(s, inv.id, 1500, '2026-03-10');
  assert.equal(res.statusCode, 201, res.body);
  const list = await get(s, `/api/customer-credits?contactId=${s.customerId}`);
  const credit = list.items.find((c: { kind: string }) => c.kind === 'overpayment');
  return { inv, payment: res.json(), credit };
}

const apply = (s: Sales, invoiceId: string, payload: object) =>
  s.api({ method: 'POST', url: `/api/invoices/${invoiceId}/allocations`, payload });

describe('an overpayment becomes customer credit', () => {
  test('1,500 paid on 1,150: Dr bank 1,500 / Cr debtors 1,150 (invoice) / Cr debtors 350 (credit)', async () => {
    const s = await setup();
    const { inv, payment, credit } = await overpaid(s);
    // The due part settles the invoice; the excess 1,500 − 1,150 = 350 is the contact's credit.
    assert.deepEqual(await entry(s, payment.entryId), [
      ['1000', 1500, 0],
      ['1100', 0, 1150],
      ['1100', 0, 350],
    ]);
    const after = await get(s, `/api/invoices/${inv.id}`);
    assert.deepEqual([after.status, after.amountPaid, after.amountDue], ['paid', 1150, 0]);
    assert.equal(payment.amount, 1500);
    assert.deepEqual(
      [
        credit.sourceType,
        credit.amount,
        credit.remaining,
        credit.status,
        credit.paymentId,
        credit.documentId,
      ],
      ['customer_credit', 350, 350, 'open', payment.id, inv.id],
    );
    // Aged debtors: 1,150 owed − 1,500 received = −350, the contact's credit.
    assert.equal(await agedTotal(s, '2026-03-31'), -350);
  });

  test('applied partly to a later invoice, then refunded; the refusals', async () => {
    const s = await setup();
    const { credit } = await overpaid(s);
    const later = await released(s, LATER);
    // Over-apply: 400 of a 350 credit is 400 naming amount.
    refused(await apply(s, later.id, { sourceId: credit.id, amount: 400 }), 400, { field: 'amount' });
    const res = await apply(s, later.id, { sourceId: credit.id, amount: 200, date: '2026-04-02' });
    assert.equal(res.statusCode, 201, res.body);
    const a = res.json();
    assert.equal(a.sourceType, 'customer_credit');
    // Dr debtors (the credit's item) 200 / Cr debtors (the invoice's item) 200.
    assert.deepEqual(await entry(s, a.entryId), [
      ['1100', 200, 0],
      ['1100', 0, 200],
    ]);
    const inv2 = await get(s, `/api/invoices/${later.id}`);
    // 230 − 200 = 30 due, partly paid.
    assert.deepEqual([inv2.status, inv2.amountPaid, inv2.amountDue], ['partially_paid', 200, 30]);
    let c = await get(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.remaining, c.status], [150, 'open']);
    // Aged debtors: −350 + 230 (the later invoice) = −120 (30 owed on it, 150 credit left).
    assert.equal(await agedTotal(s, '2026-04-30'), -120);

    // Over-refund: 200 of the 150 left is 400 naming amount.
    const refund = (payload: object) =>
      s.api({ method: 'POST', url: `/api/customer-credits/${credit.id}/refunds`, payload });
    refused(await refund({ amount: 200, date: '2026-04-10' }), 400, { field: 'amount' });
    const r = await refund({ date: '2026-04-10', reference: 'EFT refund' });
    assert.equal(r.statusCode, 201, r.body);
    // The 150 left, paid out: Dr debtors (the credit's item) 150 / Cr bank 150.
    assert.deepEqual(await entry(s, r.json().entryId), [
      ['1100', 150, 0],
      ['1000', 0, 150],
    ]);
    c = await get(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.remaining, c.status], [0, 'refunded']);
    // −120 + 150 refunded = 30, what the later invoice still owes.
    assert.equal(await agedTotal(s, '2026-04-30'), 30);
    refused(await refund({ amount: 1, date: '2026-04-10' }), 409, { code: 'NO_CREDIT_LEFT' });

    // Reversing the refund gives the 150 back.
    const undo = await s.api({
      method: 'DELETE',
      url: `/api/customer-credits/${credit.id}/refunds/${r.json().id}`,
    });
    assert.equal(undo.statusCode, 200, undo.body);
    assert.equal(undo.json().status, 'reversed');
    assert.deepEqual(await entry(s, undo.json().reversalEntryId), [
      ['1100', 0, 150],
      ['1000', 150, 0],
    ]);
    c = await get(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.remaining, c.status], [150, 'open']);
  });

  test('reversing the payment: 409 CREDIT_IN_USE while its credit is applied; else the credit goes too', async () => {
    const s = await setup();
    const { inv, payment, credit } = await overpaid(s);
    const later = await released(s, LATER);
    const a = (await apply(s, later.id, { sourceId: credit.id, amount: 100, date: '2026-04-02' })).json();
    const reversePayment = () =>
      s.api({ method: 'DELETE', url: `/api/invoices/${inv.id}/payments/${payment.id}` });
    refused(await reversePayment(), 409, { code: 'CREDIT_IN_USE' });
    const undo = await s.api({ method: 'DELETE', url: `/api/invoices/${later.id}/allocations/${a.id}` });
    assert.equal(undo.statusCode, 200, undo.body);
    assert.equal((await get(s, `/api/customer-credits/${credit.id}`)).remaining, 350);
    const res = await reversePayment();
    assert.equal(res.statusCode, 200, res.body);
    const c = await get(s, `/api/customer-credits/${credit.id}`);
    assert.deepEqual([c.status, c.remaining], ['reversed', 0]);
    const i = await get(s, `/api/invoices/${inv.id}`);
    assert.deepEqual([i.status, i.amountDue], ['overdue', 1150]);
    // Nothing left for the contact but the two invoices: 1,150 + 230 = 1,380.
    assert.equal(await agedTotal(s, '2026-04-30'), 1380);
  });

  test("another customer's invoice is 400 sourceId; two applications at once cannot over-apply", async () => {
    const s = await setup();
    const { credit } = await overpaid(s);
    const other = await s.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Other Traders', contactType: 'CUSTOMER' },
    });
    const theirs = await released({ ...s, customerId: other.json().id }, LATER);
    refused(await apply(s, theirs.id, { sourceId: credit.id }), 400, { field: 'sourceId' });
    // Two invoices of 230 each, and 350 of credit: both ask for 230 at once; one gets it, the
    // other finds 120 left (400 naming amount).
    const one = await released(s, LATER);
    const two = await released(s, LATER);
    const answers = await Promise.all([
      apply(s, one.id, { sourceId: credit.id, amount: 230, date: '2026-04-02' }),
      apply(s, two.id, { sourceId: credit.id, amount: 230, date: '2026-04-02' }),
    ]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 400]);
    assert.equal((await get(s, `/api/customer-credits/${credit.id}`)).remaining, 120);
  });

  test("another tenant's credit id is 404", async () => {
    const s = await setup();
    const { credit } = await overpaid(s);
    const stranger = await setup();
    assertProblem(await stranger.api({ method: 'GET', url: `/api/customer-credits/${credit.id}` }), 404);
    assertProblem(
      await stranger.api({
        method: 'POST',
        url: `/api/customer-credits/${credit.id}/refunds`,
        payload: { date: '2026-04-10' },
      }),
      404,
    );
  });

  test('a credit note beyond what is open on its invoice is credit; updatedSince and status filter the list', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    assert.equal((await pay(s, inv.id, 1150, '2026-03-10')).statusCode, 201);
    // The invoice is paid; a credit note of 100 + 15 = 115 against it finds nothing open to
    // settle, so all 115 stays on its own item: the customer's credit.
    const cn = await released(s, {
      documentType: 'credit_note',
      creditedDocumentId: inv.id,
      issueDate: '2026-03-15',
      dueDate: '2026-03-15',
      lines: [{ description: 'Damaged shelf', quantity: 1, unitPrice: 100 }],
    });
    assert.deepEqual([cn.status, cn.amountDue], ['open', 115]);
    const since = new Date().toISOString();
    let list = await get(s, `/api/customer-credits?contactId=${s.customerId}&status=open`);
    assert.deepEqual(
      list.items.map((c: { id: string; sourceType: string; number: string; remaining: number }) => [
        c.id,
        c.sourceType,
        c.number,
        c.remaining,
      ]),
      [[cn.id, 'credit_note', cn.number, 115]],
    );
    assert.equal(await agedTotal(s, '2026-03-31'), -115);
    // Refunded in full: nothing changed before `since` is listed after it but the credit note.
    const r = await s.api({
      method: 'POST',
      url: `/api/customer-credits/${cn.id}/refunds`,
      payload: { date: '2026-03-20' },
    });
    assert.equal(r.statusCode, 201, r.body);
    list = await get(s, `/api/customer-credits?updatedSince=${encodeURIComponent(since)}`);
    assert.deepEqual(
      list.items.map((c: { id: string; status: string; remaining: number }) => [c.id, c.status, c.remaining]),
      [[cn.id, 'refunded', 0]],
    );
    assert.equal((await get(s, `/api/customer-credits?status=open`)).total, 0);
    assert.equal(await agedTotal(s, '2026-03-31'), 0);
  });

  test('customer_credit.created and refund.recorded are announced, their data as GET answers', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    const { credit } = await overpaid(s);
    const r = await s.api({
      method: 'POST',
      url: `/api/customer-credits/${credit.id}/refunds`,
      payload: { amount: 50, date: '2026-03-12' },
    });
    assert.equal(r.statusCode, 201, r.body);
    const rows = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('events')
        .select(['type', 'company_id', 'data'])
        .where('tenant_id', '=', b.tenantId)
        .where('type', 'in', ['customer_credit.created', 'refund.recorded'])
        .execute(),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    for (const e of rows) {
      const declared = invoiceEvents.find((d) => d.type === e.type);
      assert.equal(declared?.module, 'invoices');
      assert.equal(e.company_id, b.companyId);
      const valid = ajv.compile(declared.data);
      assert.ok(valid(e.data), `${e.type}: ${JSON.stringify(valid.errors)}`);
    }
    const data = (type: string) =>
      rows.filter((e) => e.type === type).map((e) => e.data as Record<string, unknown>);
    // The credit as it arose (350 left), and the refund of 50 out of it.
    assert.deepEqual(
      data('customer_credit.created').map((d) => [d.id, d.kind, d.remaining]),
      [[credit.id, 'overpayment', 350]],
    );
    assert.deepEqual(
      data('refund.recorded').map((d) => [d.sourceId, d.amount]),
      [[credit.id, 50]],
    );
  });
});
