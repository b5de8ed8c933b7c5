// The durable job worker: pg-boss 12 on the service's own database. Embedded, it runs
// in-process through the PGlite lease; on PostgreSQL it has a small pool of its own, and
// any number of processes share the job table (pg-boss claims with FOR UPDATE SKIP LOCKED,
// so no job runs twice). Queues are declared by register(); a process with `work: false`
// declares and sends but leaves the running to others.
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { type Clock, fromKysely, type JobResult, type JobWithMetadata, PgBoss, TestClock } from 'pg-boss';
import type { Database } from '../db/connect.ts';
import type { Tx } from '../db/tenant.ts';
import { grantSending, JOB_SCHEMA } from './grants.ts';
import { pgliteThroughLease } from './pglite-adapter.ts';
import { type JobCounts, type JobView, jobCounts, jobState } from './read.ts';
import { queueRetryOptions, type RetryPolicy, retryDelayAfter } from './retry.ts';

export type { JobCounts, JobView } from './read.ts';
export type { RetryPolicy } from './retry.ts';

export interface JobContext<T> {
  id: string;
  name: string;
  data: T;
  /** 1 on the first run, 2 on the first retry, ... */
  attempt: number;
}

export type JobHandler<T> = (job: JobContext<T>) => Promise<void>;

/** Thrown by a handler: the job fails now, whatever retries are left (a webhook's 410). */
export class FinalFailure extends Error {}

export interface RegisterOptions {
  retry?: RetryPolicy;
  /** Jobs of this queue this process runs at once (default 1). */
  concurrency?: number;
  /** A run longer than this counts as failed and is retried (default 15 minutes). */
  expireInSeconds?: number;
  /**
   * pg-boss's queue policy, fixed when the queue is first created: 'standard' (the default) or
   * 'exclusive', where at most one job per singletonKey is queued, waiting to retry or running
   * (a second send with that key answers null).
   */
  policy?: 'standard' | 'exclusive';
  /**
   * How long a job may wait (queued or between retries) past its run time before pg-boss deletes
   * it unrun (default 14 days). A queue whose jobs must survive a long outage sets more.
   */
  retentionSeconds?: number;
  /**
   * The queue also gets a job on this calendar (cron, UTC), with empty data: a daily purge.
   * Declared with the queue (schedules need a started worker and an existing queue).
   */
  cron?: string;
  /**
   * Wake this queue's workers, in every process, the moment a job is queued (pg-boss's
   * LISTEN/NOTIFY, sent with the job's commit) instead of at their next poll. Polling stays on
   * as the floor when the listener is down.
   */
  notify?: boolean;
}

export interface SendOptions {
  /** Run no earlier than this: a time, or seconds from now (the injected clock's now). */
  startAfter?: Date | number;
  /**
   * On an 'exclusive' queue, at most one job with this key is queued or running; a second send
   * answers null. On a 'standard' queue it is recorded and does not deduplicate.
   */
  singletonKey?: string;
}

export interface JobsStatus {
  started: boolean;
  /** This process runs jobs (not only sends them). */
  working: boolean;
  queues: string[];
}

export interface Jobs {
  start(): Promise<void>;
  /** Stops fetching and waits for handlers in flight; sending keeps working. */
  stopWorking(): Promise<void>;
  /** stopWorking, then closes pg-boss (its pool on PostgreSQL). */
  stop(): Promise<void>;
  /** Declares a queue and (in a working process) runs `handler` for its jobs. */
  register<T extends object>(name: string, handler: JobHandler<T>, options?: RegisterOptions): Promise<void>;
  /**
   * Enqueues outside any transaction. Never call it from inside a request on the embedded
   * database: it waits for the connection the request holds. Use sendInTx there.
   */
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Enqueues inside the caller's transaction (a request's, as bp_app): it exists iff that commits. */
  sendInTx(tx: Tx, name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Many jobs of one queue in one statement, inside the caller's transaction. */
  sendManyInTx(tx: Tx, name: string, data: object[]): Promise<void>;
  /** A job created on a calendar (cron, in `tz`, UTC by default); one schedule per name and key. */
  schedule(name: string, cron: string, data?: object, options?: { tz?: string; key?: string }): Promise<void>;
  unschedule(name: string, key?: string): Promise<void>;
  /** One job's state, or null if there is no such job. */
  job(name: string, id: string): Promise<JobView | null>;
  /** How many jobs of a queue are in each state. */
  counts(name: string): Promise<JobCounts>;
  status(): JobsStatus;
}

