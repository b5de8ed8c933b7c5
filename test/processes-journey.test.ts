// API_PROCESSES=2: `node src/main.ts` serves from two processes on one port. Both answer, a
// token one signed is good on the other, a process that dies is replaced, and SIGTERM stops
// them all. Runs on PostgreSQL only (CI's PostgreSQL run): the embedded database is one
// process's, and start-up refuses API_PROCESSES above 1 without DATABASE_URL (start-up.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { call, freePort, type RunningServer, runMain, startMain } from './support/server.ts';

const PG = process.env.DATABASE_URL;

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const ONLY_ON_PG = PG
  ? false
  : 'needs DATABASE_URL: several processes share a PostgreSQL database (CI runs it there)';

/** An empty PostgreSQL database and a data directory, both removed after the tests. */
async function freshPlace() {
  const database = await emptyPgDatabase(PG!);
  cleanups.push(database.drop);
  const dataDir = mkdtempSync(join(tmpdir(), 'bp-processes-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return { database, dataDir };
}

/** GET on a connection of its own (a new connection may go to either process). */
function getFresh(url: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The JSON log lines the processes wrote so far. */
function logLines(server: RunningServer): Array<Record<string, unknown>> {
  return server
    .output()
    .stdout.split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Pids of the serving processes that have said "serving". */
function servingPids(server: RunningServer): number[] {
  return logLines(server)
    .filter((l) => l.msg === 'serving')
    .map((l) => l.pid as number);
}

/** Pids that answered requests to `path` (a line per request). */
function answeredBy(server: RunningServer, path: string): Set<number> {
  return new Set(
    logLines(server)
      .filter((l) => l.msg === 'request completed' && (l.req as { url?: string } | undefined)?.url === path)
      .map((l) => l.pid as number),
  );
}

async function until<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('API_PROCESSES=2 serves from two processes, replaces one that dies, and stops them all on SIGTERM', {
  skip: ONLY_ON_PG,
}, async () => {
  const { database, dataDir } = await freshPlace();
  const server = await startMain({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PORT: String(await freePort()),
    API_PROCESSES: '2',
  });
  let stopped = false;
  cleanups.push(async () => {
    if (!stopped) await server.stop();
  });
  const supervisor = server.child.pid!;
  const first = await until('two serving processes', () => {
    const pids = servingPids(server);
    return pids.length === 2 ? pids : undefined;
  });
  assert.ok(!first.includes(supervisor), 'the supervisor itself does not serve');
  assert.equal(new Set(first).size, 2);

  // One process signs the token (JWT_SECRET generated once, in DATA_DIR); both accept it.
  const reg = await call(`${server.url}/auth/register`, {
    body: {
      tenantName: 'Two Processes (Pty) Ltd',
      name: 'Owner',
      email: 'owner@two-processes.example.co.za',
      password: sha256('two processes'),
    },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const companyPath = `/api/companies/${reg.body.companyId}`;
  for (let i = 0; i < 12; i++) {
    assert.equal(await getFresh(`${server.url}${companyPath}`, reg.body.accessToken), 200);
  }
  const answered = await until('the request lines', () => {
    const pids = answeredBy(server, companyPath);
    return pids.size === 2 ? pids : undefined;
  });
  assert.deepEqual([...answered].sort(), [...first].sort(), 'connections go to both processes');

  // A serving process that dies is replaced; the port keeps answering meanwhile.
  process.kill(first[0]!, 'SIGKILL');
  const replaced = await until('a replacement', () => {
    const pids = servingPids(server);
    return pids.length === 3 ? pids[2] : undefined;
  });
  assert.ok(!first.includes(replaced));
  assert.ok(
    logLines(server).some(
      (l) =>
        l.msg === 'a serving process ended; starting another' &&
        l.pid === supervisor &&
        l.worker === first[0] &&
        l.signal === 'SIGKILL',
    ),
  );
  for (let i = 0; i < 6; i++) assert.equal(await getFresh(`${server.url}/health`), 200);

  const exit = await server.stop();
  stopped = true;
  assert.equal(exit.code, 0, exit.stderr);
  for (const pid of [first[1]!, replaced]) assert.equal(isRunning(pid), false, `process ${pid} stopped`);
  const lines = logLines(server);
  assert.equal(lines.filter((l) => l.msg === 'stopped' && l.pid !== supervisor).length, 2);
  assert.ok(lines.some((l) => l.msg === 'stopped' && l.pid === supervisor));
});

test('a serving process that cannot start stops them all with a non-zero exit and the reason', {
  skip: ONLY_ON_PG,
}, async () => {
  const { database, dataDir } = await freshPlace();
  // The port is taken: every serving process fails to listen.
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = (taken.address() as { port: number }).port;
  const exit = await runMain({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PORT: String(port),
    API_PROCESSES: '2',
  });
  assert.equal(exit.code, 1, exit.stdout);
  assert.match(exit.stderr, /^Start-up failed: .*EADDRINUSE/m);
  assert.match(exit.stdout, /a serving process failed to start/);
});
