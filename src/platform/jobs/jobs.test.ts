// The job worker on this file's own database, with pg-boss's TestClock: time moves only
// when the test moves it, in JavaScript and in the database alike.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { TestClock } from 'pg-boss';
import { freshDatabase, type TestDatabase } from '../../../test/support/db.ts';
import { withTenant } from '../db/tenant.ts';
import { createJobs, FinalFailure, type Jobs } from './jobs.ts';

const START = new Date('2026-01-31T12:00:00Z'); // time only moves forward from here
const TENANT = '00000000-0000-4000-8000-000000000001';
const quiet = { error() {}, warn() {}, info() {} };

let database: TestDatabase;
let clock: TestClock;
let jobs: Jobs;

before(async () => {
  database = await freshDatabase();
  clock = new TestClock(START);
  jobs = createJobs({ database, log: quiet, clock, pollingIntervalSeconds: 1 });
  await jobs.start();
});
after(async () => {
  await jobs.stop();
  await database.close();
});

/** Handlers run after the poll that fetched them settles: wait (real time) for their effect. */
async function eventually<T>(what: string, fn: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v) return v;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Moves the clock to `at` and lets the worker poll there. */
async function moveTo(at: Date | number) {
  await clock.setTime(at);
  await clock.tick(1500);
}

const at = (ms: number) => new Date(clock.now() + ms);

test('a job runs at its run-at time, not before', async () => {
  const ran: number[] = [];
  await jobs.register('runat', async () => {
    ran.push(clock.now());
  });
  const runAt = at(3600_000);
  const id = await jobs.send('runat', { n: 1 }, { startAfter: runAt });
  assert.ok(id);
  await clock.tick(5000);
  await moveTo(runAt.getTime() - 60_000);
  assert.equal(ran.length, 0, 'ran before its time');
  assert.equal((await jobs.job('runat', id))?.state, 'created');

  await moveTo(runAt);
  const done = await eventually('completion', async () => {
    const j = await jobs.job('runat', id);
    return j?.state === 'completed' && j;
  });
  assert.equal(ran.length, 1);
  assert.ok(ran[0]! >= runAt.getTime());
  assert.equal(done.attempts, 1);

  // Seconds from now count on the injected clock.
  const id2 = await jobs.send('runat', { n: 2 }, { startAfter: 600 });
  assert.equal((await jobs.job('runat', id2!))?.startAfter.getTime(), clock.now() + 600_000);
});

test('retries follow the explicit schedule, then the job ends failed', async () => {
  const schedule = [0, 60, 300];
  const attempts: Array<{ attempt: number; at: number }> = [];
  await jobs.register(
    'flaky',
    async (job) => {
      attempts.push({ attempt: job.attempt, at: clock.now() });
      throw new Error(`attempt ${job.attempt} failed`);
    },
    { retry: { schedule } },
  );
  const id = (await jobs.send('flaky', {}))!;
  const firstAt = clock.now();
  for (let retry = 0; retry <= schedule.length; retry++) {
    // Run `retry` + 1 has failed: the job waits exactly the schedule's delay.
    await clock.tick(1500);
    await eventually(`attempt ${retry + 1}`, async () => attempts.length === retry + 1);
    const j = await eventually('the failure recorded', async () => {
      const v = await jobs.job('flaky', id);
      return v && v.state !== 'active' && v;
    });
    if (retry === schedule.length) break;
    assert.equal(j.state, 'retry');
    const delay = schedule[retry]! * 1000;
    assert.ok(
      Math.abs(j.startAfter.getTime() - (attempts[retry]!.at + delay)) < 1000,
      `retry ${retry + 1} due ${delay} ms after attempt ${retry + 1}`,
    );
    if (delay > 0) {
      await moveTo(j.startAfter.getTime() - 5000);
      assert.equal(attempts.length, retry + 1, 'retried before its delay');
      await clock.setTime(j.startAfter);
    }
  }
  const final = await eventually('failed', async () => {
    const v = await jobs.job('flaky', id);
    return v?.state === 'failed' && v;
  });
  assert.deepEqual(
    attempts.map((a) => a.attempt),
    [1, 2, 3, 4],
  );
  assert.equal(final.attempts, 4);
  assert.match(JSON.stringify(final.output), /attempt 4 failed/);
  assert.ok(attempts[3]!.at - firstAt >= 360_000);
  // Nothing more happens, however long we wait.
  await moveTo(at(86_400_000));
  assert.equal(attempts.length, 4);
});

test("pg-boss's own limit and delay also apply", async () => {
  let runs = 0;
  await jobs.register(
    'limited',
    async () => {
      runs++;
      throw new Error('no');
    },
    { retry: { limit: 1, delaySeconds: 30 } },
  );
  const id = (await jobs.send('limited', {}))!;
  await clock.tick(1500);
  const j = await eventually('retry', async () => {
    const v = await jobs.job('limited', id);
    return v?.state === 'retry' && v;
  });
  assert.ok(Math.abs(j.startAfter.getTime() - (clock.now() + 30_000)) <= 2000, 'due 30 s after the failure');
  await moveTo(j.startAfter);
  await eventually('failed', async () => (await jobs.job('limited', id))?.state === 'failed');
  assert.equal(runs, 2);
});

