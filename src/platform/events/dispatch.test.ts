// The after-commit dispatcher (migration 0035): a pending event gets one delivery per
// subscribed webhook, exactly once even when two dispatchers race; a dispatched event is left alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { dispatchPending } from './dispatch.ts';
import { createEventDispatcher } from './dispatcher.ts';
import { emitUnchecked } from './outbox.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
});
after(() => t.close());

/** A tenant with one webhook receiving `eventTypes` (at an address nothing answers). */
async function subscribedOwner(eventTypes: string[]) {
  const owner = await register(t.app, { plan: 'business' });
  const hook = await as(
    t.app,
    owner.token,
  )({ method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/hook', eventTypes } });
  assert.equal(hook.statusCode, 201, hook.body);
  return owner;
}

test('pending events are dispatched once: one delivery per subscriber, two dispatchers racing', async () => {
  const owner = await subscribedOwner(['invoice.paid']);
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
  assert.equal(a.events + b.events, 3);
  assert.equal(a.deliveries + b.deliveries, 2);
  assert.deepEqual(await dispatchPending(t.deps), { events: 0, deliveries: 0 });
  const rows = await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx.selectFrom('webhook_deliveries').select('event_id').where('event_id', 'in', ids).execute(),
  );
  assert.deepEqual(rows.map((r) => r.event_id).sort(), [paid1, paid2].sort());
  const pending = await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx.selectFrom('events').select('id').where('id', 'in', ids).where('dispatched_at', 'is', null).execute(),
  );
  assert.equal(pending.length, 0);
});

/** Polls until `check` holds (the dispatcher runs on its own, after commit). */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) assert.fail('not within time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const deliveriesOf = (tenantId: string, eventType: string) =>
  withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('tenant_id', '=', tenantId)
      .where('event_type', '=', eventType)
      .execute(),
  );

test('an emit is dispatched right after its commit, with no drain; a rolled-back emit never is', async () => {
  const owner = await subscribedOwner(['contact.created']);
  const api = as(t.app, owner.token);
  const created = await api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Dlamini Hardware', contactType: 'CUSTOMER' },
  });
  assert.equal(created.statusCode, 201, created.body);
  // The request answered after its commit; the kick it left dispatches without any help.
  await eventually(async () => (await deliveriesOf(owner.tenantId, 'contact.created')).length === 1);
  // An emit in a transaction that rolls back leaves no event, so nothing to dispatch.
  const rolledBack = crypto.randomUUID();
  await assert.rejects(
    withTenant(t.database.db, owner.tenantId, async (tx) => {
      await emitUnchecked(
        { db: tx, deps: t.deps, tenantId: owner.tenantId, companyId: undefined },
        'contact.created',
        {
          id: rolledBack,
        },
      );
      throw new Error('the write failed');
    }),
    /the write failed/,
  );
  await t.drainEvents();
  assert.equal((await deliveriesOf(owner.tenantId, 'contact.created')).length, 1);
});

test('an event left pending (its writer stopped before dispatching) is dispatched by the sweep', async () => {
  const owner = await subscribedOwner(['invoice.paid']);
  // Written the way emit() writes it, with no kick: as if the process died after its commit.
  await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx
      .insertInto('events')
      .values({
        tenant_id: owner.tenantId,
        id: crypto.randomUUID(),
        company_id: null,
        type: 'invoice.paid',
        data: '{}',
      })
      .execute(),
  );
  const sweeper = createEventDispatcher({ database: t.database, jobs: t.deps.jobs, sweepMs: 50 });
  sweeper.start({ error: () => {} });
  try {
    await eventually(async () => (await deliveriesOf(owner.tenantId, 'invoice.paid')).length === 1);
  } finally {
    await sweeper.stop();
  }
});
