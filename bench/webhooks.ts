// The webhook section of `npm run bench`: on one target database (PGlite or PostgreSQL),
//   delivery  events emitted in tenant transactions, dispatched after their commit by the
//             emitting app's dispatcher, and delivered by two real job workers to a local HTTP
//             receiver on a listening port (WEBHOOK_ALLOW_PRIVATE_TARGETS on): a backlog drained
//             by workers started after the emitting, and emitting while the workers run (woken
//             by LISTEN/NOTIFY); every event must arrive exactly once;
//   write     what an emit adds to a write: the same catalogue route (a tenant transaction
//             inserting one row) with and without emit(), the tenant having one webhook
//             subscribed: the request writes the event row; the app's dispatcher then makes the
//             delivery row and its job, in the same process, so its cost is in the figures.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { type KyselyPlugin, sql } from 'kysely';
import pino from 'pino';
import { Type } from 'typebox';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions } from '../src/logger.ts';
import { recordAudit } from '../src/platform/audit/audit.ts';
import { type Tx, withTenant } from '../src/platform/db/tenant.ts';
import { DELIVER_QUEUE } from '../src/platform/events/deliveries.ts';
import { dispatchEvents } from '../src/platform/events/dispatch.ts';
import { emitUnchecked } from '../src/platform/events/outbox.ts';
import { type AnyRoute, defineRoute } from '../src/platform/http/catalogue.ts';
import type { AppDeps, TenantCtx } from '../src/platform/http/context.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { registerWorkers } from '../src/workers.ts';
import { sha256 } from '../test/support/app.ts';
import {
  autocannon,
  DURATION_S,
  fmt,
  listen,
  type Measure,
  ROUNDS,
  summarise,
  type Target,
  timeEach,
  WARMUP_S,
} from './support.ts';

/** Events of each delivery measurement. */
export const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 500);
/** Tenant transactions emitting at once (as concurrent requests would). */
export const EMITTERS = 10;
/** Seconds of each write measurement: shorter than the main section's, to keep the run short. */
export const WRITE_S = Number(process.env.BENCH_WRITE_SECONDS ?? Math.min(DURATION_S, 2));
/** The paced measurement: this many events, one every PACE_MS. */
const PACED_EVENTS = 100;
const PACE_MS = 25;
/** A delivery measurement that takes longer than this fails the run. */
const DELIVERY_TIMEOUT_MS = 180_000;

const PAID = {
  number: 'INV-000123',
  customer: { id: '5b0c8a4e-4a3f-4a53-9d6e-6f3b7a2c1d10', name: 'Mokoena Traders (Pty) Ltd' },
  issueDate: '2026-11-02',
  dueDate: '2026-12-02',
  currency: 'ZAR',
  totals: { subtotal: '1000.00', vat: '150.00', total: '1150.00', paid: '1150.00', balance: '0.00' },
  status: 'paid',
};

export interface Delivery {
  events: number;
  /** Seconds the emitting took (all events committed). */
  emitSeconds: number;
  /** Seconds until the receiver had every event: from the workers' start (backlog) or from the first emit (live). */
  seconds: number;
  /** Milliseconds from an event's commit to its arrival: median and 99th percentile. */
  latencyP50: number;
  latencyP99: number;
}

export interface WebhookResult {
  backlog: Delivery;
  live: Delivery;
  paced: Delivery;
  /** Statements a delivery's handler sends (load the attempt, record it), in the backlog. */
  perDelivery: number;
  rounds: Record<'write' | 'write+emit', Measure[]>;
  statements: Record<'write' | 'write+emit', number>;
  /** Median microseconds of each piece of an emit, alone, one at a time. */
  profile: Array<[string, number]>;
  /** Events written during the write measurement, each with its delivery (checked equal). */
  emitted: number;
}

/** The write both routes make: one row, as a representative tenant write (an audit entry). */
function writeRow(tx: Tx, tenantId: string, actorId: string | null = null) {
  return recordAudit(tx, tenantId, {
    actorType: 'user',
    actorId,
    action: 'POST /bench/write',
    resource: 'bench',
    resourceId: crypto.randomUUID(),
    details: { number: PAID.number },
  });
}

