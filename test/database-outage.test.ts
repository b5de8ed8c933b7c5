// Fault (issue 15): PostgreSQL lost under traffic. The service reaches its database through a TCP
// proxy that drops every connection and refuses new ones for a while, as a restart does. Requests
// in flight and made meanwhile answer 503 problem details with Retry-After (no hang, no 500, no
// crash); when the database is back the service recovers by itself, with no restart, and every
// write it answered 201 is there. PostgreSQL only: the embedded database has no server to lose.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { freePort, type RunningServer, startMain } from './support/server.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

const PG = process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'bp-outage-'));
let database: Awaited<ReturnType<typeof emptyPgDatabase>> | undefined;
let proxy: TcpProxy | undefined;
let running: RunningServer | undefined;

before(async () => {
  if (!PG) return;
  database = await emptyPgDatabase(PG);
  const direct = new URL(database.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
});
after(async () => {
  if (running) running.child.kill('SIGKILL');
  await proxy?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the service answered
type Json = any;

interface Answer {
  status: number;
  body: Json;
  retryAfter: string | null;
  contentType: string | null;
  ms: number;
}

async function request(
  url: string,
  token: string,
  companyId: string,
  init: { method?: string; body?: unknown } = {},
) {
  const started = Date.now();
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      'x-company-id': companyId,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    // A hang is a failure: nothing may take longer than this.
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    retryAfter: res.headers.get('retry-after'),
    contentType: res.headers.get('content-type'),
    ms: Date.now() - started,
  } satisfies Answer;
}

describe('the database lost under traffic', {
  skip: PG ? false : 'PostgreSQL only: PGlite is in the process',
}, () => {
  test('503 problems while it is gone, recovery without a restart, every 201 kept', async () => {
    const url = database!.url.replace(/@[^/]+\//, `@127.0.0.1:${proxy!.port}/`);
    running = await startMain({ DATA_DIR: dataDir, DATABASE_URL: url, PORT: String(await freePort()) });
    const reg = await fetch(`${running.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tenantName: 'Outage Traders',
        name: 'Thandi',
        email: `outage.${Date.now()}@example.co.za`,
        password: sha256('Correct horse battery staple'),
      }),
    });
    assert.equal(reg.status, 201, await reg.clone().text());
    const r = (await reg.json()) as Json;
    const api = (path: string, init?: { method?: string; body?: unknown }) =>
      request(`${running!.url}${path}`, r.accessToken, r.companyId, init);
    const created: string[] = [];
    const write = async (i: number) => {
      const res = await api('/api/contacts', { method: 'POST', body: { name: `Customer ${i}` } });
      if (res.status === 201) created.push(res.body.id);
      return res;
    };
    assert.equal((await write(0)).status, 201);

    // Writes and reads in flight when the database goes, and more while it is gone.
    const inFlight = Array.from({ length: 20 }, (_, i) => (i % 2 ? write(i + 1) : api('/api/contacts')));
    await new Promise((res) => setTimeout(res, 20));
    proxy!.cut();
    const during = await Promise.all([...inFlight, write(100), api('/api/companies'), api('/api/contacts')]);
    for (const a of during) {
      assert.ok([200, 201, 503].includes(a.status), `answered ${a.status} ${JSON.stringify(a.body)}`);
      assert.ok(a.ms < 15_000, `an answer took ${a.ms} ms`);
      if (a.status !== 503) continue;
      assert.equal(a.contentType, 'application/problem+json; charset=utf-8');
      assert.equal(a.body.code, 'UNAVAILABLE');
      assert.equal(a.retryAfter, '5');
    }
    // The requests made after the cut cannot have reached the database.
    assert.deepEqual(
      during.slice(-3).map((a) => a.status),
      [503, 503, 503],
    );
    assert.equal(running.child.exitCode, null, 'the process is still running');

    // Back: the service recovers by itself within a few seconds.
    proxy!.restore();
    const deadline = Date.now() + 15_000;
    let back = await api('/api/contacts');
    while (back.status !== 200 && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 250));
      back = await api('/api/contacts');
    }
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await write(200)).status, 201);

    // Every contact answered 201 is there.
    const list = await api('/api/contacts?limit=200');
    const ids = new Set(list.body.items.map((c: { id: string }) => c.id));
    for (const id of created) assert.ok(ids.has(id), `contact ${id} was answered 201 and is missing`);

    const exit = await running.stop();
    running = undefined;
    assert.equal(exit.code, 0, exit.stderr);
    assert.doesNotMatch(exit.stdout, /"unhandled error"/);
  });
});
