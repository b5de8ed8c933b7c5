// Rate limits through the real app: the per-address limit on /auth/* and /external/leads,
// the per-key meter the catalogue calls for API-key calls, no headers on user tokens, and
// /diagnostics. With REDIS_URL set (CI's Redis run) the same tests count in Redis.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import { as, register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { freePort } from '../../../test/support/server.ts';
import { buildApp, wireDeps } from '../../app.ts';
import { keyToken, keyTokenFor } from '../auth/api-keys.factories.ts';
import { type AnyRoute, defineRoute } from './catalogue.ts';

const REDIS = process.env.REDIS_URL;
const WINDOW_SECONDS = 60;

/** Asserts the three rate headers and answers their values. */
function rateHeaders(res: LightMyRequestResponse, context = '') {
  const limit = Number(res.headers['x-ratelimit-limit']);
  const remaining = Number(res.headers['x-ratelimit-remaining']);
  const reset = Number(res.headers['x-ratelimit-reset']);
  for (const [name, v] of [
    ['X-RateLimit-Limit', limit],
    ['X-RateLimit-Remaining', remaining],
    ['X-RateLimit-Reset', reset],
  ] as const) {
    assert.ok(Number.isInteger(v), `${context}: ${name} missing or not a whole number (${res.statusCode})`);
  }
  assert.ok(reset >= 1 && reset <= WINDOW_SECONDS, `${context}: reset ${reset} is within the minute`);
  return { limit, remaining, reset };
}

function assertNoRateHeaders(res: LightMyRequestResponse, context: string) {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    assert.equal(res.headers[h], undefined, `${context}: unexpected ${h}`);
  }
}

/** The spec's 429: problem body with limit and retryAfterSeconds, Retry-After, the headers. */
function assertTooMany(res: LightMyRequestResponse, limit: number, context = '') {
  const body = assertProblem(res, 429, context);
  const h = rateHeaders(res, context);
  assert.equal(h.limit, limit, `${context}: X-RateLimit-Limit`);
  assert.equal(h.remaining, 0, `${context}: X-RateLimit-Remaining`);
  assert.equal(body.limit, limit, `${context}: body limit`);
  assert.equal(body.retryAfterSeconds, h.reset, `${context}: retryAfterSeconds is the reset`);
  assert.equal(res.headers['retry-after'], String(h.reset), `${context}: Retry-After`);
  return body;
}

const badLogin = (remoteAddress?: string) => ({
  method: 'POST' as const,
  url: '/auth/login',
  payload: { email: 'nobody@example.co.za', password: sha256('wrong') },
  ...(remoteAddress ? { remoteAddress } : {}),
});

// A stand-in for an /auth/ route added later: the rule is by path, so it is limited the way
// /auth/login is. (/external/leads is the real route: counted before its key is read.)
const Ok = Type.Object({ ok: Type.Boolean() });
const standIns: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/auth/test-stand-in',
    module: 'auth',
    access: 'write',
    auth: 'none',
    summary: 'Test only: a later /auth/ route',
    response: { 200: Ok },
    handler: async () => ({ ok: true }),
  }),
];

