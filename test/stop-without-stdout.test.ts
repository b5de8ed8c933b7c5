// A stop finishes within its grace period whatever the state of stdout (issue 15, defect 6).
// With the reader of its stdout gone (a log collector that died, a closed terminal) the server
// used to never exit on SIGTERM: the flush of its last log lines at exit retried EPIPE forever
// (sonic-boom's flushSync), so even the force-exit timer could not fire, and servers of about
// 600 MB were left running. src/logger.ts bounds that flush.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { emptyPgDatabase } from './support/db.ts';
import { freePort, startMain } from './support/server.ts';

/** main.ts's force-exit timer: the stop's grace period. */
const GRACE_MS = 15_000;

const PG = process.env.DATABASE_URL;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bp-stop-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** SIGTERM, then the exit and how long it took; SIGKILL (and a null code) past the grace period. */
function terminate(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, ms: Date.now() - started });
    }, GRACE_MS + 5_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started });
    });
    child.kill('SIGTERM');
  });
}

test('SIGTERM with the reader of stdout gone: the server exits, within its grace period', async () => {
  const server = await startMain({ DATA_DIR: dataDir(), PORT: String(await freePort()) });
  // The reader goes while the server is idle: the next line it logs ("stopping") meets EPIPE.
  server.child.stdout!.destroy();
  const exit = await terminate(server.child);
  assert.ok(exit.code !== null, `still running ${exit.ms} ms after SIGTERM (killed)`);
  assert.equal(exit.code, 0, server.output().stderr);
  assert.ok(exit.ms < GRACE_MS, `${exit.ms} ms`);
});

test('the same after requests were logged to the gone reader', async () => {
  const server = await startMain({ DATA_DIR: dataDir(), PORT: String(await freePort()) });
  server.child.stdout!.destroy();
  for (let i = 0; i < 20; i++) assert.equal((await fetch(`${server.url}/health`)).status, 200);
  const exit = await terminate(server.child);
  assert.equal(exit.code, 0, `exit ${exit.code} after ${exit.ms} ms: ${server.output().stderr}`);
});

// Issue 35: the first log line to meet EPIPE ended the server at once (sonic-boom's `error`,
// unhandled), dropping the requests in flight. It keeps serving, its log lines given up.
test('with the reader of stdout gone the server keeps serving; a later SIGTERM stops it cleanly', async () => {
  const server = await startMain({ DATA_DIR: dataDir(), PORT: String(await freePort()) });
  server.child.stdout!.destroy();
  // Each answer is logged to the gone reader; requests at once and after a pause all answer.
  const first = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/health`)));
  assert.deepEqual(
    first.map((r) => r.status),
    Array(10).fill(200),
  );
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(server.child.exitCode, null, `exited: ${server.output().stderr}`);
  for (let i = 0; i < 10; i++) assert.equal((await fetch(`${server.url}/health`)).status, 200);
  assert.equal(server.child.exitCode, null, `exited: ${server.output().stderr}`);
  assert.match(server.output().stderr, /log lines are given up/);
  const exit = await terminate(server.child);
  assert.equal(exit.code, 0, `exit ${exit.code} after ${exit.ms} ms: ${server.output().stderr}`);
  assert.ok(exit.ms < GRACE_MS, `${exit.ms} ms`);
});

test('API_PROCESSES=2: the supervisor and its serving processes all stop with stdout gone', {
  skip: PG ? false : 'needs DATABASE_URL: several processes share a PostgreSQL database (CI runs it there)',
}, async () => {
  const database = await emptyPgDatabase(PG!);
  cleanups.push(database.drop);
  const server = await startMain({
    DATA_DIR: dataDir(),
    DATABASE_URL: database.url,
    API_PROCESSES: '2',
    PORT: String(await freePort()),
  });
  server.child.stdout!.destroy();
  const exit = await terminate(server.child);
  assert.equal(exit.code, 0, `exit ${exit.code} after ${exit.ms} ms: ${server.output().stderr}`);
});
