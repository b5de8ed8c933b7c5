// Incremental sync of the contact book: sort and updatedSince, deleted contacts seen by a sync,
// timestamps, the isActive filter, and the contact.created / contact.updated events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { PUBLIC_V4 } from '../../platform/events/webhook-target.fixtures.ts';
import { assertBadRequest, createContact as create } from './contacts.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Api = ReturnType<typeof as>;
interface Item {
  id: string;
  name: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

async function list(api: Api, query: string) {
  const res = await api({ method: 'GET', url: `/api/contacts?${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { items: Item[]; total: number };
}

/** Every page of a list, in order. */
async function allPages(api: Api, query: string, limit: number): Promise<Item[]> {
  const out: Item[] = [];
  for (let page = 1; ; page++) {
    const p = await list(api, `${query}&limit=${limit}&page=${page}`);
    if (p.items.length === 0) return out;
    out.push(...p.items);
  }
}

async function eventsOf(tenantId: string, type?: string) {
  return withTenant(t.database.db, tenantId, async (tx) => {
    let q = tx
      .selectFrom('events')
      .select(['type', 'company_id', 'data'])
      .where('tenant_id', '=', tenantId)
      .where('type', 'like', 'contact.%');
    if (type) q = q.where('type', '=', type);
    return q.orderBy('created_at').orderBy('id').execute();
  });
}

describe('contacts: sort and updatedSince', () => {
  let a: Registered;
  let api: Api;
  const ids: string[] = [];
  let start: string;
  before(async () => {
    a = await register(t.app);
    api = as(t.app, a.token);
    // Five contacts, the clock fixed so the first three share one instant (ties by id).
    t.clock.set('2026-05-01T08:00:00.000Z');
    for (const name of ['Echo', 'Delta', 'Charlie']) ids.push(String((await create(api, { name })).id));
    t.clock.set('2026-05-01T09:00:00.000Z');
    ids.push(String((await create(api, { name: 'Bravo' })).id));
    t.clock.set('2026-05-01T10:00:00.000Z');
    ids.push(String((await create(api, { name: 'Alpha' })).id));
    start = '2026-05-01T08:00:00.000Z';
  });
  after(() => t.clock.set(new Date()));

  test('sort=createdAt and -createdAt: the exact reverse of each other, ties by id, stable across pages', async () => {
    const tied = ids.slice(0, 3).sort();
    const asc = await allPages(api, 'sort=createdAt', 2);
    assert.deepEqual(
      asc.map((c) => c.id),
      [...tied, ids[3], ids[4]],
    );
    const desc = await allPages(api, 'sort=-createdAt', 2);
    assert.deepEqual(
      desc.map((c) => c.id),
      asc.map((c) => c.id).reverse(),
    );
    // One page holding everything agrees with the pages read two at a time.
    assert.deepEqual(
      (await list(api, 'sort=createdAt&limit=50')).items.map((c) => c.id),
      asc.map((c) => c.id),
    );
    // Default order stays by name.
    assert.deepEqual(
      (await list(api, '')).items.map((c) => c.name),
      ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'],
    );
    assertBadRequest(await api({ method: 'GET', url: '/api/contacts?sort=name' }), 'sort');
  });

  test('createdAt and updatedAt on every contact; PATCH moves updatedAt only; sort=updatedAt follows it', async () => {
    const before = (await api({ method: 'GET', url: `/api/contacts/${ids[0]}` })).json() as Item;
    assert.equal(before.createdAt, start);
    assert.equal(before.updatedAt, start);
    t.clock.set('2026-05-02T12:00:00.000Z');
    const patched = await api({
      method: 'PATCH',
      url: `/api/contacts/${ids[0]}`,
      payload: { notes: 'moved' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().createdAt, start);
    assert.equal(patched.json().updatedAt, '2026-05-02T12:00:00.000Z');
    const byUpdated = await allPages(api, 'sort=-updatedAt', 2);
    assert.equal(byUpdated[0]!.id, ids[0]);
    assert.equal(byUpdated.length, 5);
  });

  test('updatedSince: only what changed at or after it, deleted and deactivated contacts included', async () => {
    t.clock.set('2026-05-03T12:00:00.000Z');
    const since = '2026-05-03T12:00:00.000Z';
    assert.equal((await list(api, `updatedSince=${since}`)).total, 0);
    // Deactivate one, delete another.
    assert.equal(
      (await api({ method: 'PATCH', url: `/api/contacts/${ids[3]}`, payload: { isActive: false } }))
        .statusCode,
      200,
    );
    assert.equal((await api({ method: 'DELETE', url: `/api/contacts/${ids[4]}` })).statusCode, 204);
    const changed = await list(
      api,
      `updatedSince=${encodeURIComponent('2026-05-03T14:00:00+02:00')}&sort=updatedAt`,
    );
    assert.deepEqual(changed.items.map((c) => c.id).sort(), [ids[3], ids[4]].sort());
    const deleted = changed.items.find((c) => c.id === ids[4])!;
    assert.equal(deleted.deletedAt, since);
    assert.equal(deleted.updatedAt, since);
    const inactive = changed.items.find((c) => c.id === ids[3])!;
    assert.equal(inactive.isActive, false);
    assert.equal(inactive.deletedAt, null);
    // Without updatedSince the deleted contact stays out of the list, and GET by id is a 404.
    assert.ok(!(await list(api, '')).items.some((c) => c.id === ids[4]));
    assert.equal((await api({ method: 'GET', url: `/api/contacts/${ids[4]}` })).statusCode, 404);
    // isActive combines with updatedSince.
    assert.deepEqual(
      (await list(api, `updatedSince=${since}&isActive=false`)).items.map((c) => c.id),
      [ids[3]],
    );
    assertBadRequest(
      await api({ method: 'GET', url: '/api/contacts?updatedSince=yesterday' }),
      'updatedSince',
    );
  });

  test('isActive: true only active, false only inactive, absent both', async () => {
    const active = await list(api, 'isActive=true');
    const inactive = await list(api, 'isActive=false');
    const both = await list(api, '');
    assert.ok(active.items.every((c) => c.isActive));
    assert.ok(inactive.items.every((c) => !c.isActive));
    assert.deepEqual(
      [...active.items, ...inactive.items].map((c) => c.id).sort(),
      both.items.map((c) => c.id).sort(),
    );
    assert.equal(inactive.total, 1);
  });
});

describe('contacts: events', () => {
  test('contact.created once per new contact (not on a replay), contact.updated on PATCH and delete, data as GET answers', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token);
    const clientId = crypto.randomUUID();
    const first = await api({ method: 'POST', url: '/api/contacts', payload: { clientId, name: 'Evented' } });
    assert.equal(first.statusCode, 201);
    const replay = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { clientId, name: 'Evented' },
    });
    assert.equal(replay.statusCode, 200);
    const created = await eventsOf(b.tenantId, 'contact.created');
    assert.equal(created.length, 1);
    assert.equal(created[0]!.company_id, null);
    assert.deepEqual(created[0]!.data, first.json());

    t.clock.advance(1000);
    const patched = await api({
      method: 'PATCH',
      url: `/api/contacts/${clientId}`,
      payload: { isActive: false },
    });
    assert.equal(patched.statusCode, 200);
    const got = await api({ method: 'GET', url: `/api/contacts/${clientId}` });
    let updated = await eventsOf(b.tenantId, 'contact.updated');
    assert.equal(updated.length, 1);
    assert.deepEqual(updated[0]!.data, got.json());
    assert.equal((updated[0]!.data as Item).isActive, false);

    // A refused change emits nothing.
    assert.equal(
      (await api({ method: 'PATCH', url: `/api/contacts/${clientId}`, payload: { contactType: 'NOPE' } }))
        .statusCode,
      400,
    );
    assert.equal((await eventsOf(b.tenantId, 'contact.updated')).length, 1);

    t.clock.advance(1000);
    assert.equal((await api({ method: 'DELETE', url: `/api/contacts/${clientId}` })).statusCode, 204);
    updated = await eventsOf(b.tenantId, 'contact.updated');
    assert.equal(updated.length, 2);
    const gone = updated[1]!.data as Item;
    assert.equal(gone.id, clientId);
    assert.equal(typeof gone.deletedAt, 'string');
    assert.equal(gone.updatedAt, gone.deletedAt);
    // The deleted contact's event carries what a sync's list shows of it.
    const synced = await list(api, `updatedSince=${encodeURIComponent(gone.updatedAt)}`);
    assert.deepEqual(synced.items, [gone]);
    assert.deepEqual(
      (await eventsOf(b.tenantId)).map((e) => e.type),
      ['contact.created', 'contact.updated', 'contact.updated'],
    );
  });
});

describe('contacts: webhooks', () => {
  test('a webhook may subscribe to contact.created and contact.updated; each event queues one delivery', async () => {
    const c = await register(t.app, { plan: 'business' });
    const api = as(t.app, c.token);
    const hook = await api({
      method: 'POST',
      url: '/api/webhooks',
      payload: {
        url: `https://${PUBLIC_V4}/hooks/contacts`,
        eventTypes: ['contact.created', 'contact.updated'],
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const made = await create(api, { name: 'Hooked' });
    const patched = await api({
      method: 'PATCH',
      url: `/api/contacts/${made.id}`,
      payload: { phone: '021 555 0100' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    await t.drainEvents();
    const deliveries = await withTenant(t.database.db, c.tenantId, (tx) =>
      tx
        .selectFrom('webhook_deliveries')
        .select('event_type')
        .where('tenant_id', '=', c.tenantId)
        .where('webhook_id', '=', hook.json().id)
        .orderBy('event_type')
        .execute(),
    );
    assert.deepEqual(
      deliveries.map((d) => d.event_type),
      ['contact.created', 'contact.updated'],
    );
  });
});