describe('the address limit on /auth/* and /external/leads', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { rateLimits: { addressPerWindow: 3 } }, extraRoutes: standIns });
  });
  after(() => t.close());

  test('/auth/login: headers on every allowed call, then 429 with the problem body and Retry-After', async () => {
    const address = '10.0.1.1';
    for (let i = 1; i <= 3; i++) {
      const res = await t.app.inject(badLogin(address));
      assert.equal(res.statusCode, 401, res.body);
      const h = rateHeaders(res, `call ${i}`);
      assert.equal(h.limit, 3);
      assert.equal(h.remaining, 3 - i);
      assert.equal(res.headers['retry-after'], undefined, 'no Retry-After while allowed');
    }
    const refused = await t.app.inject(badLogin(address));
    const body = assertTooMany(refused, 3, 'call 4');
    assert.equal(body.instance, '/auth/login');
    assert.match(String(body.detail), /3 requests a minute from this address/);
  });

  test('past the limit even a correct sign-in is refused; another address has its own budget', async () => {
    const owner = await register(t.app); // from the default address, 127.0.0.1
    const address = '10.0.1.2';
    for (let i = 0; i < 3; i++) await t.app.inject(badLogin(address));
    const right = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: owner.email, password: sha256(owner.password) },
      remoteAddress: address,
    });
    assertTooMany(right, 3, 'correct password from the spent address');

    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: owner.email, password: sha256(owner.password) },
      remoteAddress: '10.0.1.3',
    });
    assert.equal(elsewhere.statusCode, 200, elsewhere.body);
    assert.equal(rateHeaders(elsewhere, 'other address').remaining, 2);
  });

  test('every /auth/ route spends one budget, counted before authentication, later routes included', async () => {
    const address = '10.0.1.4';
    const a = await t.app.inject({ method: 'GET', url: '/auth/sessions', remoteAddress: address });
    assertProblem(a, 401, 'signed-in /auth route without a token');
    assert.equal(rateHeaders(a, 'sessions').remaining, 2);
    const b = await t.app.inject({ method: 'POST', url: '/auth/test-stand-in', remoteAddress: address });
    assert.equal(b.statusCode, 200);
    assert.equal(rateHeaders(b, 'stand-in').remaining, 1);
    await t.app.inject(badLogin(address));
    assertTooMany(
      await t.app.inject({ method: 'POST', url: '/auth/test-stand-in', remoteAddress: address }),
      3,
      'a later /auth/ route',
    );
  });

  test('the OAuth sign-in page and token endpoint spend the same budget as /auth/', async () => {
    const address = '10.0.1.6';
    const page = await t.app.inject({ method: 'GET', url: '/oauth/authorize', remoteAddress: address });
    assert.equal(page.statusCode, 400, 'no client_id: the error page');
    assert.equal(rateHeaders(page, 'sign-in page').remaining, 2);
    await t.app.inject(badLogin(address));
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code',
      remoteAddress: address,
    });
    assert.equal(token.statusCode, 401, token.body);
    assert.equal(rateHeaders(token, 'token endpoint').remaining, 0);
    assertTooMany(
      await t.app.inject({ method: 'GET', url: '/oauth/authorize', remoteAddress: address }),
      3,
      'the page past the budget',
    );
  });

  test('/external/leads has the same limit with a budget of its own', async () => {
    const address = '10.0.1.5';
    for (let i = 0; i < 3; i++) await t.app.inject(badLogin(address));
    for (let i = 1; i <= 3; i++) {
      // No key: refused (401), but counted first, as a form posting without one would be.
      const res = await t.app.inject({ method: 'POST', url: '/external/leads', remoteAddress: address });
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(rateHeaders(res, `lead ${i}`).remaining, 3 - i);
    }
    assertTooMany(
      await t.app.inject({ method: 'POST', url: '/external/leads', remoteAddress: address }),
      3,
      'lead 4',
    );
  });

  test('routes outside /auth/ and /external/leads carry no rate headers', async () => {
    assertNoRateHeaders(await t.app.inject({ method: 'GET', url: '/health' }), '/health');
  });

  test('the window rolls: once it has passed the address may call again', async () => {
    const quick = await startTestApp({ config: { rateLimits: { addressPerWindow: 1, windowMs: 1000 } } });
    try {
      assert.equal((await quick.app.inject(badLogin())).statusCode, 401);
      const refused = await quick.app.inject(badLogin());
      assertTooMany(refused, 1, 'second call in the window');
      assert.equal(refused.headers['retry-after'], '1');
      await new Promise((r) => setTimeout(r, 1100));
      const again = await quick.app.inject(badLogin());
      assert.equal(again.statusCode, 401, again.body);
      assert.equal(rateHeaders(again, 'new window').remaining, 0);
    } finally {
      await quick.close();
    }
  });

  test('the production default is 60 a minute per address', async () => {
    const prod = await startTestApp({ config: { rateLimits: {} } });
    try {
      assert.equal(prod.deps.rateLimiter.settings.addressPerWindow, 60);
      assert.equal(prod.deps.rateLimiter.settings.windowMs, 60_000);
      const res = await prod.app.inject(badLogin());
      assert.equal(rateHeaders(res, 'default').limit, 60);
    } finally {
      await prod.close();
    }
  });
});

