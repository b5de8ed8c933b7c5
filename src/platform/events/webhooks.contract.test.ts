// The contract of /api/webhooks as an integrator codes against it: event types are a closed
// list (an unknown one is a 400 listing the known ones), records carry createdAt and
// updatedAt, and the delivery list syncs: sort both ways (ties by id) and updatedSince,
// which sees a delivery whose status changed after it was queued.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { events } from '../../events.ts';
import { withTenant } from '../db/tenant.ts';
import { PUBLIC_V4 } from './webhook-target.fixtures.ts';

const TARGET = `https://${PUBLIC_V4}/hooks/contract`;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let t: TestApp;
let owner: Registered;
before(async () => {
  t = await startTestApp();
  owner = await register(t.app, { plan: 'professional' });
});
after(() => t.close());

const api = () => as(t.app, owner.token);

async function addWebhook(): Promise<{ id: string; createdAt: string; updatedAt: string }> {
  const res = await api()({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: TARGET, eventTypes: ['invoice.paid'] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('event types', () => {
  test('an unknown event type is a 400 naming it and listing every known type', async () => {
    for (const [method, url] of [
      ['POST', '/api/webhooks'],
      ['PATCH', `/api/webhooks/${(await addWebhook()).id}`],
    ] as const) {
      const res = await api()({
        method,
        url,
        payload: { url: TARGET, eventTypes: ['invoice.paid', 'invoice.exploded'] },
      });
      assert.equal(res.statusCode, 400, `${method}: ${res.body}`);
      assert.equal(res.json().field, 'eventTypes[1]');
      for (const { type } of events.all)
        assert.ok(res.json().detail.includes(type), `${method} lists ${type}`);
    }
  });

  test('every subscribable type (the registry, src/events.ts) is accepted (on a plan with every module)', async () => {
    const enterprise = await register(t.app, { plan: 'enterprise' });
    const res = await as(
      t.app,
      enterprise.token,
    )({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: TARGET, eventTypes: events.all.map((e) => e.type) },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      res.json().eventTypes,
      events.all.map((e) => e.type),
    );
  });
});

describe('records carry createdAt and updatedAt', () => {
  test('a webhook: updatedAt moves with a change, createdAt stays; the list and the record agree', async () => {
    const created = await addWebhook();
    assert.match(created.createdAt, ISO);
    assert.match(created.updatedAt, ISO);
    t.clock.advance(10_000);
    const changed = (
      await api()({ method: 'PATCH', url: `/api/webhooks/${created.id}`, payload: { enabled: false } })
    ).json();
    assert.equal(changed.createdAt, created.createdAt);
    assert.ok(Date.parse(changed.updatedAt) - Date.parse(created.updatedAt) >= 10_000);
    const listed = (await api()({ method: 'GET', url: '/api/webhooks' }))
      .json()
      .find((w: { id: string }) => w.id === created.id);
    assert.equal(listed.updatedAt, changed.updatedAt);
  });
});

describe('the delivery list syncs', () => {
  /**
   * Three deliveries written outright: `a` and `b` queued in the same instant (the tie),
   * `c` later. `a` was attempted and finished long after it was queued.
   */
  async function seedDeliveries(webhookId: string) {
    const ids = {
      a: crypto.randomUUID(),
      b: crypto.randomUUID(),
      c: crypto.randomUUID(),
    };
    const queued = {
      a: '2026-05-01T08:00:00.000Z',
      b: '2026-05-01T08:00:00.000Z',
      c: '2026-05-02T08:00:00.000Z',
    };
    await withTenant(t.database.db, owner.tenantId, async (tx) => {
      for (const key of ['a', 'b', 'c'] as const) {
        const eventId = crypto.randomUUID();
        await tx
          .insertInto('events')
          .values({
            tenant_id: owner.tenantId,
            id: eventId,
            company_id: null,
            type: 'invoice.paid',
            data: JSON.stringify({}),
            created_at: new Date(queued[key]),
          })
          .execute();
        await tx
          .insertInto('webhook_deliveries')
          .values({
            tenant_id: owner.tenantId,
            id: ids[key],
            webhook_id: webhookId,
            event_id: eventId,
            event_type: 'invoice.paid',
            status: key === 'a' ? 'succeeded' : 'pending',
            last_response_status: null,
            last_error: null,
            created_at: new Date(queued[key]),
            finished_at: key === 'a' ? new Date('2026-05-03T09:00:05.000Z') : null,
          })
          .execute();
        if (key === 'a') {
          await tx
            .insertInto('webhook_attempts')
            .values({
              tenant_id: owner.tenantId,
              id: crypto.randomUUID(),
              delivery_id: ids.a,
              webhook_id: webhookId,
              event_id: eventId,
              attempt: 1,
              attempted_at: new Date('2026-05-03T09:00:00.000Z'),
              duration_ms: 40,
              response_status: 200,
              error: null,
              response_excerpt: null,
            })
            .execute();
        }
      }
    });
    return ids;
  }

  test('sort: createdAt both ways, ties by id the same way; the default is newest first', async () => {
    const hook = await addWebhook();
    const ids = await seedDeliveries(hook.id);
    const order = async (query: string) => {
      const res = await api()({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries${query}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().items.map((d: { id: string }) => d.id);
    };
    const tie = [ids.a, ids.b].sort();
    assert.deepEqual(await order('?sort=createdAt'), [...tie, ids.c]);
    const newestFirst = [ids.c, ...[...tie].reverse()];
    assert.deepEqual(await order('?sort=-createdAt'), newestFirst);
    assert.deepEqual(await order(''), newestFirst);
    // Paging through the tie neither repeats nor skips.
    const paged = [
      ...(await order('?sort=createdAt&limit=1&page=1')),
      ...(await order('?sort=createdAt&limit=1&page=2')),
    ];
    assert.deepEqual(paged, tie);
    const bad = await api()({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries?sort=status` });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'sort');
  });

  test('updatedSince sees a delivery whose status changed after it was queued; each carries updatedAt', async () => {
    const hook = await addWebhook();
    const ids = await seedDeliveries(hook.id);
    const all = (await api()({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries` })).json();
    const byId = new Map(all.items.map((d: { id: string }) => [d.id, d]));
    // a: the latest of queued, attempted and finished; b and c: never attempted, so when queued.
    assert.equal((byId.get(ids.a) as { updatedAt: string }).updatedAt, '2026-05-03T09:00:05.000Z');
    assert.equal((byId.get(ids.a) as { createdAt: string }).createdAt, '2026-05-01T08:00:00.000Z');
    assert.equal((byId.get(ids.c) as { updatedAt: string }).updatedAt, '2026-05-02T08:00:00.000Z');

    const since = async (instant: string) => {
      const res = await api()({
        method: 'GET',
        url: `/api/webhooks/${hook.id}/deliveries?sort=createdAt&updatedSince=${encodeURIComponent(instant)}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      return { ids: res.json().items.map((d: { id: string }) => d.id), total: res.json().total };
    };
    // Queued before the instant, finished after it: a sync learns that it succeeded.
    assert.deepEqual(await since('2026-05-02T12:00:00Z'), { ids: [ids.a], total: 1 });
    // Inclusive: a record changed in the very instant is included.
    assert.deepEqual(await since('2026-05-02T08:00:00.000Z'), { ids: [ids.a, ids.c], total: 2 });
    assert.deepEqual(await since('2026-05-04T00:00:00+02:00'), { ids: [], total: 0 });
    const bad = await api()({
      method: 'GET',
      url: `/api/webhooks/${hook.id}/deliveries?updatedSince=yesterday`,
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'updatedSince');
  });
});
