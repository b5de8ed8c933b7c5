// Two worker processes on one PostgreSQL share the job table: 1,000 jobs, each run exactly
// once. pg-boss claims with FOR UPDATE SKIP LOCKED; this proves it end to end.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '../../../test/support/db.ts';
import { createJobs } from './jobs.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const JOBS = 1000;
const children: ChildProcess[] = [];
let database: TestDatabase | undefined;

after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await database?.close();
});

function startWorker(url: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, JOB_DATABASE_URL: url };
  delete env.NODE_TEST_CONTEXT; // else the child thinks it is a test file
  const child = spawn(process.execPath, ['test/support/job-worker.ts'], { cwd: ROOT, env });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      if (String(d).includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}) before ready: ${err}`)));
  });
}

test('two worker processes run 1,000 jobs: none lost, none run twice', {
  skip: process.env.DATABASE_URL
    ? false
    : 'needs DATABASE_URL: several processes share one PostgreSQL (the embedded database is one process)',
}, async () => {
  database = await freshDatabase();
  const url = database.url!;
  await sql`create table job_runs (job_id uuid not null, n int not null, pid int not null)`.execute(
    database.db,
  );
  // This process only enqueues; it declares the queue the workers run.
  const sender = createJobs({ database, log: { error() {}, warn() {}, info() {} }, work: false });
  await sender.register('count', async () => {});
  await sender.start();
  try {
    const workers = await Promise.all([startWorker(url), startWorker(url)]);
    for (let i = 0; i < JOBS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, k) => sender.send('count', { n: i + k })));
    }
    const deadline = Date.now() + 90_000;
    for (;;) {
      const c = await sender.counts('count');
      if (c.completed === JOBS) break;
      assert.ok(Date.now() < deadline, `not done in time: ${JSON.stringify(c)}`);
      await sleep(250);
    }
    // Both workers stop (each finishes what it holds) before the runs are counted: a job run a
    // second time would have had to be held by one of them, so nothing more can run after.
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(
      workers.map((w) => new Promise((r) => (w.exitCode === null ? w.on('exit', r) : r(null)))),
    );
    assert.deepEqual(
      workers.map((w) => w.exitCode),
      [0, 0],
    );
    const runs = await sql<{ runs: number; jobs: number; ns: number }>`
        select count(*)::int as runs, count(distinct job_id)::int as jobs, count(distinct n)::int as ns from job_runs`.execute(
      database.db,
    );
    assert.deepEqual(runs.rows[0], { runs: JOBS, jobs: JOBS, ns: JOBS });
    const byPid = await sql<{ pid: number; n: number }>`
        select pid, count(*)::int as n from job_runs group by pid`.execute(database.db);
    assert.equal(byPid.rows.length, 2, `both processes worked: ${JSON.stringify(byPid.rows)}`);
    const c = await sender.counts('count');
    assert.equal(c.failed + c.retry + c.active + c.created, 0);
  } finally {
    await sender.stop();
  }
});
