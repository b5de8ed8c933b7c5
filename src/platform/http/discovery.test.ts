import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { keyTokenFor } from '../auth/api-keys.factories.ts';
import { addMember } from '../auth/users.factories.ts';
import { discoveryRoutes } from './discovery.routes.ts';

let t: TestApp;
let owner: Registered;
before(async () => {
  t = await startTestApp();
  owner = await register(t.app, { plan: 'business' });
});
after(() => t.close());

const diagnostics = (app = t.app, token?: string) =>
  app.inject({
    method: 'GET',
    url: '/diagnostics',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

/** The short form as an embedded test app answers it: no SMTP, no WhatsApp, everything else up. */
const SHORT = {
  status: 'ok',
  database: { status: 'up' },
  email: { status: 'not_configured' },
  whatsapp: { status: 'not_configured' },
  jobs: { status: 'up' },
  webhooks: { status: 'up' },
  rateLimits: { status: 'up' },
};

test('GET /health answers ok without a token', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok' });
});

describe('GET /diagnostics', () => {
  test('without a token: only up, down or not configured per dependency', async () => {
    const res = await diagnostics();
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), SHORT);
  });

  test("with an administrator's token: the configuration behind each state", async () => {
    const d = (await diagnostics(t.app, owner.token)).json();
    assert.equal(d.status, 'ok');
    assert.equal(d.database.status, 'up');
    assert.equal(d.database.kind, process.env.DATABASE_URL ? 'postgresql' : 'embedded');
    assert.equal(typeof d.database.latencyMs, 'number');
    assert.equal(d.email.status, 'not_configured');
    assert.equal(d.email.configured, false);
    assert.match(d.email.note, /SMTP_URL is not set/);
    assert.deepEqual(d.whatsapp, { status: 'not_configured', configured: false });
    assert.deepEqual(d.webhooks, { status: 'up', privateTargetsAllowed: false });
    assert.deepEqual(d.jobs, { status: 'up', worker: true });
    assert.equal(d.rateLimits.status, 'up');
    assert.ok(['memory', 'redis'].includes(d.rateLimits.store));
    // A member whose role manages access (admin) sees it too.
    const admin = await addMember(t, owner, 'admin');
    const again = (await diagnostics(t.app, admin.token)).json();
    const noLatency = (x: typeof d) => ({ ...x, database: { ...x.database, latencyMs: undefined } });
    assert.deepEqual(noLatency(again), noLatency(d), 'the same detail, latency aside');
  });

  test('a token without admin:manage, or not valid, gets the short form (200), not a 403', async () => {
    const accountant = await addMember(t, owner, 'accountant');
    const viewer = await addMember(t, owner, 'viewer');
    for (const token of [accountant.token, viewer.token, 'not-a-token', `${owner.token}x`]) {
      const res = await diagnostics(t.app, token);
      assert.equal(res.statusCode, 200, token);
      assert.deepEqual(res.json(), SHORT, token);
    }
  });

  test("a key's token: detail when its scopes admit admin:read and its role holds admin:manage", async () => {
    const adminKey = await keyTokenFor(t.app, owner.token, {
      owner: 'business',
      roleId: 'admin',
      scopes: ['admin:read'],
    });
    const d = (await diagnostics(t.app, adminKey.token)).json();
    assert.equal(d.database.kind, process.env.DATABASE_URL ? 'postgresql' : 'embedded');
    // Without the scope, or with a role that lacks admin:manage, the short form.
    const unscoped = await keyTokenFor(t.app, owner.token, {
      owner: 'business',
      roleId: 'admin',
      scopes: ['contacts:read'],
    });
    const viewerKey = await keyTokenFor(t.app, owner.token, {
      owner: 'business',
      roleId: 'viewer',
      scopes: ['full'],
    });
    for (const token of [unscoped.token, viewerKey.token]) {
      assert.deepEqual((await diagnostics(t.app, token)).json(), SHORT);
    }
  });
});

test('GET /diagnostics says when e-mail is configured and private webhook targets are allowed', async () => {
  const t2 = await startTestApp({
    config: { smtpUrl: 'smtp://127.0.0.1:2525', webhookAllowPrivateTargets: true },
  });
  try {
    assert.equal((await diagnostics(t2.app)).json().email.status, 'up');
    const r = await register(t2.app);
    const d = (await diagnostics(t2.app, r.token)).json();
    assert.deepEqual({ ...d.email, note: undefined }, { status: 'up', configured: true, note: undefined });
    assert.equal(d.webhooks.privateTargetsAllowed, true);
  } finally {
    await t2.close();
  }
});

test('the discovery operations declare their ids and the Service tag', () => {
  const routes = discoveryRoutes(() => []);
  assert.deepEqual(
    routes.map((r) => [r.path, r.operationId, r.tag]),
    [
      ['/health', 'getHealth', 'Service'],
      ['/diagnostics', 'getDiagnostics', 'Service'],
      ['/api-docs/openapi.json', 'getOpenApiDocument', 'Service'],
    ],
  );
});
