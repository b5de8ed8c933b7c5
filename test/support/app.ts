// A real app on this file's own database, with a clock the test can move.
import { createHash } from 'node:crypto';
import { after, before } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import type { Clock } from 'pg-boss';
import pino from 'pino';
import { buildApp, type CompileSchemas, wireDeps } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { withTenant } from '../../src/platform/db/tenant.ts';
import { dnsResolver } from '../../src/platform/events/target-addresses.ts';
import { PUBLIC_V4 } from '../../src/platform/events/webhook-target.fixtures.ts';
import type { AnyRoute } from '../../src/platform/http/catalogue.ts';
import type { AppDeps } from '../../src/platform/http/context.ts';
import { createJobs } from '../../src/platform/jobs/jobs.ts';
import { createMailer } from '../../src/platform/mail/mailer.ts';
import { freshDatabase, type TestDatabase } from './db.ts';
import { startDnsServer } from './dns-server.ts';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface TestClock {
  now(): Date;
  set(d: Date | string): void;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  let fixed: Date | undefined;
  return {
    now: () => (fixed ? new Date(fixed.getTime() + offset) : new Date(Date.now() + offset)),
    set: (d) => {
      fixed = new Date(d);
      offset = 0;
    },
    advance: (ms) => {
      offset += ms;
    },
  };
}

const EXAMPLE_DOMAIN = /(^|\.)example\.(com|net|org)\.?$/i;

/** A Redis key prefix of one test app's own. */
export function testRedisPrefix(): string {
  return `bp-test:${process.pid}:${crypto.randomUUID()}:`;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  database: TestDatabase;
  clock: TestClock;
  /**
   * Makes the deliveries of every event committed so far (the dispatcher does it right after
   * each commit, but not before the request's answer): call it before reading deliveries.
   */
  drainEvents(): Promise<void>;
  /**
   * Drains the outbox, then waits until every webhook delivery of the tenant has finished
   * (none `pending`): from then on nothing more arrives at a receiver unless something new is
   * emitted. Tests prove "delivered once" with it, not with a fixed sleep.
   */
  deliveriesSettled(tenantId: string): Promise<void>;
  close(): Promise<void>;
}

/** What startTestApp takes. */
export type TestAppOptions = NonNullable<Parameters<typeof startTestApp>[0]>;

/**
 * The preamble of a test file in one line: a test app started before the file's tests and
 * closed after them. Its fields are read when a test runs (before then they do not exist).
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let started: TestApp | undefined;
  before(async () => {
    started = await startTestApp(options);
  });
  after(() => started?.close());
  return new Proxy({} as TestApp, {
    get(_, field) {
      if (!started) throw new Error(`the test app is started in before(): read t.${String(field)} in a test`);
      return Reflect.get(started, field);
    },
  });
}

export async function startTestApp(
  options: {
    config?: Partial<Config>;
    database?: TestDatabase;
    /** Routes only this test needs (e.g. one that throws), registered after the catalogue. */
    extraRoutes?: AnyRoute[];
    /** Sees every route Fastify registers. */
    onRoute?: (route: RouteOptions) => void;
    /** The job worker's clock (a pg-boss TestClock to move time); real time by default. */
    jobsClock?: Clock;
    /** false: jobs are sent but never run (nothing is delivered anywhere). */
    jobsWork?: boolean;
    /** 'on-first-use' unless given: a test file calls a few of the ~400 routes (lazy-compilers.ts). */
    compileSchemas?: CompileSchemas;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const config: Config = {
    ...loadConfig({
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      DATA_DIR: '/tmp/bp-test-data',
      // A fixed key (32 bytes, hex): nothing is generated into DATA_DIR by a test.
      SECRETS_KEY: `test:${'7e'.repeat(32)}`,
      // Set for the rate-limit run of CI: these apps then count in that Redis.
      REDIS_URL: process.env.REDIS_URL,
    }),
    ...options.config,
    // Every inject comes from one address: tests of other things must not meet the address
    // limit. A test that sets `rateLimits` gets the production numbers it leaves out. Each
    // app counts under its own Redis prefix, so parallel files do not share counters.
    rateLimits: {
      redisPrefix: testRedisPrefix(),
      ...(options.config?.rateLimits ?? { addressPerWindow: 1_000_000 }),
    },
  };
  const log = pino({ level: 'silent' });
  const mailer = createMailer(config.smtpUrl, config.mailFrom, log);
  const clock = testClock();
  // The internet's name servers are out of reach: a local one answers for the example
  // domains (a public address), so webhook addresses in examples pass the real DNS path.
  const dns = await startDnsServer(({ name }) => (EXAMPLE_DOMAIN.test(name) ? [PUBLIC_V4] : undefined));
  const jobs = createJobs({
    database,
    log,
    poolSize: 2,
    ...(options.jobsClock ? { clock: options.jobsClock } : {}),
    ...(options.jobsWork === false ? { work: false } : {}),
  });
  const deps = wireDeps({
    config,
    database,
    mailer,
    jobs,
    now: clock.now,
    resolveHost: dnsResolver(dns.resolver()),
  });
  let built: FastifyInstance | undefined;
  try {
    built = await buildApp(deps, {
      routes: options.extraRoutes,
      onRoute: options.onRoute,
      compileSchemas: options.compileSchemas ?? 'on-first-use',
    });
    await built.ready();
    // The job schema is in the test snapshot, so starting is a version check.
    await jobs.start();
  } catch (err) {
    // A failed start (e.g. an unreachable REDIS_URL) must not leave the database open and
    // the test file hanging.
    await jobs.stop().catch(() => {});
    await built?.close().catch(() => {});
    mailer.close();
    await dns.close();
    if (!options.database) await database.close();
    throw err;
  }
  const app = built;
  return {
    app,
    deps,
    database,
    clock,
    async drainEvents() {
      await deps.events.drain();
    },
    async deliveriesSettled(tenantId) {
      await deps.events.drain();
      const pending = async () =>
        (
          await withTenant(database.db, tenantId, (tx) =>
            tx
              .selectFrom('webhook_deliveries')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('tenant_id', '=', tenantId)
              .where('status', '=', 'pending')
              .executeTakeFirstOrThrow(),
          )
        ).n;
      for (const started = Date.now(); Number(await pending()) > 0; ) {
        if (Date.now() - started > 30_000) throw new Error('webhook deliveries still pending after 30 s');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      await jobs.stopWorking();
      await app.close();
      await jobs.stop();
      mailer.close();
      await dns.close();
      await database.close();
    },
  };
}

export interface Registered {
  token: string;
  refreshToken: string;
  tenantId: string;
  userId: string;
  companyId: string;
  email: string;
  password: string;
}

let counter = 0;

export async function register(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<Registered> {
  counter++;
  const password = `Correct horse ${counter} ${Math.random()}`;
  const email = `owner${counter}.${Math.random().toString(36).slice(2, 8)}@example.co.za`;
  const res = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: {
      tenantName: `Tenant ${counter}`,
      name: 'Owner',
      email,
      password: sha256(password),
      ...overrides,
    },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const b = res.json();
  return {
    token: b.accessToken,
    refreshToken: b.refreshToken,
    tenantId: b.tenantId,
    userId: b.userId,
    companyId: b.companyId,
    email: (overrides.email as string) ?? email,
    password,
  };
}

/** app.inject with a bearer token (and company header) filled in. */
export function as(app: FastifyInstance, token: string, companyId?: string) {
  return (opts: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({
      ...opts,
      headers: {
        authorization: `Bearer ${token}`,
        ...(companyId ? { 'x-company-id': companyId } : {}),
        ...(opts.headers ?? {}),
      },
    });
}
