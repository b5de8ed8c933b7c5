// Two real server processes behind one imagined load balancer, counting in one Redis: the
// per-address limit on /auth/login is one budget however the calls are spread. Runs only
// with REDIS_URL (CI's Redis run sets it, with DATABASE_URL).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { call, freePort, type RunningServer, startMain } from './support/server.ts';

const REDIS = process.env.REDIS_URL;
const PG = process.env.DATABASE_URL;
const LIMIT = 60; // the production number: the processes run with no test overrides

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A failed sign-in from `address` (the service trusts X-Forwarded-For from its proxy). */
async function login(server: RunningServer, address: string) {
  const res = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email: 'nobody@example.co.za', password: sha256('not the password') }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, body };
}

test('two processes on one Redis share the per-address limit on /auth/login', {
  skip: REDIS ? false : 'needs REDIS_URL (a Redis both processes count in); CI sets it in its Redis run',
}, async () => {
  // One PostgreSQL database when there is one; embedded, each process needs its own data
  // directory (PGlite is one process's database). The sign-ins fail either way: what is
  // shared here is the counter, not the users.
  const database = PG ? await emptyPgDatabase(PG) : undefined;
  if (database) cleanups.push(database.drop);
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'bp-limits-')));
  cleanups.push(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const ports = [await freePort(), await freePort()];
  // One after the other: on an empty PostgreSQL database the first applies the migrations.
  const servers: RunningServer[] = [];
  for (const [i, port] of ports.entries()) {
    servers.push(
      await startMain({
        DATA_DIR: dirs[i],
        DATABASE_URL: database?.url,
        REDIS_URL: REDIS,
        PORT: String(port),
      }),
    );
  }
  const [one, two] = servers as [RunningServer, RunningServer];
  try {
    for (const [i, s] of servers.entries()) {
      // Where the counters live is configuration detail: an owner's token shows it. Each
      // process registers its own (embedded, each has its own database).
      const reg = await call(`${s.url}/auth/register`, {
        body: {
          tenantName: `Limits ${i}`,
          name: 'Owner',
          email: `limits.${i}.${crypto.randomUUID().slice(0, 8)}@example.co.za`,
          password: sha256(`Limits password ${i}`),
        },
      });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      const d = (await call(`${s.url}/diagnostics`, { token: reg.body.accessToken as string })).body as {
        rateLimits: { store: string; shared: boolean; status: string };
      };
      assert.equal(d.rateLimits.store, 'redis');
      assert.equal(d.rateLimits.shared, true);
      assert.equal(d.rateLimits.status, 'up');
    }
    // An address of this run's own: other runs in the same minute do not share its budget.
    const address = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    for (let i = 1; i <= LIMIT; i++) {
      const server = i % 2 ? one : two;
      const res = await login(server, address);
      assert.equal(res.status, 401, `call ${i}: ${JSON.stringify(res.body)}`);
      assert.equal(res.headers.get('x-ratelimit-limit'), String(LIMIT));
      // Remaining falls by one per call whichever process answers: one counter.
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(LIMIT - i), `call ${i}`);
    }
    for (const server of [one, two]) {
      const refused = await login(server, address);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.limit, LIMIT);
      assert.equal(refused.body.status, 429);
      assert.equal(refused.body.instance, '/auth/login');
      const retry = Number(refused.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal(refused.body.retryAfterSeconds, Number(refused.headers.get('x-ratelimit-reset')));
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    }
    // Another address still gets through on either process.
    assert.equal((await login(two, '10.255.255.254')).status, 401);
  } finally {
    const exits = await Promise.all(servers.map((s) => s.stop()));
    // Graceful stop closes the Redis connection with the app and exits 0.
    for (const exit of exits) assert.equal(exit.code, 0, exit.stderr);
  }
});