const write = (ctx: TenantCtx) => writeRow(ctx.db, ctx.tenantId, ctx.principal.userId ?? null);

const Answer = Type.Object({ ok: Type.Boolean() });
const benchRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/bench/write',
    module: 'platform',
    access: 'write',
    permission: null,
    summary: 'Bench: one row written in the tenant transaction',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      await write(ctx);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/bench/write-emit',
    module: 'platform',
    access: 'write',
    permission: null,
    summary: 'Bench: the same write, and an event emitted with it',
    response: { 200: Answer },
    handler: async (_input, ctx) => {
      await write(ctx);
      await emitUnchecked(ctx, 'invoice.paid', PAID);
      return { ok: true };
    },
  }),
];

/** The receiver: records each webhook-id's arrivals and answers 204 at once. */
async function startReceiver() {
  const arrivals = new Map<string, number[]>();
  let waiter: { ids: string[]; resolve: () => void } | undefined;
  const complete = (ids: string[]) => ids.every((id) => arrivals.has(id));
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const at = performance.now();
      arrivals.set(id, [...(arrivals.get(id) ?? []), at]);
      res.writeHead(204).end();
      if (waiter && complete(waiter.ids)) {
        waiter.resolve();
        waiter = undefined;
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    /** Resolves once every id has arrived; fails after DELIVERY_TIMEOUT_MS. */
    all(ids: string[]): Promise<void> {
      if (complete(ids)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const missing = ids.filter((id) => !arrivals.has(id)).length;
          reject(new Error(`webhooks: ${missing} of ${ids.length} events not delivered in time`));
        }, DELIVERY_TIMEOUT_MS);
        waiter = {
          ids,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Counts the statements a request sends through Kysely, by their results: pg-boss's job insert
 * (fromKysely) runs a compiled query, which skips the plugins' transformQuery but not
 * transformResult.
 */
function resultCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      return args.node;
    },
    async transformResult(args) {
      this.count++;
      return args.result;
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function benchWebhooks(target: Target): Promise<WebhookResult> {
  const { database } = target;
  const silent = pino({ level: 'silent' });
  const config = {
    ...loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: tmpdir() }),
    logLevel: 'silent',
    webhookAllowPrivateTargets: true,
  };
  const mailer = createMailer(undefined, config.mailFrom, silent);
  // The app only sends jobs; the worker is a second instance, started when a measurement wants it.
  const sender = createJobs({ database, log: silent, work: false });
  const deps: AppDeps = wireDeps({ config, database, mailer, jobs: sender, now: () => new Date() });
  const logger = { ...loggerOptions('info'), stream: pino.destination('/dev/null') };
  const app = await buildApp(deps, { logger, routes: benchRoutes });
  await sender.start();
  const url = await listen(app);
  const receiver = await startReceiver();

  const reg = await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenantName: 'Bench Webhooks (Pty) Ltd',
      name: 'Bench',
      email: `bench.hooks.${Date.now()}@example.co.za`,
      password: sha256('bench password'),
    }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { accessToken, tenantId, companyId } = (await reg.json()) as {
    accessToken: string;
    tenantId: string;
    companyId: string;
  };
  const auth = { authorization: `Bearer ${accessToken}` };
  const hook = await fetch(`${url}/api/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ url: receiver.url, eventTypes: ['invoice.paid'] }),
  });
  if (hook.status !== 201) throw new Error(`add webhook: ${hook.status} ${await hook.text()}`);

  /** N events, each in a tenant transaction of its own, EMITTERS at a time; answers id → commit time. */
  async function emitMany(n: number): Promise<Map<string, number>> {
    const committed = new Map<string, number>();
    let started = 0;
    await Promise.all(
      Array.from({ length: EMITTERS }, async () => {
        while (started < n) {
          started++;
          const event = await withTenant(database.db, tenantId, (tx) =>
            emitUnchecked({ db: tx, deps, tenantId, companyId }, 'invoice.paid', PAID),
          );
          committed.set(event.id, performance.now());
        }
      }),
    );
    return committed;
  }

  /** Every event arrived exactly once, and its delivery is recorded as succeeded. */
  async function verify(committed: Map<string, number>, label: string) {
    const ids = [...committed.keys()];
    const doubled = ids.filter((id) => (receiver.arrivals.get(id)?.length ?? 0) !== 1);
    if (doubled.length) throw new Error(`webhooks ${label}: ${doubled.length} events arrived more than once`);
    for (let i = 0; ; i++) {
      const rows = await withTenant(database.db, tenantId, (tx) =>
        tx
          .selectFrom('webhook_deliveries')
          .select(({ fn }) => fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('event_id', 'in', ids)
          .where('status', '=', 'succeeded')
          .executeTakeFirstOrThrow(),
      );
      if (Number(rows.n) === ids.length) return;
      if (i > 200) throw new Error(`webhooks ${label}: ${rows.n} of ${ids.length} deliveries recorded`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  function delivery(committed: Map<string, number>, from: number, emitSeconds: number): Delivery {
    const latencies: number[] = [];
    let last = 0;
    for (const [id, at] of committed) {
      const arrived = receiver.arrivals.get(id)![0]!;
      latencies.push(arrived - at);
      last = Math.max(last, arrived);
    }
    latencies.sort((a, b) => a - b);
    return {
      events: committed.size,
      emitSeconds,
      seconds: (last - from) / 1000,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
    };
  }

  // Backlog: emit everything first (the app dispatches each after its commit), then start the
  // workers and time the drain.
  let t0 = performance.now();
  const backlogEvents = await emitMany(WEBHOOK_EVENTS);
  await deps.events.drain();
  const backlogEmit = (performance.now() - t0) / 1000;
  // Two workers, as two processes would run them (each its own pg-boss, pool and listener).
  const workers = [createJobs({ database, log: silent }), createJobs({ database, log: silent })];
  // The handlers' statements are counted (pg-boss's own fetch and completion, per batch, are not).
  const handlerCounter = resultCounter();
  for (const worker of workers) {
    await registerWorkers({
      ...deps,
      database: { ...database, db: database.db.withPlugin(handlerCounter) },
      jobs: worker,
    });
  }
  const workerStarted = performance.now();
  await Promise.all(workers.map((w) => w.start()));
  await receiver.all([...backlogEvents.keys()]);
  await verify(backlogEvents, 'backlog');
  const backlog = delivery(backlogEvents, workerStarted, backlogEmit);
  const perDelivery = handlerCounter.count / backlogEvents.size;
  report(target, 'backlog drained', backlog);

  // Live: emit while the worker runs; from the first emit to the last arrival.
  t0 = performance.now();
  const liveEvents = await emitMany(WEBHOOK_EVENTS);
  const liveEmit = (performance.now() - t0) / 1000;
  await receiver.all([...liveEvents.keys()]);
  await verify(liveEvents, 'live');
  const live = delivery(liveEvents, t0, liveEmit);
  report(target, 'emitting while delivering', live);

  // Paced: one event every PACE_MS while the workers idle between them, so commit→arrival is
  // the wake-up and the delivery, not the wait behind a burst.
  const pacedEvents = new Map<string, number>();
  t0 = performance.now();
  for (let i = 0; i < PACED_EVENTS; i++) {
    const event = await withTenant(database.db, tenantId, (tx) =>
      emitUnchecked({ db: tx, deps, tenantId, companyId }, 'invoice.paid', PAID),
    );
    pacedEvents.set(event.id, performance.now());
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
  const pacedEmit = (performance.now() - t0) / 1000;
  await receiver.all([...pacedEvents.keys()]);
  await verify(pacedEvents, 'paced');
  const paced = delivery(pacedEvents, t0, pacedEmit);
  report(target, `one event every ${PACE_MS} ms`, paced);
  for (const worker of workers) await worker.stop();

  // What an emit adds to a write. The worker is off: the requests alone are measured.
  const before = await countEvents(deps, tenantId);
  const counter = resultCounter();
  const countedDeps = wireDeps({ ...deps, database: { ...database, db: database.db.withPlugin(counter) } });
  // The request's own statements only: its event is dispatched later by the app's dispatcher.
  countedDeps.events = { ...countedDeps.events, kick() {} };
  const counted = await buildApp(countedDeps, { routes: benchRoutes });
  const statements = { write: 0, 'write+emit': 0 };
  const variants = { write: '/bench/write', 'write+emit': '/bench/write-emit' } as const;
  for (const [name, path] of Object.entries(variants) as Array<[keyof typeof variants, string]>) {
    const probe = () => counted.inject({ method: 'POST', url: path, headers: auth });
    await probe();
    counter.count = 0;
    const r = await probe();
    if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${r.body}`);
    statements[name] = counter.count;
  }
  await counted.close();
  const rounds: WebhookResult['rounds'] = { write: [], 'write+emit': [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, path] of Object.entries(variants) as Array<[keyof typeof variants, string]>) {
      const post = { method: 'POST' as const, body: '{}' };
      const headers = { ...auth, 'content-type': 'application/json' };
      await autocannon(`${url}${path}`, headers, WARMUP_S, post);
      const m = await autocannon(`${url}${path}`, headers, WRITE_S, post);
      rounds[name].push(m);
      process.stdout.write(
        `${target.label} round ${round} ${name.padEnd(10)} ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms\n`,
      );
    }
  }
  // Every event of the write measurement got its delivery: both counted in one statement (one
  // snapshot), once the dispatcher has drained what requests cut off by autocannon committed.
  await new Promise((r) => setTimeout(r, 200));
  await deps.events.drain();
  const after = await countEvents(deps, tenantId);
  if (after.deliveries !== after.events) {
    throw new Error(`webhooks: ${after.deliveries} deliveries for ${after.events} events`);
  }
  const emitted = after.events - before.events;

  // Where an emit's time goes: each piece alone in a tenant transaction, one at a time. The
  // emits here leave no kick (`quiet`): the pass is timed on its own.
  const quiet: AppDeps = { ...deps, events: { ...deps.events, kick() {} } };
  const inTx = (fn: (tx: Tx) => Promise<unknown>) => () => withTenant(database.db, tenantId, fn);
  const pieces: Array<[string, () => Promise<unknown>]> = [
    ['empty tenant transaction (BEGIN with tenant and role, COMMIT)', inTx(async () => {})],
    ['the write: one row (audit entry)', inTx((tx) => writeRow(tx, tenantId))],
    [
      'the job insert alone (`jobs.sendInTx`)',
      inTx((tx) => sender.sendInTx(tx, DELIVER_QUEUE, { tenantId, deliveryId: crypto.randomUUID() })),
    ],
    [
      "the whole emit in the caller's transaction (the event row)",
      inTx((tx) => emitUnchecked({ db: tx, deps: quiet, tenantId, companyId }, 'invoice.paid', PAID)),
    ],
    [
      'the emit, then a dispatch pass of that one event (claim with its delivery rows, job)',
      async () => {
        const event = await withTenant(database.db, tenantId, (tx) =>
          emitUnchecked({ db: tx, deps: quiet, tenantId, companyId }, 'invoice.paid', PAID),
        );
        await dispatchEvents(deps, tenantId, [event.id]);
      },
    ],
  ];
  const profile: Array<[string, number]> = [];
  for (const [name, fn] of pieces) profile.push([name, await timeEach(fn, 300)]);
  for (const [name, us] of profile) process.stdout.write(`  ${us.toFixed(0).padStart(6)} µs  ${name}\n`);

  await receiver.close();
  await app.close();
  await sender.stop();
  mailer.close();
  return { backlog, live, paced, perDelivery, rounds, statements, profile, emitted };
}

