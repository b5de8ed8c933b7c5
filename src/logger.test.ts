// Logs carry the request id and never a password, token or key.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { sha256 } from '../test/support/app.ts';
import { freshDatabase } from '../test/support/db.ts';
import { buildApp, wireDeps } from './app.ts';
import { loadConfig } from './config.ts';
import { loggerOptions } from './logger.ts';
import { createJobs } from './platform/jobs/jobs.ts';
import { createMailer } from './platform/mail/mailer.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});

const database = await freshDatabase();
const config = loadConfig({ JWT_SECRET: 'log-test-secret-log-test-secret-0123456789' });
const log = pino(loggerOptions('trace'), sink);
const deps = wireDeps({
  config,
  database,
  mailer: createMailer(undefined, config.mailFrom, log),
  // Never started: these tests enqueue nothing.
  jobs: createJobs({ database, log }),
  now: () => new Date(),
});
const app = await buildApp(deps, { loggerInstance: log });
after(async () => {
  await app.close();
  await database.close();
});

test('request logs carry the request id and no credentials', async () => {
  const password = sha256('a secret password');
  const reg = await app.inject({
    method: 'POST',
    url: '/auth/register',
    headers: { 'x-request-id': 'req-log-test-1' },
    payload: { tenantName: 'Log Co', name: 'Owner', email: 'log@example.co.za', password },
  });
  assert.equal(reg.statusCode, 201);
  assert.equal(reg.headers['x-request-id'], 'req-log-test-1');
  const { accessToken, refreshToken } = reg.json();
  const refreshed = await app.inject({ method: 'POST', url: '/auth/refresh', payload: { refreshToken } });
  assert.equal(refreshed.statusCode, 200);
  await app.inject({
    method: 'GET',
    url: `/api/companies?token=${accessToken}`,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const text = lines.join('');
  assert.ok(text.includes('"reqId":"req-log-test-1"'), 'request id in the logs');
  for (const secret of [password, accessToken, refreshToken, refreshed.json().accessToken]) {
    assert.ok(!text.includes(secret), 'a credential reached the log');
  }
  assert.ok(!text.includes(refreshToken.split('.')[1]), 'the secret part of a refresh token reached the log');
});

test('each request is logged once, when it is answered, with its status and time', async () => {
  const from = lines.length;
  await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'req-log-once' } });
  await app.inject({ method: 'GET', url: '/no/such/route', headers: { 'x-request-id': 'req-log-404' } });
  const entries = lines
    .slice(from)
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const once = entries.filter((e) => e.reqId === 'req-log-once');
  assert.equal(once.length, 1, 'one line for the request');
  assert.equal(once[0].msg, 'request completed');
  assert.equal(once[0].res.statusCode, 200);
  assert.equal(once[0].req.url, '/health');
  assert.equal(typeof once[0].responseTime, 'number');
  const missing = entries.filter((e) => e.reqId === 'req-log-404' && e.msg === 'request completed');
  assert.equal(missing.length, 1);
  assert.equal(missing[0].res.statusCode, 404);
});
