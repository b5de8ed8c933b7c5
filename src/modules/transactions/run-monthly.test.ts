// /admin/billing/run-monthly and the monthly roll, through the app with a moved clock: a month's
// aggregate created and replaced in place while pending (200), rolled on the first into the
// contact's draft invoice (lines and totals worked by hand below), 409 once invoiced, pending
// again once the invoice is voided; the key bound to a contact, its scope, the plan and the
// credential all checked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { keyToken } from '../../platform/auth/api-keys.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { rollMonthly } from './monthly-roll.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let contactId: string;
/** A raw key bound to the contact, with transactions:write. */
let boundKey: string;

const URL = '/admin/billing/run-monthly';

async function newKey(body: Record<string, unknown>, owner = a): Promise<string> {
  const res = await as(
    t.app,
    owner.token,
  )({ method: 'POST', url: '/api/api-keys', payload: { name: 'Metering', owner: 'business', ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().key;
}

function post(bearer: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: URL,
    headers: { authorization: `Bearer ${bearer}` },
    payload: body,
  });
}

const march = { amount: 1000, month: '2026-03', source: 'metering', description: 'Platform usage' };

before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
  // VAT-registered since 2017, so March 2026's lines carry VAT.
  const vat = await as(
    t.app,
    a.token,
    a.companyId,
  )({
    method: 'PATCH',
    url: `/api/companies/${a.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' },
  });
  assert.equal(vat.statusCode, 200, vat.body);
  const c = await api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Karoo Kitchens', paymentTerms: 30 },
  });
  assert.equal(c.statusCode, 201, c.body);
  contactId = c.json().id;
  boundKey = await newKey({ scopes: ['transactions:write'], contactId });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

describe('run-monthly: pending → in place → rolled on the 1st → 409 → void → pending again', () => {
  let aggregateId: string;
  let invoiceId: string;

  test('the first post creates the pending aggregate (200); a second replaces it in place (200)', async () => {
    const first = await post(boundKey, march);
    assert.equal(first.statusCode, 200, first.body);
    const made = first.json();
    assert.equal(made.status, 'pending');
    assert.equal(made.month, '2026-03');
    assert.equal(made.contactId, contactId);
    assert.equal(made.amount, 1000);
    aggregateId = made.id;
    // The key's exchanged token is taken too.
    const again = await post(await keyToken(t.app, boundKey), {
      ...march,
      amount: 1250.5,
      source: 'metering v2',
      description: 'Platform usage, all services',
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().id, aggregateId);
    assert.equal(again.json().amount, 1250.5);
    assert.equal(again.json().source, 'metering v2');
    assert.equal(again.json().status, 'pending');
  });

  test('a month not yet begun is a 400 naming month; more than two decimals a 400 naming amount', async () => {
    assert.equal(assertProblem(await post(boundKey, { ...march, month: '2026-04' }), 400).field, 'month');
    assert.equal(assertProblem(await post(boundKey, { ...march, amount: 1.005 }), 400).field, 'amount');
  });

  test('on the 1st the roll makes one draft invoice with the aggregate and the month’s transactions', async () => {
    const usage = [
      // 120 × 0.35 = 42.00, standard-rated
      { description: 'SMS messages', quantity: 120, unitPrice: 0.35, occurredAt: '2026-03-14T09:30:00Z' },
      // 100.00, zero-rated
      { description: 'Export freight', unitPrice: 100, vatRate: 0, occurredAt: '2026-03-31T23:59:00Z' },
      // April's: not this roll's
      { description: 'April SMS', unitPrice: 5, occurredAt: '2026-04-01T00:00:00Z' },
    ];
    for (const payload of usage) {
      const res = await api({ method: 'POST', url: `/api/contacts/${contactId}/transactions`, payload });
      assert.equal(res.statusCode, 201, res.body);
    }
    // Before the 1st: nothing to bill.
    assert.deepEqual((await rollMonthly(t.deps)()).invoices, []);
    t.clock.set('2026-04-01T01:00:00Z');
    const run = await rollMonthly(t.deps)();
    assert.deepEqual(run.refused, []);
    assert.deepEqual(run.errors, []);
    assert.equal(run.invoices.length, 1);
    invoiceId = run.invoices[0]!.invoiceId;
    const inv = await as(t.app, a.token, a.companyId)({ method: 'GET', url: `/api/invoices/${invoiceId}` });
    assert.equal(inv.statusCode, 200, inv.body);
    const doc = inv.json();
    assert.equal(doc.status, 'draft');
    assert.equal(doc.documentType, 'invoice');
    assert.equal(doc.contactId, contactId);
    assert.equal(doc.issueDate, '2026-04-01');
    // Due 30 days later: the contact's payment terms.
    assert.equal(doc.dueDate, '2026-05-01');
    assert.deepEqual(
      doc.lines.map((l: Record<string, unknown>) => [l.description, l.netAmount, l.vatAmount, l.totalAmount]),
      [
        // 1250.50 × 15% = 187.575 → 187.58
        ['Platform usage, all services (March 2026)', 1250.5, 187.58, 1438.08],
        // 42.00 × 15% = 6.30
        ['SMS messages', 42, 6.3, 48.3],
        ['Export freight', 100, 0, 100],
      ],
    );
    // 1250.50 + 42.00 + 100.00 = 1392.50; VAT 187.58 + 6.30 = 193.88; total 1586.38
    assert.equal(doc.subtotal, 1392.5);
    assert.equal(doc.vatTotal, 193.88);
    assert.equal(doc.total, 1586.38);
    // The rows are marked with it; April's transaction is still pending.
    const txs = (await api({ method: 'GET', url: `/api/contacts/${contactId}/transactions` })).json() as {
      description: string;
      status: string;
      invoiceId: string | null;
    }[];
    assert.deepEqual(
      txs.map((x) => [x.description, x.status, x.invoiceId]),
      [
        ['April SMS', 'pending', null],
        ['Export freight', 'invoiced', invoiceId],
        ['SMS messages', 'invoiced', invoiceId],
      ],
    );
  });

  test('an invoiced transaction is neither changed nor voided (409 ALREADY_INVOICED)', async () => {
    const txs = (await api({ method: 'GET', url: `/api/contacts/${contactId}/transactions` })).json() as {
      id: string;
      status: string;
    }[];
    const billed = txs.find((x) => x.status === 'invoiced')!;
    const one = `/api/contacts/${contactId}/transactions/${billed.id}`;
    const patch = await api({ method: 'PATCH', url: one, payload: { quantity: 1 } });
    assert.equal(assertProblem(patch, 409).code, 'ALREADY_INVOICED');
    const voided = await api({ method: 'POST', url: `${one}/void` });
    assert.equal(assertProblem(voided, 409).code, 'ALREADY_INVOICED');
  });

  test('a second run (and a third) makes nothing more', async () => {
    assert.deepEqual((await rollMonthly(t.deps)()).invoices, []);
    t.clock.set('2026-04-02T05:00:00Z');
    assert.deepEqual((await rollMonthly(t.deps)()).invoices, []);
    const count = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('invoices').select('id').where('contact_id', '=', contactId).execute(),
    );
    assert.equal(count.length, 1);
  });

  test('once invoiced, a post for the month is a 409 ALREADY_INVOICED', async () => {
    const res = await post(boundKey, { ...march, amount: 2000 });
    const body = assertProblem(res, 409);
    assert.equal(body.code, 'ALREADY_INVOICED');
    assert.match(String(body.detail), /void the invoice first/);
  });

  test('the invoice voided, a post makes the month pending again with the new amount (200), billed by the next roll', async () => {
    const sales = as(t.app, a.token, a.companyId);
    const released = await sales({ method: 'POST', url: `/api/invoices/${invoiceId}/release` });
    assert.equal(released.statusCode, 200, released.body);
    const voided = await sales({ method: 'DELETE', url: `/api/invoices/${invoiceId}` });
    assert.ok(voided.statusCode < 300, voided.body);
    assert.equal((await sales({ method: 'GET', url: `/api/invoices/${invoiceId}` })).json().status, 'void');
    const res = await post(boundKey, { ...march, amount: 2000 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, aggregateId);
    assert.equal(res.json().status, 'pending');
    assert.equal(res.json().invoiceId, null);
    assert.equal(res.json().amount, 2000);
    // The month has ended: the next roll bills it again, alone (the transactions stay on the
    // voided invoice, which a credit or a new charge corrects).
    const run = await rollMonthly(t.deps)();
    assert.equal(run.invoices.length, 1);
    const doc = (await sales({ method: 'GET', url: `/api/invoices/${run.invoices[0]!.invoiceId}` })).json();
    // 2000.00 + 15% (300.00) = 2300.00
    assert.equal(doc.total, 2300);
  });
});

describe('run-monthly: who may post', () => {
  test("a person's token is a 401 API_KEY_REQUIRED", async () => {
    assert.equal(assertProblem(await post(a.token, march), 401).code, 'API_KEY_REQUIRED');
  });

  test('a key bound to no contact is a 403 KEY_NOT_BOUND_TO_CONTACT', async () => {
    const unbound = await newKey({ scopes: ['transactions:write'] });
    assert.equal(assertProblem(await post(unbound, march), 403).code, 'KEY_NOT_BOUND_TO_CONTACT');
  });

  test('a key without transactions:write is a 403 INSUFFICIENT_SCOPE', async () => {
    const readOnly = await newKey({ scopes: ['transactions:read', 'contacts:write'], contactId });
    const body = assertProblem(await post(readOnly, march), 403);
    assert.equal(body.code, 'INSUFFICIENT_SCOPE');
    assert.equal(body.scope, 'transactions:write');
  });

  test('a plan below Business is a 403 MODULE_NOT_LICENSED', async () => {
    const s = await register(t.app, { plan: 'business' });
    const c = (
      await as(t.app, s.token)({ method: 'POST', url: '/api/contacts', payload: { name: 'Starter Co' } })
    ).json().id as string;
    const key = await newKey({ scopes: ['transactions:write'], contactId: c }, s);
    await withTenant(t.database.db, s.tenantId, (tx) =>
      tx.updateTable('tenants').set({ plan: 'starter' }).where('id', '=', s.tenantId).execute(),
    );
    assert.equal(assertProblem(await post(key, march), 403).code, 'MODULE_NOT_LICENSED');
  });
});
