import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('GET /health answers ok without a token', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok' });
});

test('GET /diagnostics reports the database and that e-mail and WhatsApp are not configured', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/diagnostics' });
  assert.equal(res.statusCode, 200);
  const d = res.json();
  assert.equal(d.status, 'ok');
  assert.equal(d.database.status, 'up');
  assert.equal(d.database.kind, process.env.DATABASE_URL ? 'postgresql' : 'embedded');
  assert.equal(d.email.configured, false);
  assert.equal(d.whatsapp.configured, false);
  assert.equal(d.webhooks.privateTargetsAllowed, false);
  assert.deepEqual(d.jobs, { status: 'running', worker: true });
});

test('GET /diagnostics says when e-mail is configured and private webhook targets are allowed', async () => {
  const t2 = await startTestApp({
    config: { smtpUrl: 'smtp://127.0.0.1:2525', webhookAllowPrivateTargets: true },
  });
  try {
    const d = (await t2.app.inject({ method: 'GET', url: '/diagnostics' })).json();
    assert.equal(d.email.configured, true);
    assert.equal(d.webhooks.privateTargetsAllowed, true);
  } finally {
    await t2.close();
  }
});
