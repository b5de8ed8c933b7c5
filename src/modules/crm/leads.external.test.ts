// POST /external/leads: the raw API key only, idempotent on externalRef, scope crm:write, the
// plan, and the per-address limit (60 a minute, DECISIONS.md).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { keyToken, makeKey } from '../../platform/auth/api-keys.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

function send(app: TestApp['app'], bearer: string, payload: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/external/leads',
    headers: { authorization: `Bearer ${bearer}` },
    payload,
  });
}

const FORM = {
  name: 'Pieter van Wyk',
  companyName: 'Van Wyk Boerdery',
  email: 'pieter@vanwykboerdery.co.za',
  phone: '082 555 0199',
  source: 'website form',
  estimatedValue: 12000,
  notes: 'Wants a demo',
  externalRef: 'form-000123',
};

async function setPlan(tenantId: string, plan: string) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx.updateTable('tenants').set({ plan }).where('id', '=', tenantId).execute(),
  );
}

describe('POST /external/leads', () => {
  test('the raw key makes the lead (201, Location); the same externalRef answers it again (200)', async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['crm:write'] });
    const first = await send(t.app, key.key, FORM);
    assert.equal(first.statusCode, 201, first.body);
    const lead = first.json();
    assert.equal(first.headers.location, `/api/crm/leads/${lead.id}`);
    assert.equal(lead.phoneE164, '+27825550199');
    assert.equal(lead.externalRef, 'form-000123');
    assert.equal(lead.estimatedValue, 12000);
    const replay = await send(t.app, key.key, { ...FORM, notes: 'sent twice' });
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.json().id, lead.id);
    assert.equal(replay.json().notes, 'Wants a demo', 'a replay changes nothing');
    // Two sends crossing: one lead, both answered with it.
    const both = await Promise.all([
      send(t.app, key.key, { ...FORM, externalRef: 'form-000124' }),
      send(t.app, key.key, { ...FORM, externalRef: 'form-000124' }),
    ]);
    assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 201]);
    assert.equal(both[0].json().id, both[1].json().id);
    const listed = await as(t.app, a.token)({ method: 'GET', url: '/api/crm/leads' });
    assert.equal(listed.json().total, 2);
    // A deleted lead's reference is not reused silently.
    await as(t.app, a.token)({ method: 'DELETE', url: `/api/crm/leads/${lead.id}` });
    assert.equal(assertProblem(await send(t.app, key.key, FORM), 409).field, 'externalRef');
  });

  test("an exchanged token or a person's token: 401 API_KEY_REQUIRED; bad input 400", async () => {
    const a = await register(t.app, { plan: 'business' });
    const key = await makeKey(t.app, a.token, { scopes: ['crm:write'] });
    const exchanged = await keyToken(t.app, key.key);
    assert.equal(assertProblem(await send(t.app, exchanged, FORM), 401).code, 'API_KEY_REQUIRED');
    assert.equal(assertProblem(await send(t.app, a.token, FORM), 401).code, 'API_KEY_REQUIRED');
    assertProblem(
      await t.app.inject({ method: 'POST', url: '/external/leads', payload: FORM }),
      401,
      'no bearer',
    );
    assert.equal(assertProblem(await send(t.app, key.key, { ...FORM, colour: 'red' }), 400).field, 'colour');
    assert.equal(assertProblem(await send(t.app, key.key, { ...FORM, phone: '12' }), 400).field, 'phone');
  });

  test('a key without crm:write: 403 INSUFFICIENT_SCOPE; below Starter or without keys in the plan: 403', async () => {
    const a = await register(t.app, { plan: 'business' });
    const reader = await makeKey(t.app, a.token, { scopes: ['crm:read'] });
    assert.equal(assertProblem(await send(t.app, reader.key, FORM), 403).code, 'INSUFFICIENT_SCOPE');
    const other = await makeKey(t.app, a.token, { scopes: ['contacts:write'] });
    assert.equal(assertProblem(await send(t.app, other.key, FORM), 403).code, 'INSUFFICIENT_SCOPE');
    const full = await makeKey(t.app, a.token, { scopes: ['full'] });
    // A free plan has no keys to make; a key made before the business went down to free is
    // refused for the module first: MODULE_NOT_LICENSED.
    await setPlan(a.tenantId, 'free');
    assert.equal(assertProblem(await send(t.app, full.key, FORM), 403).code, 'MODULE_NOT_LICENSED');
    // Starter has CRM but no API keys.
    await setPlan(a.tenantId, 'starter');
    assert.equal(assertProblem(await send(t.app, full.key, FORM), 403).code, 'PLAN_HAS_NO_API_KEYS');
    await setPlan(a.tenantId, 'business');
    assert.equal((await send(t.app, full.key, FORM)).statusCode, 201);
  });
});

describe('the per-address limit', () => {
  let limited: TestApp;
  before(async () => {
    limited = await startTestApp({ jobsWork: false, config: { rateLimits: { addressPerWindow: 60 } } });
  });
  after(() => limited.close());

  test('the 61st call of a minute from one address is 429, whatever the key', async () => {
    const a = await register(limited.app, { plan: 'business' });
    // Two keys, each with its own meter well above 60 a minute: the address limit is what stops.
    const one = await makeKey(limited.app, a.token, { scopes: ['crm:write'], rateLimitPerMinute: 1000 });
    const two = await makeKey(limited.app, a.token, { scopes: ['crm:write'], rateLimitPerMinute: 1000 });
    for (let i = 0; i < 60; i++) {
      const res = await send(limited.app, i % 2 ? one.key : two.key, {
        name: `Lead ${i}`,
        externalRef: `r-${i}`,
      });
      assert.equal(res.statusCode, 201, `call ${i + 1}: ${res.body}`);
    }
    const over = await send(limited.app, one.key, { name: 'Lead 61', externalRef: 'r-61' });
    assert.equal(assertProblem(over, 429).code, 'RATE_LIMITED');
    assert.ok(Number(over.headers['retry-after']) > 0);
  });
});
