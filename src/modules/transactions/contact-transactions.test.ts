// Contact transactions through the app: the spec's array shape, amounts worked from quantity ×
// unit price, externalRef replays, filters, void, and the module split (reading is contacts,
// writing is transactions: Business and up).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let contactId: string;
let otherContactId: string;

async function newContact(name: string): Promise<string> {
  const res = await api({ method: 'POST', url: '/api/contacts', payload: { name } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

const url = (c: string) => `/api/contacts/${c}/transactions`;

before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
  contactId = await newContact('Karoo Kitchens');
  otherContactId = await newContact('Umhlanga Bakery');
});
after(() => t.close());

describe('contact transactions', () => {
  test('POST works the amount out (3 × 12.345 = 37.035 → 37.04, half-up) and points at its GET', async () => {
    const res = await api({
      method: 'POST',
      url: url(contactId),
      payload: {
        description: 'API calls',
        quantity: 3,
        unitPrice: 12.345,
        occurredAt: '2026-03-02T08:00:00Z',
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json();
    assert.equal(made.amount, 37.04);
    assert.equal(made.quantity, 3);
    assert.equal(made.unitPrice, 12.345);
    // Default rate: the standard rate on occurredAt.
    assert.equal(made.vatRate, 15);
    assert.equal(made.status, 'pending');
    assert.equal(made.currency, 'ZAR');
    assert.equal(made.invoiceId, null);
    assert.equal(res.headers.location, `${url(contactId)}/${made.id}`);
    const got = await api({ method: 'GET', url: res.headers.location as string });
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(got.json(), made);
    assert.ok(got.headers.etag, 'a single record carries an ETag');
  });

  test('an amount that is not quantity × unitPrice to the cent is a 400 naming amount; so is a VAT rate of 10', async () => {
    const wrong = await api({
      method: 'POST',
      url: url(contactId),
      payload: {
        description: 'SMS',
        quantity: 120,
        unitPrice: 0.35,
        amount: 42.01,
        occurredAt: '2026-03-03T08:00:00Z',
      },
    });
    assert.equal(assertProblem(wrong, 400).field, 'amount');
    const rate = await api({
      method: 'POST',
      url: url(contactId),
      payload: { description: 'SMS', unitPrice: 1, vatRate: 10, occurredAt: '2026-03-03T08:00:00Z' },
    });
    assert.equal(assertProblem(rate, 400).field, 'vatRate');
    const currency = await api({
      method: 'POST',
      url: url(contactId),
      payload: { description: 'SMS', unitPrice: 1, currency: 'USD', occurredAt: '2026-03-03T08:00:00Z' },
    });
    assert.equal(assertProblem(currency, 400).field, 'currency');
  });

  test('externalRef: the same ref again answers 200 with the first transaction, unchanged; for another contact 409', async () => {
    const body = {
      description: 'SMS messages sent',
      quantity: 120,
      unitPrice: 0.35,
      amount: 42,
      occurredAt: '2026-03-14T09:30:00Z',
      externalRef: 'usage-2026-03-14-sms',
      metadata: { meter: 'sms', batch: 17 },
    };
    const first = await api({ method: 'POST', url: url(contactId), payload: body });
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(first.json().metadata, { meter: 'sms', batch: 17 });
    const again = await api({
      method: 'POST',
      url: url(contactId),
      payload: { ...body, quantity: 1, amount: 0.35 },
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    const elsewhere = await api({ method: 'POST', url: url(otherContactId), payload: body });
    assert.equal(assertProblem(elsewhere, 409).field, 'externalRef');
    const list = (await api({ method: 'GET', url: url(contactId) })).json() as {
      externalRef: string | null;
    }[];
    assert.equal(list.filter((x) => x.externalRef === body.externalRef).length, 1);
  });

  test("GET is the spec's bare array, newest first, with from, to and status filters", async () => {
    const c = await newContact('Filter Foods');
    for (const [day, price] of [
      ['2026-04-01', 1],
      ['2026-04-15', 2],
      ['2026-04-30', 3],
    ] as const) {
      const res = await api({
        method: 'POST',
        url: url(c),
        payload: { description: `Day ${day}`, unitPrice: price, occurredAt: `${day}T23:59:00Z` },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const all = await api({ method: 'GET', url: url(c) });
    assert.equal(all.statusCode, 200, all.body);
    const rows = all.json() as Record<string, unknown>[];
    assert.ok(Array.isArray(rows));
    assert.deepEqual(
      rows.map((r) => r.unitPrice),
      [3, 2, 1],
    );
    assert.deepEqual(Object.keys(rows[0]!).sort(), [
      'amount',
      'contactId',
      'createdAt',
      'currency',
      'description',
      'externalRef',
      'id',
      'invoiceId',
      'invoicedAt',
      'metadata',
      'occurredAt',
      'quantity',
      'status',
      'tenantId',
      'unitPrice',
      'vatRate',
    ]);
    assert.equal(rows[0]!.tenantId, a.tenantId);
    // `to` includes its whole day (23:59 on the 15th).
    const window = await api({ method: 'GET', url: url(c), query: { from: '2026-04-02', to: '2026-04-15' } });
    assert.deepEqual(
      (window.json() as { unitPrice: number }[]).map((r) => r.unitPrice),
      [2],
    );
    const backwards = await api({
      method: 'GET',
      url: url(c),
      query: { from: '2026-04-15', to: '2026-04-01' },
    });
    assert.equal(assertProblem(backwards, 400).field, 'to');
    // Void the oldest: it stays listed, void; the status filter finds it.
    const oldest = rows[2]!.id as string;
    const voided = await api({ method: 'POST', url: `${url(c)}/${oldest}/void` });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().status, 'void');
    const pending = await api({ method: 'GET', url: url(c), query: { status: 'pending' } });
    assert.equal((pending.json() as unknown[]).length, 2);
    const gone = await api({ method: 'GET', url: url(c), query: { status: 'void' } });
    assert.deepEqual(
      (gone.json() as { id: string }[]).map((r) => r.id),
      [oldest],
    );
  });

  test('PATCH changes a pending transaction, working the amount out again; a void one is a 409', async () => {
    const made = await api({
      method: 'POST',
      url: url(contactId),
      payload: { description: 'Minutes', quantity: 10, unitPrice: 1.5, occurredAt: '2026-03-05T08:00:00Z' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const one = `${url(contactId)}/${made.json().id}`;
    // 12 × 1.5 = 18.00
    const changed = await api({
      method: 'PATCH',
      url: one,
      payload: { quantity: 12, description: 'Call minutes' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().amount, 18);
    assert.equal(changed.json().description, 'Call minutes');
    const wrong = await api({ method: 'PATCH', url: one, payload: { unitPrice: 2, amount: 18 } });
    assert.equal(assertProblem(wrong, 400).field, 'amount');
    assert.equal((await api({ method: 'POST', url: `${one}/void` })).statusCode, 200);
    assertProblem(await api({ method: 'PATCH', url: one, payload: { quantity: 1 } }), 409);
  });

  test("another tenant's contact or transaction is a 404", async () => {
    const b = await register(t.app, { plan: 'business' });
    const asB = as(t.app, b.token);
    assertProblem(await asB({ method: 'GET', url: url(contactId) }), 404);
    const mine = (await api({ method: 'GET', url: url(contactId) })).json()[0].id as string;
    assertProblem(await asB({ method: 'GET', url: `${url(contactId)}/${mine}` }), 404);
    const post = await asB({
      method: 'POST',
      url: url(contactId),
      payload: { description: 'Sneaky', unitPrice: 1, occurredAt: '2026-03-03T08:00:00Z' },
    });
    assertProblem(post, 404);
  });

  test('writing needs the transactions module (Business and up); reading is contacts (every plan)', async () => {
    const s = await register(t.app, { plan: 'business' });
    const asS = as(t.app, s.token);
    const c = (await asS({ method: 'POST', url: '/api/contacts', payload: { name: 'Starter Co' } })).json()
      .id;
    await withTenant(t.database.db, s.tenantId, (tx) =>
      tx.updateTable('tenants').set({ plan: 'starter' }).where('id', '=', s.tenantId).execute(),
    );
    const post = await asS({
      method: 'POST',
      url: url(c),
      payload: { description: 'Usage', unitPrice: 1, occurredAt: '2026-03-03T08:00:00Z' },
    });
    assert.equal(assertProblem(post, 403).code, 'MODULE_NOT_LICENSED');
    const list = await asS({ method: 'GET', url: url(c) });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json(), []);
  });
});
