// The monthly roll in the job worker (src/workers.ts): a job on its queue, as its hourly cron
// sends one, bills an ended month's aggregate on a draft invoice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { MONTHLY_ROLL_QUEUE } from './monthly-roll.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('the billing-monthly-roll queue bills the month before on a draft', async () => {
  t.clock.set('2026-09-30T20:00:00Z');
  const a = await register(t.app, { plan: 'business' });
  const api = as(t.app, a.token);
  const contactId = (await api({ method: 'POST', url: '/api/contacts', payload: { name: 'Cron Co' } })).json()
    .id;
  const key = await api({
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Metering', owner: 'business', scopes: ['transactions:write'], contactId },
  });
  assert.equal(key.statusCode, 201, key.body);
  const posted = await t.app.inject({
    method: 'POST',
    url: '/admin/billing/run-monthly',
    headers: { authorization: `Bearer ${key.json().key}` },
    payload: { amount: 99.99, month: '2026-09', source: 'metering', description: 'Hosting' },
  });
  assert.equal(posted.statusCode, 200, posted.body);
  t.clock.set('2026-10-01T00:05:00Z');
  // What the cron does every hour: a job on the queue.
  await t.deps.jobs.send(MONTHLY_ROLL_QUEUE, {});
  const status = () =>
    withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('billing_aggregates').select(['status', 'invoice_id']).executeTakeFirstOrThrow(),
    );
  let row = await status();
  for (let i = 0; i < 100 && row.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, 200));
    row = await status();
  }
  assert.equal(row.status, 'invoiced');
  const inv = await as(
    t.app,
    a.token,
    a.companyId,
  )({ method: 'GET', url: `/api/invoices/${row.invoice_id}` });
  assert.equal(inv.json().status, 'draft');
  // Not VAT-registered: 99.99 and no VAT.
  assert.equal(inv.json().total, 99.99);
});