/** The tenant's events and webhook deliveries, counted in one statement. */
async function countEvents(deps: AppDeps, tenantId: string): Promise<{ events: number; deliveries: number }> {
  const r = await withTenant(deps.database.db, tenantId, (tx) =>
    sql<{ events: string; deliveries: string }>`
      select (select count(*) from events where tenant_id = ${tenantId}) as events,
             (select count(*) from webhook_deliveries where tenant_id = ${tenantId}) as deliveries`.execute(
      tx,
    ),
  );
  return { events: Number(r.rows[0]!.events), deliveries: Number(r.rows[0]!.deliveries) };
}

function report(target: Target, what: string, d: Delivery) {
  process.stdout.write(
    `${target.label} webhooks ${what}: ${d.events} events in ${d.seconds.toFixed(2)} s = ${(d.events / d.seconds).toFixed(0)} events/s ` +
      `(emitting took ${d.emitSeconds.toFixed(2)} s; commit to arrival p50 ${d.latencyP50.toFixed(0)} ms, p99 ${d.latencyP99.toFixed(0)} ms)\n`,
  );
}

/** The RESULTS.md lines of one target's webhook measurements. */
export function webhookLines(r: WebhookResult): string[] {
  const write = summarise(r.rounds.write);
  const withEmit = summarise(r.rounds['write+emit']);
  const row = (name: string, d: Delivery) =>
    `| ${name} | ${d.events} | ${d.emitSeconds.toFixed(2)} | ${d.seconds.toFixed(2)} | **${fmt(d.events / d.seconds)}** | ${fmt(d.latencyP50)} | ${fmt(d.latencyP99)} |`;
  return [
    '### Webhooks',
    '',
    `Delivery by two job workers (two pg-boss instances, as two processes) to a local HTTP receiver (one webhook; ${EMITTERS} tenant transactions emitting at once; each event dispatched after its commit by the emitting app; every event arrived exactly once and its delivery is recorded as succeeded):`,
    '',
    '| measurement | events | emitting s | until all arrived s | events/s | commit→arrival p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('backlog: emitted first, then the workers started (timed from their start)', r.backlog),
    row('live: emitted while the workers run (timed from the first emit)', r.live),
    row(`paced: one event every ${PACE_MS} ms while the workers run (timed from the first emit)`, r.paced),
    '',
    `- A delivery's handler sends ${r.perDelivery.toFixed(1)} statements (two tenant transactions: load the attempt; record it and finish the delivery); pg-boss adds its fetch and its completion, once per batch of up to 8.`,
    "- In the backlog, commit→arrival includes the wait for the workers to start. Live, the delivery job's commit wakes the idle workers at once (pg-boss LISTEN/NOTIFY; polling every 10 s is only the floor), and the wait is behind the events emitted before.",
    '',
    `What an emit adds to a write (\`POST\` through the catalogue with the owner's token, ${WRITE_S} s per measurement, workers off; the app's dispatcher runs, so the delivery rows and jobs it makes after each commit are in the figures):`,
    '',
    '| variant | requests/s | p50 ms | p99 ms | per round (req/s) | round trips |',
    '|---|---:|---:|---:|---|---:|',
    `| write: one row in the tenant transaction | ${fmt(write.rps)} | ${fmt(write.p50)} | ${fmt(write.p99)} | ${r.rounds.write.map((m) => fmt(m.requestsPerSecond)).join(', ')} | ${r.statements.write} |`,
    `| write+emit: the same and \`emit()\` (the event row; the delivery row and job after commit) | ${fmt(withEmit.rps)} | ${fmt(withEmit.p50)} | ${fmt(withEmit.p99)} | ${r.rounds['write+emit'].map((m) => fmt(m.requestsPerSecond)).join(', ')} | ${r.statements['write+emit']} |`,
    '',
    `- **write+emit / write: ${(withEmit.rps / write.rps).toFixed(2)}** (${r.emitted} events written during the measurement, each dispatched with its delivery). Round trips: the request's own (its dispatch comes after its answer).`,
    '',
    "An emit's pieces, each alone in a tenant transaction, one call at a time (median of 300 calls):",
    '',
    '| piece | µs |',
    '|---|---:|',
    ...r.profile.map(([name, us]) => `| ${name} | ${us.toFixed(0)} |`),
    '',
  ];
}
