// A won opportunity becomes a quote in one call: the quote's lines and totals checked by hand,
// the quote read back through the invoices module, the second call refused naming the first,
// and the refusals (no contact, a lost one, a company not of the tenant, another tenant's id).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { keyTokenFor } from '../../platform/auth/api-keys.factories.ts';
import { type Sales, salesSetup } from '../invoices/invoices.factories.ts';

let t: TestApp;
let a: Registered;
let s: Sales;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-04T09:00:00Z');
  a = await register(t.app, { plan: 'starter' });
  // A VAT-registered company and a customer (Thandi Stores).
  s = await salesSetup(t, a);
  api = as(t.app, a.token);
});
after(() => t.close());

async function opportunity(payload: object) {
  const res = await api({ method: 'POST', url: '/api/crm/opportunities', payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const quote = (id: string, payload: object = { companyId: a.companyId, date: '2026-05-04' }) =>
  api({ method: 'POST', url: `/api/crm/opportunities/${id}/quote`, payload });

describe('won → quote', () => {
  test('the quote carries the lines: 2 × R1,000.00 less 10% = R1,800.00, VAT 15% R270.00, total R2,070.00', async () => {
    const o = await opportunity({
      name: 'Display units, Rosebank',
      contactId: s.customerId,
      lines: [{ description: 'Display unit', quantity: 2, unitPrice: 1000, discountPercent: 10 }],
    });
    assert.equal(o.amount, 1800);
    const won = await api({ method: 'POST', url: `/api/crm/opportunities/${o.id}/won`, payload: {} });
    assert.equal(won.statusCode, 200, won.body);
    const res = await quote(o.id);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers.location, `/api/crm/opportunities/${o.id}`);
    const made = res.json();
    assert.equal(made.status, 'won');
    assert.equal(made.quoteCompanyId, a.companyId);
    assert.match(made.quoteNumber, /\d/);
    const q = await s.api({ method: 'GET', url: `/api/invoices/${made.quoteId}` });
    assert.equal(q.statusCode, 200, q.body);
    const doc = q.json();
    assert.deepEqual(
      [doc.documentType, doc.status, doc.number, doc.contactId, doc.issueDate, doc.dueDate],
      ['quote', 'draft', made.quoteNumber, s.customerId, '2026-05-04', '2026-06-03'],
    );
    // Gross 2 × 1,000.00 = 2,000.00; discount 10% = 200.00; net 1,800.00; VAT 15% of 1,800.00 =
    // 270.00; total 2,070.00.
    assert.deepEqual(
      doc.lines.map((l: Record<string, unknown>) => [
        l.description,
        l.quantity,
        l.unitPrice,
        l.discountRate,
        l.discountAmount,
        l.netAmount,
        l.vatRate,
        l.vatAmount,
        l.totalAmount,
      ]),
      [['Display unit', 2, 1000, 10, 200, 1800, 15, 270, 2070]],
    );
    assert.deepEqual([doc.subtotal, doc.discountTotal, doc.vatTotal, doc.total], [1800, 200, 270, 2070]);

    // A second call: 409 naming the quote made.
    const again = assertProblem(await quote(o.id), 409);
    assert.match(String(again.detail), new RegExp(made.quoteId));
    const read = await api({ method: 'GET', url: `/api/crm/opportunities/${o.id}` });
    assert.equal(read.json().quoteId, made.quoteId);
    assertProblem(await api({ method: 'POST', url: `/api/crm/opportunities/${o.id}/reopen` }), 409);
  });

  test('an open opportunity is won by its quote; a product line keeps its name; no lines: one of the amount', async () => {
    const o = await opportunity({ name: 'Annual support', contactId: s.customerId, amount: 12000 });
    const res = await quote(o.id, { companyId: a.companyId, date: '2026-05-05', validDays: 14 });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().status, res.json().closedAt], ['won', '2026-05-04T09:00:00.000Z']);
    const doc = (await s.api({ method: 'GET', url: `/api/invoices/${res.json().quoteId}` })).json();
    // One line: 1 × 12,000.00, VAT 1,800.00, total 13,800.00; valid 14 days.
    assert.deepEqual(
      doc.lines.map((l: Record<string, unknown>) => [l.description, l.quantity, l.unitPrice, l.totalAmount]),
      [['Annual support', 1, 12000, 13800]],
    );
    assert.equal(doc.dueDate, '2026-05-19');
  });

  test('refused: no contact (400), a lost one (409), a company not of the tenant (400), another tenant (404)', async () => {
    const bare = await opportunity({ name: 'No contact yet', amount: 100 });
    assert.equal(assertProblem(await quote(bare.id), 400).field, 'contactId');
    const o = await opportunity({ name: 'Lost one', contactId: s.customerId, amount: 100 });
    assert.equal(
      assertProblem(await quote(o.id, { companyId: crypto.randomUUID() }), 400).field,
      'companyId',
    );
    const late = { companyId: a.companyId, date: '9999-12-01', validDays: 60 };
    assert.equal(assertProblem(await quote(o.id, late), 400).field, 'validDays');
    await api({
      method: 'POST',
      url: `/api/crm/opportunities/${o.id}/lost`,
      payload: { reason: 'Budget cut' },
    });
    assertProblem(await quote(o.id), 409);
    const b = await register(t.app, { plan: 'starter' });
    const other = as(t.app, b.token);
    const res = await other({
      method: 'POST',
      url: `/api/crm/opportunities/${bare.id}/quote`,
      payload: { companyId: b.companyId },
    });
    assertProblem(res, 404);
  });

  test('a key needs invoices:write as well as crm:write to make the quote', async () => {
    const c = await register(t.app, { plan: 'business' });
    const cs = await salesSetup(t, c, { vatRegistered: false });
    const cApi = as(t.app, c.token);
    const made = await cApi({
      method: 'POST',
      url: '/api/crm/opportunities',
      payload: { name: 'Via a key', contactId: cs.customerId, amount: 500 },
    });
    assert.equal(made.statusCode, 201, made.body);
    const url = `/api/crm/opportunities/${made.json().id}/quote`;
    const payload = { companyId: c.companyId };
    const crmOnly = (await keyTokenFor(t.app, c.token, { scopes: ['crm:write'] })).token;
    const refused = assertProblem(await as(t.app, crmOnly)({ method: 'POST', url, payload }), 403);
    assert.deepEqual([refused.code, refused.scope], ['INSUFFICIENT_SCOPE', 'invoices:write']);
    const both = (await keyTokenFor(t.app, c.token, { scopes: ['crm:write', 'invoices:write'] })).token;
    const res = await as(t.app, both)({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
    // Not VAT registered: 1 × 500.00, no VAT, total 500.00.
    const doc = await as(
      t.app,
      c.token,
      c.companyId,
    )({ method: 'GET', url: `/api/invoices/${res.json().quoteId}` });
    assert.deepEqual([doc.json().vatTotal, doc.json().total], [0, 500]);
  });
});
