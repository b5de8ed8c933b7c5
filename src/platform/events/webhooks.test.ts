// /api/webhooks through the real app: the secret answered once, the address checked at
// save time, who may receive which events (role, key scope, plan), change, switch off
// and on, delete.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied, assertProblem } from '../../../test/support/problem.ts';
import { keyTokenFor } from '../auth/api-keys.factories.ts';
import { addMember } from '../auth/users.factories.ts';
import { withTenant } from '../db/tenant.ts';
import { PUBLIC_V4 } from './webhook-target.fixtures.ts';

// A public address spelt as an IP literal: the save-time check needs no name server.
const TARGET = `https://${PUBLIC_V4}/hooks/business-platform`;

let t: TestApp;
let owner: Registered;
before(async () => {
  t = await startTestApp();
  owner = await register(t.app, { plan: 'professional' });
});
after(() => t.close());

const add = (token: string, body: Record<string, unknown>) =>
  as(t.app, token)({ method: 'POST', url: '/api/webhooks', payload: body });

describe('adding a webhook', () => {
  test('answers the whsec_ secret once; the list and the record never show it', async () => {
    const res = await add(owner.token, {
      url: TARGET,
      eventTypes: ['invoice.paid', 'invoice.paid'],
      description: 'ERP',
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 24);
    assert.deepEqual(created.eventTypes, ['invoice.paid']);
    assert.equal(created.enabled, true);
    assert.deepEqual(created.createdBy, { type: 'user', id: owner.userId });
    const list = await as(t.app, owner.token)({ method: 'GET', url: '/api/webhooks' });
    const one = await as(t.app, owner.token)({ method: 'GET', url: `/api/webhooks/${created.id}` });
    for (const r of [list, one]) {
      assert.equal(r.statusCode, 200);
      assert.ok(!r.body.includes(created.secret));
      assert.ok(!r.body.includes('"secret"'));
    }
    assert.equal(one.json().url, TARGET);
    assert.equal(one.json().description, 'ERP');
  });

  test('an address that is not https or not public internet is a 400 naming url', async () => {
    for (const url of [
      `http://${PUBLIC_V4}/hook`,
      'https://127.0.0.1/hook',
      'https://0x7f000001/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/hook',
      'not a url',
    ]) {
      const body = assertProblem(await add(owner.token, { url, eventTypes: ['invoice.paid'] }), 400, url);
      assert.equal(body.field, 'url', url);
    }
  });

  test('an unknown event type is a 400 naming eventTypes[i]', async () => {
    const body = assertProblem(
      await add(owner.token, { url: TARGET, eventTypes: ['invoice.paid', 'invoice.eaten'] }),
      400,
    );
    assert.equal(body.field, 'eventTypes[1]');
    assert.match(String(body.detail), /invoice\.paid/);
  });

  test('a person must be allowed to view the module of each event type', async () => {
    const role = await as(
      t.app,
      owner.token,
    )({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Integrations', permissions: ['admin:manage', 'invoices:read'] },
    });
    assert.equal(role.statusCode, 201, role.body);
    const member = await addMember(t, owner, role.json().id);
    assert.equal((await add(member.token, { url: TARGET, eventTypes: ['invoice.paid'] })).statusCode, 201);
    assertPermissionDenied(
      await add(member.token, { url: TARGET, eventTypes: ['invoice.paid', 'payroll.run.paid'] }),
      'payroll',
      'read',
    );
  });

  test('a key must hold the read scope of each event type; its webhook names the key', async () => {
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['admin:write'] });
    const refused = await add(key.token, { url: TARGET, eventTypes: ['invoice.paid'] });
    const body = assertProblem(refused, 403);
    assert.equal(body.code, 'INSUFFICIENT_SCOPE');
    assert.equal(body.scope, 'invoices:read');
    const scoped = await keyTokenFor(t.app, owner.token, { scopes: ['admin:write', 'invoices:read'] });
    const res = await add(scoped.token, { url: TARGET, eventTypes: ['invoice.paid'] });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().createdBy, { type: 'api_key', id: scoped.id });
  });

  test('the plan must include the module, and webhooks themselves (Business and above)', async () => {
    const business = await register(t.app, { plan: 'business' });
    const payroll = assertProblem(
      await add(business.token, { url: TARGET, eventTypes: ['payroll.run.paid'] }),
      403,
    );
    assert.equal(payroll.code, 'MODULE_NOT_LICENSED');
    const starter = await register(t.app, { plan: 'starter' });
    const none = assertProblem(await add(starter.token, { url: TARGET, eventTypes: ['invoice.paid'] }), 403);
    assert.equal(none.code, 'PLAN_HAS_NO_WEBHOOKS');
  });
});

describe('changing a webhook', () => {
  async function webhook() {
    const res = await add(owner.token, { url: TARGET, eventTypes: ['invoice.paid'] });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  }
  const patch = (id: string, payload: Record<string, unknown>) =>
    as(t.app, owner.token)({ method: 'PATCH', url: `/api/webhooks/${id}`, payload });

  test('switching off is manual; switching on clears the reason and the failure count', async () => {
    const id = await webhook();
    const off = await patch(id, { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().enabled, false);
    assert.equal(off.json().disabledReason, 'manual');
    // As the delivery worker leaves it after five failed events.
    await withTenant(t.database.db, owner.tenantId, (tx) =>
      tx
        .updateTable('webhooks')
        .set({ disabled_reason: 'failing', consecutive_failures: 5 })
        .where('id', '=', id)
        .execute(),
    );
    const on = await patch(id, { enabled: true });
    assert.deepEqual(
      [on.json().enabled, on.json().disabledReason, on.json().consecutiveFailures],
      [true, null, 0],
    );
  });

  test('a new address or new event types are checked as when adding', async () => {
    const id = await webhook();
    assert.equal(assertProblem(await patch(id, { url: 'https://192.168.1.1/x' }), 400).field, 'url');
    assert.equal(assertProblem(await patch(id, { eventTypes: ['nope'] }), 400).field, 'eventTypes[0]');
    const ok = await patch(id, {
      url: `https://${PUBLIC_V4}/v2`,
      eventTypes: ['bill.rejected', 'expense.rejected'],
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json().eventTypes, ['bill.rejected', 'expense.rejected']);
  });

  test('delete stops it: gone from the list, 404 after', async () => {
    const id = await webhook();
    const del = await as(t.app, owner.token)({ method: 'DELETE', url: `/api/webhooks/${id}` });
    assert.equal(del.statusCode, 204);
    assertProblem(await as(t.app, owner.token)({ method: 'GET', url: `/api/webhooks/${id}` }), 404);
    const list = (await as(t.app, owner.token)({ method: 'GET', url: '/api/webhooks' })).json();
    assert.ok(!list.some((w: { id: string }) => w.id === id));
  });
});
