// The monthly roll across tenants: each tenant and contact gets its own draft, transactions
// without an aggregate are billed too, a deleted draft opens its month again, and a contact the
// rules refuse is left pending without holding the others back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { rollMonthly } from './monthly-roll.ts';

let t: TestApp;

interface Biller {
  tenant: Registered;
  contactId: string;
  key: string;
}

/** A business tenant (not VAT-registered: no VAT on its lines), a contact and a key bound to it. */
async function biller(name: string): Promise<Biller> {
  const tenant = await register(t.app, { plan: 'business' });
  const api = as(t.app, tenant.token);
  const c = await api({ method: 'POST', url: '/api/contacts', payload: { name } });
  assert.equal(c.statusCode, 201, c.body);
  const k = await api({
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Metering', owner: 'business', scopes: ['transactions:write'], contactId: c.json().id },
  });
  assert.equal(k.statusCode, 201, k.body);
  return { tenant, contactId: c.json().id, key: k.json().key };
}

function postMonth(b: Biller, month: string, amount: number) {
  return t.app.inject({
    method: 'POST',
    url: '/admin/billing/run-monthly',
    headers: { authorization: `Bearer ${b.key}` },
    payload: { amount, month, source: 'metering', description: 'Hosting' },
  });
}

async function invoicesOf(b: Biller) {
  return withTenant(t.database.db, b.tenant.tenantId, (tx) =>
    tx
      .selectFrom('invoices')
      .select(['id', 'total', 'deleted_at'])
      .where('contact_id', '=', b.contactId)
      .orderBy('created_at')
      .execute(),
  );
}

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-10T12:00:00Z');
});
after(() => t.close());

describe('the monthly roll', () => {
  test('two tenants, each billed on its own draft; transactions without an aggregate too', async () => {
    const one = await biller('Karoo Kitchens');
    const two = await biller('Umhlanga Bakery');
    assert.equal((await postMonth(one, '2026-05', 300)).statusCode, 200);
    assert.equal((await postMonth(two, '2026-04', 75.25)).statusCode, 200);
    // Tenant two's contact also used 2 × 10.50 = 21.00 in May (no aggregate of May).
    const used = await as(
      t.app,
      two.tenant.token,
    )({
      method: 'POST',
      url: `/api/contacts/${two.contactId}/transactions`,
      payload: {
        description: 'Extra storage',
        quantity: 2,
        unitPrice: 10.5,
        occurredAt: '2026-05-20T10:00:00Z',
      },
    });
    assert.equal(used.statusCode, 201, used.body);
    // In May, April has ended: only tenant two's April aggregate is billed (75.25).
    const may = await rollMonthly(t.deps)();
    assert.deepEqual(
      may.invoices.map((i) => i.tenantId),
      [two.tenant.tenantId],
    );
    assert.deepEqual(
      (await invoicesOf(two)).map((i) => i.total),
      ['75.25'],
    );
    // On 1 June both are billed: tenant one 300.00; tenant two its May transaction, 21.00.
    t.clock.set('2026-06-01T00:30:00Z');
    const june = await rollMonthly(t.deps)();
    assert.deepEqual(june.errors, []);
    assert.deepEqual(
      june.invoices.map((i) => i.tenantId).sort(),
      [one.tenant.tenantId, two.tenant.tenantId].sort(),
    );
    assert.deepEqual(
      (await invoicesOf(one)).map((i) => i.total),
      ['300.00'],
    );
    assert.deepEqual(
      (await invoicesOf(two)).map((i) => i.total),
      ['75.25', '21.00'],
    );
    assert.deepEqual((await rollMonthly(t.deps)()).invoices, []);
  });

  test('a deleted draft opens its month again: the next post is pending (200) and the next roll bills it', async () => {
    t.clock.set('2026-06-15T09:00:00Z');
    const b = await biller('Soweto Signs');
    assert.equal((await postMonth(b, '2026-06', 500)).statusCode, 200);
    t.clock.set('2026-07-01T03:00:00Z');
    const first = await rollMonthly(t.deps)();
    const draft = first.invoices.find((i) => i.tenantId === b.tenant.tenantId)!.invoiceId;
    assert.equal((await postMonth(b, '2026-06', 550)).statusCode, 409);
    const del = await as(
      t.app,
      b.tenant.token,
      b.tenant.companyId,
    )({ method: 'DELETE', url: `/api/invoices/${draft}` });
    assert.ok(del.statusCode < 300, del.body);
    const again = await postMonth(b, '2026-06', 550);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().status, 'pending');
    await rollMonthly(t.deps)();
    const live = (await invoicesOf(b)).filter((i) => i.deleted_at === null);
    assert.deepEqual(
      live.map((i) => i.total),
      ['550.00'],
    );
  });

  test('a contact the rules refuse (deleted since) stays pending; the tenant’s other contacts are billed', async () => {
    t.clock.set('2026-07-15T09:00:00Z');
    const b = await biller('Gone Gardens');
    const api = as(t.app, b.tenant.token);
    const other = (
      await api({ method: 'POST', url: '/api/contacts', payload: { name: 'Stay Stores' } })
    ).json().id as string;
    for (const contact of [b.contactId, other]) {
      const res = await api({
        method: 'POST',
        url: `/api/contacts/${contact}/transactions`,
        payload: { description: 'Usage', unitPrice: 40, occurredAt: '2026-07-02T10:00:00Z' },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const del = await api({ method: 'DELETE', url: `/api/contacts/${b.contactId}` });
    assert.ok(del.statusCode < 300, del.body);
    t.clock.set('2026-08-01T01:00:00Z');
    const run = await rollMonthly(t.deps)();
    assert.deepEqual(
      run.refused.map((r) => r.contactId),
      [b.contactId],
    );
    assert.ok(run.invoices.some((i) => i.contactId === other));
    const left = await withTenant(t.database.db, b.tenant.tenantId, (tx) =>
      tx.selectFrom('contact_transactions').select(['contact_id', 'status']).orderBy('contact_id').execute(),
    );
    assert.deepEqual(Object.fromEntries(left.map((r) => [r.contact_id, r.status])), {
      [b.contactId]: 'pending',
      [other]: 'invoiced',
    });
  });
});