describe('the per-key meter', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof register>>;
  before(async () => {
    t = await startTestApp();
    owner = await register(t.app, { plan: 'business' });
  });
  after(() => t.close());

  test("a key's calls carry the headers and meet a 429 past its own limit; other keys are unaffected", async () => {
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['companies:read'], rateLimitPerMinute: 3 });
    const call = as(t.app, key.token);
    for (let i = 1; i <= 3; i++) {
      const res = await call({ method: 'GET', url: '/api/companies' });
      assert.equal(res.statusCode, 200, res.body);
      const h = rateHeaders(res, `call ${i}`);
      assert.equal(h.limit, 3);
      assert.equal(h.remaining, 3 - i);
    }
    const refused = await call({ method: 'GET', url: '/api/companies' });
    const body = assertTooMany(refused, 3, 'call 4');
    assert.match(String(body.detail), /for this API key/);

    const other = await keyTokenFor(t.app, owner.token, { scopes: ['companies:read'] });
    const res = await as(t.app, other.token)({ method: 'GET', url: '/api/companies' });
    assert.equal(res.statusCode, 200, res.body);
    const h = rateHeaders(res, 'a key with the default limit');
    assert.equal(h.limit, 120, 'the default is 120 a minute');
    assert.equal(h.remaining, 119);
  });

  test('every token exchanged from one key shares its budget', async () => {
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['companies:read'], rateLimitPerMinute: 2 });
    const second = await keyToken(t.app, key.key);
    assert.equal((await as(t.app, key.token)({ method: 'GET', url: '/api/companies' })).statusCode, 200);
    assert.equal((await as(t.app, second)({ method: 'GET', url: '/api/companies' })).statusCode, 200);
    assertTooMany(
      await as(t.app, second)({ method: 'GET', url: '/api/companies' }),
      2,
      'third call, second token',
    );
  });

  test('a call the scopes refuse is not metered and carries no rate headers', async () => {
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['companies:read'], rateLimitPerMinute: 1 });
    const refused = await as(t.app, key.token)({ method: 'GET', url: '/api/users' });
    assert.equal(assertProblem(refused, 403).code, 'INSUFFICIENT_SCOPE');
    assertNoRateHeaders(refused, 'refused by scope');
    const res = await as(t.app, key.token)({ method: 'GET', url: '/api/companies' });
    assert.equal(res.statusCode, 200, 'the budget was not spent by the refused call');
  });

  test('a 429 writes nothing: the refused write rolls back', async () => {
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['companies:write'], rateLimitPerMinute: 1 });
    const write = (name: string) =>
      as(
        t.app,
        key.token,
      )({
        method: 'POST',
        url: '/api/companies',
        payload: { name },
      });
    const first = await write('Metered One');
    assert.equal(first.statusCode, 201, first.body);
    assertTooMany(await write('Metered Two'), 1, 'second write');
    const names = (await as(t.app, owner.token)({ method: 'GET', url: '/api/companies' }))
      .json()
      .map((c: { name: string }) => c.name);
    assert.ok(names.includes('Metered One'));
    assert.ok(!names.includes('Metered Two'), 'the refused write left nothing behind');
  });

  test('a signed-in user is not metered and gets no rate headers', async () => {
    const res = await as(t.app, owner.token)({ method: 'GET', url: '/api/companies' });
    assert.equal(res.statusCode, 200, res.body);
    assertNoRateHeaders(res, 'user token');
  });
});

describe('where the counters live', () => {
  test('/diagnostics says whether rate limits are shared (Redis) or per process', async () => {
    const t = await startTestApp();
    try {
      // Where the counters live is configuration detail: an administrator's token shows it.
      const { token } = await register(t.app);
      const d = (await as(t.app, token)({ method: 'GET', url: '/diagnostics' })).json();
      assert.equal(d.status, 'ok');
      if (REDIS) {
        assert.deepEqual(
          { ...d.rateLimits, note: undefined },
          {
            store: 'redis',
            shared: true,
            status: 'up',
            note: undefined,
          },
        );
      } else {
        assert.deepEqual(
          { ...d.rateLimits, note: undefined },
          {
            store: 'memory',
            shared: false,
            status: 'up',
            note: undefined,
          },
        );
        assert.match(d.rateLimits.note, /REDIS_URL is not set/);
      }
    } finally {
      await t.close();
    }
  });

  test('an unreachable REDIS_URL stops the app from starting, naming the variable', async () => {
    const t = await startTestApp();
    try {
      const deps = wireDeps({ ...t.deps, config: { ...t.deps.config, redisUrl: 'redis://127.0.0.1:1' } });
      await assert.rejects(buildApp(deps), /REDIS_URL: cannot connect to Redis/);
    } finally {
      await t.close();
    }
  });
});

describe('a Redis that goes away while serving', () => {
  // A Redis server of this test's own, so that stopping it disturbs nobody else.
  test('calls go on uncounted, /diagnostics says Redis is down; counting resumes when it is back', {
    skip: REDIS ? false : 'needs redis-server (CI installs it for its Redis run, with REDIS_URL)',
  }, async () => {
    const port = await freePort();
    const startRedis = () =>
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
    const waitFor = async (ok: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 100));
    };
    let redis = startRedis();
    const t = await (async () => {
      for (let i = 0; ; i++) {
        try {
          return await startTestApp({
            config: { redisUrl: `redis://127.0.0.1:${port}`, rateLimits: { addressPerWindow: 2 } },
          });
        } catch (e) {
          if (i > 50) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    })();
    const diagnostics = async () => (await t.app.inject({ method: 'GET', url: '/diagnostics' })).json();
    try {
      assert.equal((await t.app.inject(badLogin())).statusCode, 401);
      redis.kill('SIGKILL');
      await waitFor(async () => (await diagnostics()).rateLimits.status === 'down');
      const d = await diagnostics();
      assert.equal(d.status, 'degraded');
      assert.equal(d.rateLimits.status, 'down');
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject(badLogin());
        assert.equal(res.statusCode, 401, 'not refused while the store is away');
      }
      redis = startRedis();
      await waitFor(async () => (await diagnostics()).rateLimits.status === 'up');
      assert.equal((await diagnostics()).status, 'ok');
      // A fresh Redis: counting starts again from nothing.
      assert.equal((await t.app.inject(badLogin())).statusCode, 401);
      assert.equal((await t.app.inject(badLogin())).statusCode, 401);
      assertTooMany(await t.app.inject(badLogin()), 2, 'counted again');
    } finally {
      await t.close();
      redis.kill('SIGKILL');
    }
  });
});