test('a FinalFailure ends the job at once, retries or not', async () => {
  let runs = 0;
  await jobs.register(
    'gone',
    async () => {
      runs++;
      throw new FinalFailure('410 Gone');
    },
    { retry: { schedule: [0, 0, 60] } },
  );
  const id = (await jobs.send('gone', {}))!;
  await clock.tick(1500);
  const j = await eventually('failed', async () => {
    const v = await jobs.job('gone', id);
    return v?.state === 'failed' && v;
  });
  await moveTo(at(120_000));
  assert.equal(runs, 1);
  assert.equal(j.attempts, 1);
});

test('a cron schedule fires on the calendar: the first of the month, once', async () => {
  const fired: number[] = [];
  await jobs.register('monthly', async () => {
    fired.push(clock.now());
  });
  await jobs.schedule('monthly', '0 0 1 * *', { report: 'vat' });
  // The clock only moves forward here: earlier tests left it on 1 February.
  assert.ok(clock.now() < Date.parse('2026-02-28T23:58:00Z'));
  await moveTo(new Date('2026-02-28T23:58:00Z'));
  for (let i = 0; i < 4; i++) await clock.tick(30_000); // past midnight
  await moveTo(new Date('2026-03-01T00:05:00Z'));
  await eventually('the monthly job', async () => fired.length === 1);
  assert.ok(fired[0]! >= Date.parse('2026-03-01T00:00:00Z'));
  // The rest of March: nothing more.
  await moveTo(new Date('2026-03-15T00:00:00Z'));
  await moveTo(new Date('2026-03-31T23:00:00Z'));
  await sleep(100);
  assert.equal(fired.length, 1);
  await jobs.unschedule('monthly');
});

test('counts by state are visible', async () => {
  await jobs.register('visible', async () => {});
  const later = at(86_400_000);
  await jobs.send('visible', {}, { startAfter: later });
  await jobs.send('visible', {}, { startAfter: later });
  assert.deepEqual(await jobs.counts('visible'), {
    created: 2,
    retry: 0,
    active: 0,
    completed: 0,
    cancelled: 0,
    failed: 0,
  });
  await moveTo(later);
  await eventually('both done', async () => (await jobs.counts('visible')).completed === 2);
  assert.equal(await jobs.job('visible', crypto.randomUUID()), null);
  assert.deepEqual(jobs.status(), {
    started: true,
    working: true,
    queues: ['runat', 'flaky', 'limited', 'gone', 'monthly', 'visible'],
  });
});

test("a job sent in a request's transaction exists only if it commits (as bp_app)", async () => {
  const seen: string[] = [];
  await jobs.register('outbox', async (job) => {
    seen.push((job.data as { tag: string }).tag);
  });
  await assert.rejects(
    withTenant(database.db, TENANT, async (tx) => {
      const id = await jobs.sendInTx(tx, 'outbox', { tag: 'rolled back' });
      assert.ok(id);
      throw new Error('the request failed');
    }),
    /the request failed/,
  );
  const kept = await withTenant(database.db, TENANT, async (tx) => {
    const role = await sql<{ r: string }>`select current_user as r`.execute(tx);
    assert.equal(role.rows[0]?.r, 'bp_app');
    return jobs.sendInTx(tx, 'outbox', { tag: 'committed' }, { startAfter: 60 });
  });
  assert.ok(kept);
  assert.equal((await jobs.job('outbox', kept))?.state, 'created');
  await moveTo(at(61_000));
  await eventually('the committed job', async () => seen.length === 1);
  await moveTo(at(60_000));
  assert.deepEqual(seen, ['committed']);
  assert.equal((await jobs.counts('outbox')).completed, 1);
});

test('bp_app may enqueue but not read, change or delete jobs', async () => {
  for (const statement of [
    'select data from pgboss.job limit 1',
    'update pgboss.job set priority = 1',
    'delete from pgboss.job',
  ]) {
    await assert.rejects(
      withTenant(database.db, TENANT, (tx) => sql.raw(statement).execute(tx)),
      /permission denied/,
      statement,
    );
  }
});

test('embedded: jobs and requests share the one connection without waiting on each other for ever', async () => {
  let done = 0;
  await jobs.register(
    'busy',
    async () => {
      // A handler opens its own tenant transaction, as delivery will.
      await withTenant(database.db, TENANT, (tx) => sql`select pg_sleep(0.005)`.execute(tx));
      done++;
    },
    { concurrency: 4 },
  );
  for (let i = 0; i < 20; i++) await jobs.send('busy', { i });
  const requests = Array.from({ length: 20 }, () =>
    withTenant(database.db, TENANT, async (tx) => {
      await sql`select pg_sleep(0.005)`.execute(tx);
      return jobs.sendInTx(tx, 'busy', {});
    }),
  );
  const ticking = (async () => {
    for (let i = 0; i < 20 && done < 40; i++) await clock.tick(1000);
  })();
  await Promise.all(requests);
  await ticking;
  await eventually('all 40 jobs', async () => {
    if (done < 40) await clock.tick(1000);
    return done === 40;
  });
});
