// CORS_ORIGINS: a listed origin's preflight is answered 204 with the methods and headers it may
// use, and its answers carry the CORS headers (errors included); any other origin gets none;
// without CORS_ORIGINS nothing is installed. A bad value stops start-up (exit code 2).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './cors.ts';

const ALLOWED = 'https://app.example.co.za';
const OTHER = 'https://evil.example.com';

let withCors: TestApp;
let without: TestApp;
const routesWith: RouteOptions[] = [];
const routesWithout: RouteOptions[] = [];
before(async () => {
  withCors = await startTestApp({
    config: { corsOrigins: [ALLOWED, 'http://localhost:5173'] },
    jobsWork: false,
    onRoute: (r) => routesWith.push(r),
  });
  without = await startTestApp({ jobsWork: false, onRoute: (r) => routesWithout.push(r) });
});
after(async () => {
  await withCors.close();
  await without.close();
});

function preflight(t: TestApp, origin: string, url = '/api/invoices') {
  return t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, x-company-id, idempotency-key',
    },
  });
}

function corsHeaders(res: LightMyRequestResponse): string[] {
  return Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
}

const list = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe('an allowed origin', () => {
  test('its preflight is answered 204 with the methods, headers and exposed headers', async () => {
    const res = await preflight(withCors, ALLOWED);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], ALLOWED);
    for (const m of ['get', 'post', 'patch', 'put', 'delete']) {
      assert.ok(list(res.headers['access-control-allow-methods']).includes(m), m);
    }
    assert.deepEqual(
      list(res.headers['access-control-allow-headers']).sort(),
      CORS_ALLOWED_HEADERS.map((h) => h.toLowerCase()).sort(),
    );
    assert.deepEqual(
      list(res.headers['access-control-expose-headers']).sort(),
      CORS_EXPOSED_HEADERS.map((h) => h.toLowerCase()).sort(),
    );
    assert.equal(res.headers['access-control-max-age'], '600');
    assert.equal(res.headers['access-control-allow-credentials'], undefined, 'bearer tokens, not cookies');
    assert.ok(list(res.headers.vary).includes('origin'), 'caches keep answers per origin');
    // Any path: the preflight comes before the browser knows whether the route exists.
    assert.equal((await preflight(withCors, 'http://localhost:5173', '/api/contacts/x')).statusCode, 204);
  });

  test('its answers carry the CORS headers, a 401 included (so the app can read WWW-Authenticate)', async () => {
    const ok = await withCors.app.inject({ method: 'GET', url: '/health', headers: { origin: ALLOWED } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['access-control-allow-origin'], ALLOWED);
    assert.ok(list(ok.headers['access-control-expose-headers']).includes('x-request-id'));
    const denied = await withCors.app.inject({
      method: 'GET',
      url: '/api/companies',
      headers: { origin: ALLOWED },
    });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['access-control-allow-origin'], ALLOWED);
    assert.ok(list(denied.headers['access-control-expose-headers']).includes('www-authenticate'));
  });
});

describe('any other origin', () => {
  test('its preflight gets no CORS header (a 404), nor do its answers', async () => {
    const res = await preflight(withCors, OTHER);
    assert.equal(res.statusCode, 404);
    assert.deepEqual(corsHeaders(res), []);
    const get = await withCors.app.inject({ method: 'GET', url: '/health', headers: { origin: OTHER } });
    assert.equal(get.statusCode, 200);
    assert.deepEqual(corsHeaders(get), []);
    // A listed origin's host on another scheme or port is another origin.
    assert.deepEqual(corsHeaders(await preflight(withCors, 'http://app.example.co.za')), []);
  });
});

describe('without CORS_ORIGINS', () => {
  test('no origin gets CORS headers and no preflight is answered', async () => {
    for (const origin of [ALLOWED, OTHER]) {
      const res = await preflight(without, origin);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(corsHeaders(res), []);
      const get = await without.app.inject({ method: 'GET', url: '/health', headers: { origin } });
      assert.deepEqual(corsHeaders(get), []);
    }
  });

  test('CORS adds one route only, the hidden OPTIONS * of the preflight, and only when configured', () => {
    const key = (r: RouteOptions) => `${r.method} ${r.url}`;
    const plain = new Set(routesWithout.map(key));
    const added = routesWith.filter((r) => !plain.has(key(r)));
    assert.deepEqual(added.map(key), ['OPTIONS *']);
    assert.equal((added[0]!.schema as { hide?: boolean }).hide, true, 'not an operation of the document');
    assert.ok(!routesWithout.some((r) => r.method === 'OPTIONS'));
  });
});

test('a bad CORS_ORIGINS stops start-up with exit code 2, naming the variable', () => {
  const root = join(import.meta.dirname, '..', '..', '..');
  const run = spawnSync(process.execPath, [join(root, 'src', 'main.ts')], {
    env: {
      ...process.env,
      CORS_ORIGINS: 'https://app.example.co.za/path',
      JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /CORS_ORIGINS/);
});
