// The after-commit dispatcher (migration 0035): a pending event gets one delivery per
// subscribed webhook, exactly once even when two dispatchers race; a dispatched event is left alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { dispatchPending } from './dispatch.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
});
after(() => t.close());

test('pending events are dispatched once: one delivery per subscriber, two dispatchers racing', async () => {
  const owner = await register(t.app, { plan: 'business' });
  const res = await as(
    t.app,
    owner.token,
  )({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: 'http://127.0.0.1:9/hook', eventTypes: ['invoice.paid'] },
  });
  assert.equal(res.statusCode, 201, res.body);
  const paid1 = crypto.randomUUID();
  const paid2 = crypto.randomUUID();
  const other = crypto.randomUUID();
  const ids = [paid1, paid2, other];
  await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx
      .insertInto('events')
      .values([
        {
          tenant_id: owner.tenantId,
          id: paid1,
          company_id: null,
          type: 'invoice.paid',
          data: '{}',
          dispatched_at: null,
        },
        {
          tenant_id: owner.tenantId,
          id: paid2,
          company_id: null,
          type: 'invoice.paid',
          data: '{}',
          dispatched_at: null,
        },
        // No webhook subscribes to this type: dispatched, no delivery.
        {
          tenant_id: owner.tenantId,
          id: other,
          company_id: null,
          type: 'contact.created',
          data: '{}',
          dispatched_at: null,
        },
      ])
      .execute(),
  );
  const [a, b] = await Promise.all([dispatchPending(t.deps), dispatchPending(t.deps)]);
  assert.equal(a + b, 3);
  assert.equal(await dispatchPending(t.deps), 0);
  const rows = await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx.selectFrom('webhook_deliveries').select('event_id').where('event_id', 'in', ids).execute(),
  );
  assert.deepEqual(rows.map((r) => r.event_id).sort(), [paid1, paid2].sort());
  const pending = await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx.selectFrom('events').select('id').where('id', 'in', ids).where('dispatched_at', 'is', null).execute(),
  );
  assert.equal(pending.length, 0);
});
