import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { addMember } from '../auth/users.factories.ts';
import { withTenant } from '../db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const ENTRY_KEYS = [
  'action',
  'actorId',
  'actorType',
  'companyId',
  'createdAt',
  'details',
  'id',
  'ip',
  'occurredAt',
  'requestId',
  'resource',
  'resourceId',
];

/** Writes entries at chosen times straight into the log (the service stamps its own). */
async function seed(
  a: Registered,
  entries: Array<{ at: string; action: string; resource: string; companyId?: string; resourceId?: string }>,
) {
  await withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .insertInto('audit_log')
      .values(
        entries.map((e) => ({
          tenant_id: a.tenantId,
          id: crypto.randomUUID(),
          occurred_at: e.at,
          actor_type: 'system',
          actor_id: null,
          action: e.action,
          resource: e.resource,
          resource_id: e.resourceId ?? null,
          company_id: e.companyId ?? null,
          details: '{}',
        })),
      )
      .execute(),
  );
}

describe('audit log', () => {
  test('a write appears with who, what, which record, when and the request', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const started = Date.now();
    const created = await api({
      method: 'POST',
      url: '/api/roles',
      headers: { 'x-request-id': 'req-role-1' },
      payload: { name: 'Auditor', permissions: ['reports:read'] },
    });
    assert.equal(created.statusCode, 201);
    const roleId = created.json().id;
    const company = await api({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { name: 'Renamed' },
    });
    assert.equal(company.statusCode, 200);
    // Reads are not logged.
    await api({ method: 'GET', url: '/api/roles' });

    const res = await api({ method: 'GET', url: '/api/audit-log' });
    assert.equal(res.statusCode, 200);
    const log = res.json();
    assert.deepEqual(
      log.items.map((e: { action: string }) => e.action),
      ['PATCH /api/companies/{id}', 'POST /api/roles', 'POST /auth/register'],
    );
    const [patch, entry] = log.items;
    assert.deepEqual(Object.keys(entry).sort(), ENTRY_KEYS);
    assert.equal(entry.actorType, 'user');
    assert.equal(entry.actorId, a.userId);
    assert.equal(entry.resource, 'role');
    assert.equal(entry.resourceId, roleId);
    assert.equal(entry.requestId, 'req-role-1');
    assert.equal(typeof entry.ip, 'string');
    assert.equal(entry.companyId, null);
    assert.ok(Math.abs(Date.parse(entry.occurredAt) - started) < 60_000);
    assert.match(entry.occurredAt, /Z$/);
    assert.deepEqual(entry.details.body, { name: 'Auditor', permissions: ['reports:read'] });
    assert.equal(entry.details.status, 201);
    assert.equal(patch.resource, 'companies');
    assert.equal(patch.resourceId, a.companyId);
    assert.deepEqual(patch.details.params, { id: a.companyId });
  });

  test('a password sent when adding a user is [redacted], never in clear', async () => {
    const a = await register(t.app);
    const password = sha256('a secret password');
    const res = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/users',
      payload: {
        email: `r.${crypto.randomUUID().slice(0, 6)}@example.co.za`,
        name: 'R',
        roleId: 'viewer',
        password,
      },
    });
    assert.equal(res.statusCode, 201);
    const log = await as(t.app, a.token)({ method: 'GET', url: '/api/audit-log?resource=user' });
    const [entry] = log.json().items;
    assert.equal(entry.action, 'POST /api/users');
    assert.equal(entry.resourceId, res.json().id);
    assert.equal(entry.details.body.password, '[redacted]');
    assert.equal(entry.details.body.roleId, 'viewer');
    assert.ok(!log.body.includes(password));
    const stored = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('audit_log').select('details').execute(),
    );
    assert.ok(!JSON.stringify(stored).includes(password));
  });

  test('filters: from/to (inclusive days), actorId, resource, resourceId, action contains, companyId', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const companyId = crypto.randomUUID();
    await seed(a, [
      { at: '2024-03-01T00:00:00Z', action: 'POST /api/invoices', resource: 'invoices', companyId },
      {
        at: '2024-03-02T23:59:59Z',
        action: 'PATCH /api/invoices/{id}',
        resource: 'invoices',
        resourceId: 'inv-1',
      },
      {
        at: '2024-03-03T10:00:00Z',
        action: 'DELETE /api/invoices/{id}',
        resource: 'invoices',
        resourceId: 'inv-1',
      },
      { at: '2024-03-04T00:00:00Z', action: 'POST /api/contacts', resource: 'contacts', companyId },
    ]);
    const get = async (qs: string) => (await api({ method: 'GET', url: `/api/audit-log?${qs}` })).json();
    const actions = (page: { items: Array<{ action: string }> }) => page.items.map((e) => e.action);

    assert.deepEqual(actions(await get('from=2024-03-02&to=2024-03-03')), [
      'DELETE /api/invoices/{id}',
      'PATCH /api/invoices/{id}',
    ]);
    assert.equal((await get('to=2024-03-01')).total, 1);
    assert.equal((await get('from=2024-03-04&resource=contacts')).total, 1);
    assert.deepEqual(actions(await get('resourceId=inv-1')), [
      'DELETE /api/invoices/{id}',
      'PATCH /api/invoices/{id}',
    ]);
    assert.deepEqual(actions(await get('action=patch')), ['PATCH /api/invoices/{id}']);
    assert.equal((await get('action=%25')).total, 0);
    assert.deepEqual(actions(await get(`companyId=${companyId}`)), [
      'POST /api/contacts',
      'POST /api/invoices',
    ]);
    assert.equal((await get('resource=invoices')).total, 3);
    const mine = await get(`actorId=${a.userId}`);
    assert.deepEqual(actions(mine), ['POST /auth/register']);

    for (const [qs, field] of [
      ['from=yesterday', 'from'],
      ['to=2024-02-30', 'to'],
      ['from=2024-03-02&to=2024-03-01', 'to'],
      ['actorId=me', 'actorId'],
      ['companyId=42', 'companyId'],
    ] as const) {
      const res = await api({ method: 'GET', url: `/api/audit-log?${qs}` });
      assert.equal(res.statusCode, 400, qs);
      assert.match(res.json().detail, new RegExp(`^${field}`), qs);
    }
  });

  test('paged newest first; limits clamped; a page past the end is empty with the same total', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    await seed(
      a,
      Array.from({ length: 205 }, (_, i) => ({
        at: new Date(Date.UTC(2023, 0, 1) + i * 60_000).toISOString(),
        action: `step ${i}`,
        resource: 'test',
      })),
    );
    const first = (await api({ method: 'GET', url: '/api/audit-log?resource=test&limit=3' })).json();
    assert.deepEqual(
      first.items.map((e: { action: string }) => e.action),
      ['step 204', 'step 203', 'step 202'],
    );
    assert.equal(first.total, 205);
    assert.equal(first.totalPages, 69);
    const second = (await api({ method: 'GET', url: '/api/audit-log?resource=test&limit=3&page=2' })).json();
    assert.equal(second.items[0].action, 'step 201');
    assert.equal((await api({ method: 'GET', url: '/api/audit-log?limit=0' })).json().limit, 50);
    const big = (await api({ method: 'GET', url: '/api/audit-log?resource=test&limit=500' })).json();
    assert.equal(big.limit, 200);
    assert.equal(big.items.length, 200);
    const past = (await api({ method: 'GET', url: '/api/audit-log?resource=test&page=99' })).json();
    assert.deepEqual(past.items, []);
    assert.equal(past.total, 205);
  });

  test('sort: createdAt both ways, ties by id the same way; createdAt is when it happened', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    await seed(a, [
      { at: '2025-03-01T10:00:00Z', action: 'sorted one', resource: 'sorting' },
      { at: '2025-03-01T10:00:00Z', action: 'sorted two', resource: 'sorting' },
      { at: '2025-03-02T10:00:00Z', action: 'sorted three', resource: 'sorting' },
    ]);
    const list = async (sort?: string) => {
      const res = await api({
        method: 'GET',
        url: `/api/audit-log?resource=sorting${sort ? `&sort=${sort}` : ''}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().items as Array<{ id: string; action: string; createdAt: string; occurredAt: string }>;
    };
    const ascending = await list('createdAt');
    const tie = ascending.filter((e) => e.createdAt === '2025-03-01T10:00:00.000Z').map((e) => e.id);
    assert.equal(tie.length, 2);
    assert.deepEqual(
      ascending.map((e) => e.id),
      [...[...tie].sort(), ascending[2]!.id],
    );
    assert.equal(ascending[2]!.action, 'sorted three');
    for (const e of ascending) assert.equal(e.createdAt, e.occurredAt);
    const descending = (await list('-createdAt')).map((e) => e.id);
    assert.deepEqual(descending, ascending.map((e) => e.id).reverse());
    assert.deepEqual(
      (await list()).map((e) => e.id),
      descending,
    );
    const bad = await api({ method: 'GET', url: '/api/audit-log?sort=updatedAt' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'sort');
  });

  test('admin:read is needed (viewer 403, accountant 200), and each business sees only its own log', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const viewer = await addMember(t, a, 'viewer');
    const accountant = await addMember(t, a, 'accountant');
    const denied = await as(t.app, viewer.token)({ method: 'GET', url: '/api/audit-log' });
    assert.equal(denied.statusCode, 403);
    assert.deepEqual(denied.json(), { error: 'Forbidden', resource: 'admin', action: 'read' });
    assert.equal(
      (await as(t.app, accountant.token)({ method: 'GET', url: '/api/audit-log' })).statusCode,
      200,
    );
    const theirs = (await as(t.app, b.token)({ method: 'GET', url: '/api/audit-log' })).json();
    assert.deepEqual(
      theirs.items.map((e: { actorId: string }) => e.actorId),
      [b.userId],
    );
    const probe = (
      await as(t.app, b.token)({ method: 'GET', url: `/api/audit-log?actorId=${a.userId}` })
    ).json();
    assert.equal(probe.total, 0);
  });
});