export interface JobsOptions {
  database: Database;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  /** pg-boss's clock; tests pass a pg-boss TestClock and move it. */
  clock?: Clock;
  /** false: declare queues and send, but run no jobs here. */
  work?: boolean;
  /** How often an idle worker looks for jobs (seconds, default 2). */
  pollingIntervalSeconds?: number;
  /** pg-boss's pool size on PostgreSQL (default 3). */
  poolSize?: number;
}

interface Registration {
  handler: JobHandler<object>;
  options: RegisterOptions;
}

/** An id no job has: the target of the update that warms pg-boss's queue cache. */
const NO_JOB = '00000000-0000-0000-0000-000000000000';

export function createJobs(options: JobsOptions): Jobs {
  const { database, log } = options;
  const working = options.work ?? true;
  const polling = options.pollingIntervalSeconds ?? 2;
  const clock = options.clock;
  const now = () => (clock ? clock.now() : Date.now());
  const boss = new PgBoss({
    ...(database.kind === 'pglite'
      ? { db: pgliteThroughLease(database.pglite!, database.db), backend: 'pglite' as const }
      : { connectionString: requireUrl(database.url), max: options.poolSize ?? 3 }),
    schema: JOB_SCHEMA,
    ...(clock ? { clock } : {}),
    // Maintenance (expiry, retention) runs in every working process; pg-boss takes turns
    // through a row lock, so several processes do not repeat it.
    supervise: working,
    schedule: working,
    // Monitoring warnings (slow queries, backlog) go to our log, not to stdout.
    persistWarnings: false,
    // Workers of `notify` queues wake on the NOTIFY a job's insert sends at commit (one
    // listening connection per process; pglite-adapter.ts listens on the embedded session).
    useListenNotify: working,
  });
  // The message and code only: pg's errors carry the whole client (connection settings included).
  boss.on('error', (err: Error & { code?: string }) =>
    log.error({ err: { message: err.message, code: err.code } }, 'job worker error'),
  );
  boss.on('warning', (w) => log.warn({ warning: w.message, data: w.data }, 'job worker warning'));

  const registrations = new Map<string, Registration>();
  let started = false;
  let workersOn = false;

  async function declare(name: string, reg: Registration) {
    const queue = {
      ...queueRetryOptions(reg.options.retry),
      expireInSeconds: reg.options.expireInSeconds ?? 900,
      notify: reg.options.notify ?? false,
      ...(reg.options.retentionSeconds ? { retentionSeconds: reg.options.retentionSeconds } : {}),
    };
    // The policy is the queue's for life: pg-boss cannot change it on an existing queue.
    if (await boss.getQueue(name)) await boss.updateQueue(name, queue);
    else await boss.createQueue(name, { ...queue, policy: reg.options.policy ?? 'standard' });
    // pg-boss caches each queue's table from a read at start, before our queues exist; a later
    // miss reads outside the caller's transaction, and on PGlite that waits for the very
    // connection a request holds (sendInTx would never answer). Touching the queue once here,
    // by updating no job, puts it in the cache.
    await boss.update(name, null, { id: NO_JOB });
    // Upserted by name: every process may declare it, one job per tick is created.
    if (reg.options.cron) await boss.schedule(name, reg.options.cron, {}, { tz: 'UTC' });
    if (!working) return;
    const concurrency = reg.options.concurrency ?? 1;
    await boss.work<object>(
      name,
      {
        includeMetadata: true,
        perJobResults: true,
        // One fetch claims up to `concurrency` jobs (at least two: pg-boss bursts only on a
        // full batch larger than one), so a backlog drains back to back and the polling
        // interval applies only when the queue runs dry.
        batchSize: Math.max(2, concurrency),
        burstWhenBatchFull: true,
        pollingIntervalSeconds: polling,
        // With the listener up, polling is only the floor under a lost notification.
        notifyPollingIntervalSeconds: Math.max(polling, 10),
      },
      async (batch) => {
        const jobs = batch as JobWithMetadata<object>[];
        if (concurrency > 1) return Promise.all(jobs.map((job) => runOne(name, job, reg)));
        const results: JobResult[] = [];
        for (const job of jobs) results.push(await runOne(name, job, reg));
        return results;
      },
    );
    workersOn = true;
  }

  async function runOne(name: string, job: JobWithMetadata<object>, reg: Registration): Promise<JobResult> {
    try {
      await reg.handler({ id: job.id, name, data: job.data, attempt: job.retryCount + 1 });
      return { id: job.id, status: 'completed' };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ job: name, id: job.id, attempt: job.retryCount + 1, err: message }, 'job failed');
      if (err instanceof FinalFailure) return { id: job.id, status: 'deadletter', output: { message } };
      // An explicit schedule sets this retry's delay before pg-boss reads it to fail the job.
      const delay = retryDelayAfter(reg.options.retry, job.retryCount);
      if (delay !== undefined) {
        await boss
          .getDb()
          .executeSql(`update ${JOB_SCHEMA}.job set retry_delay = $3 where name = $1 and id = $2`, [
            name,
            job.id,
            delay,
          ]);
      }
      return { id: job.id, status: 'failed', output: { message } };
    }
  }

  function sendOptions(o: SendOptions = {}) {
    return {
      // Absolute, from our clock: a request's transaction (sendInTx) must not read the
      // database's clock, which a test clock does not move on request connections.
      ...(o.startAfter !== undefined
        ? {
            startAfter:
              typeof o.startAfter === 'number' ? new Date(now() + o.startAfter * 1000) : o.startAfter,
          }
        : {}),
      ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
    };
  }

  return {
    async start() {
      if (started) return;
      // Creates or migrates pg-boss's schema under its own advisory lock, as the login role.
      await boss.start();
      await grantSending(boss.getDb(), clock instanceof TestClock);
      started = true;
      for (const [name, reg] of registrations) await declare(name, reg);
    },
    async stopWorking() {
      if (!workersOn) return;
      workersOn = false;
      // wait: handlers in flight finish before this answers.
      await Promise.all([...registrations.keys()].map((n) => boss.offWork(n, { wait: true })));
    },
    async stop() {
      await this.stopWorking();
      if (!started) return;
      started = false;
      // close: pg-boss closes only a pool it opened (PostgreSQL); PGlite is the database's.
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
    async register(name, handler, opts = {}) {
      const reg = { handler: handler as JobHandler<object>, options: opts };
      registrations.set(name, reg);
      if (started) await declare(name, reg);
    },
    send(name, data, o) {
      return boss.send(name, data, sendOptions(o));
    },
    async sendInTx(tx, name, data, o) {
      // A test clock reads the database's time only on sessions that opted in.
      if (clock instanceof TestClock)
        await sql`select set_config('pgboss.test_clock', 'on', true)`.execute(tx);
      return boss.send(name, data, { ...sendOptions(o), db: fromKysely(tx) });
    },
    async sendManyInTx(tx, name, data) {
      if (!data.length) return;
      if (clock instanceof TestClock)
        await sql`select set_config('pgboss.test_clock', 'on', true)`.execute(tx);
      await boss.insert(
        name,
        data.map((d) => ({ data: d })),
        { db: fromKysely(tx) },
      );
    },
    async schedule(name, cron, data = {}, o = {}) {
      await boss.schedule(name, cron, data, { tz: o.tz ?? 'UTC', ...(o.key ? { key: o.key } : {}) });
    },
    async unschedule(name, key) {
      await boss.unschedule(name, key);
    },
    job: (name, id) => jobState(boss.getDb(), name, id),
    counts: (name) => jobCounts(boss.getDb(), name),
    status: () => ({ started, working: working && workersOn, queues: [...registrations.keys()] }),
  };
}

// pg-boss's own pool connects with the same URL: the login role, not bp_app.
function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('createJobs: a PostgreSQL database without its url');
  return url;
}
