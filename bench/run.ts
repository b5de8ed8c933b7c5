// `npm run bench`: what the platform's request path costs, measured against the bare minimum,
// what webhooks cost and deliver (bench/webhooks.ts), and on PostgreSQL what the sales-document
// routes serve against pgbench running their statements (bench/invoices.ts).
//
// On the embedded database (PGlite), and on PostgreSQL when DATABASE_URL is set (as for the
// tests: a login role that may create databases), this starts the real app on a fresh
// database, listening on a local port, registers a tenant, and loads
// GET /api/companies/{id} with the user's token. Against it, on the same database:
//   floor   a bare Fastify route running only `select * from companies where tenant_id=$1
//           and id=$2`, one statement, no transaction;
//   bare+tx the same SELECT inside the minimum row-level security asks for (BEGIN, set the
//           tenant and role, SELECT, COMMIT) — what every request of the platform pays;
//   platform the real route: JWT check, principal and role, tenant transaction, schema
//           serialisation.
// And the same request as an integration makes it, with the token exchanged from an API key,
// so that the rate limiter's per-key meter counts every call:
//   key      counters in this process's memory (the default);
//   key+redis counters in Redis (REDIS_URL; skipped without it), on a second app.
// Then "Reports at scale" (bench/reports.ts): the trial balance and the income statement of a
// company of 10 000 journal lines against one of 1 000 000 (100 000 on PGlite by default).
// Variants run back to back, interleaved over two rounds, each with the same connections and
// duration; the load generator (autocannon) runs in its own process. Then, on the same
// database, the webhook measurements (delivery throughput; a write with and without emit).
// On PostgreSQL, last, the sales documents against pgbench (bench/invoices.ts).
// Results: bench/RESULTS.md.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { findCompany } from '../src/modules/companies/companies.queries.ts';
import { type PrincipalRow, principalFromRow, principalQuery } from '../src/platform/auth/principal.ts';
import { verifyAccessToken } from '../src/platform/auth/tokens.ts';
import { connect } from '../src/platform/db/connect.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { type Tx, withTenant, withTenantOpening } from '../src/platform/db/tenant.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { sha256 } from '../test/support/app.ts';
import { emptyPgDatabase } from '../test/support/db.ts';
import { benchInvoices, type InvoiceResult, invoiceLines } from './invoices.ts';
import { benchReports, type ReportsResult, reportSizes, reportsSection } from './reports.ts';
import {
  autocannon,
  CONNECTIONS,
  DURATION_S,
  fmt,
  listen,
  type Measure,
  POOL_SIZE,
  ROUNDS,
  statementCounter,
  summarise,
  type Target,
  timeEach,
  WARMUP_S,
} from './support.ts';
import { benchWebhooks, type WebhookResult, webhookLines } from './webhooks.ts';

/** Calls a minute of the bench's keys: the schema's maximum (api-keys.schemas.ts). Each
 * measurement has a key of its own, so one window holds its 6 s (warm-up included); that stays
 * under the limit below 16 000 req/s, and the key call serves less than the floor (3 600 req/s
 * here). Past it, the 429s fail the run. */
const KEY_RATE_LIMIT = 100_000;
const REDIS_URL = process.env.REDIS_URL || undefined;

async function embeddedTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'bp-bench-'));
  const database = await connect({ dataDir: dir });
  await migrate(database);
  const v = await sql<{ v: string }>`select version() as v`.execute(database.db);
  return {
    label: 'embedded PGlite (DATA_DIR on disk)',
    database,
    // One connection in all; its login role is the superuser, which row-level security does
    // not apply to, so the plain SELECT sees the row.
    floor: database,
    version: v.rows[0]!.v.split(',')[0]!,
    async cleanup() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  const empty = await emptyPgDatabase(adminUrl);
  const database = await connect({ databaseUrl: empty.url, poolSize: POOL_SIZE });
  await migrate(database);
  const v = await sql<{ v: string }>`select version() as v`.execute(database.db);
  const target: Target = {
    label: 'PostgreSQL (local server, TCP on 127.0.0.1)',
    database,
    floor: database, // replaced once the tenant is known
    url: empty.url,
    version: v.rows[0]!.v.split(',')[0]!,
    async cleanup() {
      if (target.floor !== database) await target.floor.close();
      await database.close();
      await empty.drop();
    },
  };
  return target;
}

/** On PostgreSQL the login role owns the tables and row-level security is forced on owners
 * too: the floor's pool (same size) carries the tenant as a session setting instead. */
async function floorPool(target: Target, tenantId: string) {
  if (!target.url) return;
  const url = new URL(target.url);
  url.searchParams.set('options', `-c app.tenant_id=${tenantId}`);
  target.floor = await connect({ databaseUrl: url.toString(), poolSize: POOL_SIZE });
}

interface TargetResult {
  target: Target;
  statements: number;
  /** Round trips to the database of a key call. */
  keyStatements: number;
  rounds: Record<string, Measure[]>;
  /** Mean microseconds of each piece of the request path, alone. */
  profile: Array<[string, number]>;
  webhooks?: WebhookResult;
  invoices?: InvoiceResult;
}

async function benchTarget(target: Target): Promise<TargetResult> {
  const config = {
    ...loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: tmpdir() }),
    logLevel: 'silent',
  };
  const mailer = createMailer(undefined, config.mailFrom, pino({ level: 'silent' }));
  const deps = wireDeps({
    config,
    database: target.database,
    mailer,
    jobs: createJobs({ database: target.database, log: pino({ level: 'silent' }) }),
    now: () => new Date(),
  });
  // Logging as main.ts sets it up (level info, a line per request, written asynchronously),
  // to /dev/null.
  const loggerInstance = createLogger('info', '/dev/null');
  const app = await buildApp(deps, { loggerInstance });
  const platformUrl = await listen(app);
  // The same app with the meter's counters in Redis, under a prefix of this run's own (a
  // limiter belongs to one app, so this is a second app on the same database).
  const redisApp = REDIS_URL
    ? await buildApp(
        wireDeps({
          ...deps,
          config: {
            ...config,
            redisUrl: REDIS_URL,
            rateLimits: { redisPrefix: `bp-bench:${randomUUID()}:` },
          },
        }),
        { loggerInstance },
      )
    : undefined;
  const redisAppUrl = redisApp ? await listen(redisApp) : undefined;

  // No plan given: the config's default, enterprise, which includes API keys (business and up).
  const reg = await fetch(`${platformUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenantName: 'Bench (Pty) Ltd',
      name: 'Bench',
      email: `bench.${Date.now()}@example.co.za`,
      password: sha256('bench password'),
    }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { accessToken, tenantId, companyId, userId } = (await reg.json()) as {
    accessToken: string;
    tenantId: string;
    companyId: string;
    userId: string;
  };
  await floorPool(target, tenantId);

  /** A new user key that reads companies, exchanged for its token, as an integration does. */
  const keyToken = async (name: string): Promise<string> => {
    const made = await fetch(`${platformUrl}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        name,
        owner: 'user',
        scopes: ['companies:read'],
        rateLimitPerMinute: KEY_RATE_LIMIT,
      }),
    });
    if (made.status !== 201) throw new Error(`create key: ${made.status} ${await made.text()}`);
    const { key } = (await made.json()) as { key: string };
    const exchanged = await fetch(`${platformUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    if (exchanged.status !== 200) throw new Error(`exchange: ${exchanged.status} ${await exchanged.text()}`);
    const token = (await exchanged.json()) as { accessToken: string; rateLimitPerMinute: number };
    if (token.rateLimitPerMinute !== KEY_RATE_LIMIT) throw new Error(`key limit ${token.rateLimitPerMinute}`);
    return token.accessToken;
  };

  // Statements per platform request, counted on a second app over the same database.
  const counter = statementCounter();
  const counted = await buildApp(
    wireDeps({ ...deps, database: { ...target.database, db: target.database.db.withPlugin(counter) } }),
  );
  const inject = (token: string) =>
    counted.inject({
      url: `/api/companies/${companyId}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const countStatements = async (token: string) => {
    await inject(token);
    counter.count = 0;
    const probe = await inject(token);
    if (probe.statusCode !== 200) throw new Error(`probe: ${probe.statusCode} ${probe.body}`);
    return counter.count;
  };
  const statements = await countStatements(accessToken);
  // The counted app meters in its own memory: this key's calls there touch no measurement.
  const profileKeyToken = await keyToken('bench: round trips and profile');
  const keyStatements = await countStatements(profileKeyToken);

  const bare = Fastify({ logger: false });
  const floorDb = target.floor.db;
  const db = target.database.db;
  bare.get<{ Params: { id: string } }>('/floor/companies/:id', async (req, reply) => {
    const r =
      await sql`select * from companies where tenant_id = ${tenantId} and id = ${req.params.id}`.execute(
        floorDb,
      );
    if (!r.rows[0]) return reply.code(404).send();
    return r.rows[0];
  });
  bare.get<{ Params: { id: string } }>('/tx/companies/:id', async (req, reply) => {
    const row = await withTenant(db, tenantId, async (tx) => {
      const r =
        await sql`select * from companies where tenant_id = ${tenantId} and id = ${req.params.id}`.execute(
          tx,
        );
      return r.rows[0];
    });
    if (!row) return reply.code(404).send();
    return row;
  });
  const bareUrl = await listen(bare);

  // metered: called with a key's token, made afresh for each measurement.
  const variants: Record<string, { url: string; headers: Record<string, string>; metered?: true }> = {
    floor: { url: `${bareUrl}/floor/companies/${companyId}`, headers: {} },
    'bare+tx': { url: `${bareUrl}/tx/companies/${companyId}`, headers: {} },
    platform: {
      url: `${platformUrl}/api/companies/${companyId}`,
      headers: { authorization: `Bearer ${accessToken}` },
    },
    key: { url: `${platformUrl}/api/companies/${companyId}`, headers: {}, metered: true },
    ...(redisAppUrl
      ? {
          'key+redis': {
            url: `${redisAppUrl}/api/companies/${companyId}`,
            headers: {},
            metered: true as const,
          },
        }
      : {}),
  };
  const rounds: Record<string, Measure[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, v] of Object.entries(variants)) {
      // A fresh key: its counter starts at zero, in a window that holds the whole measurement.
      const headers = v.metered
        ? { authorization: `Bearer ${await keyToken(`bench: ${name} round ${round}`)}` }
        : v.headers;
      const warm = await autocannon(v.url, headers, WARMUP_S);
      // This process serves every variant (the app and the bare routes): its CPU is the server's.
      const cpuBefore = process.cpuUsage();
      const m = await autocannon(v.url, headers, DURATION_S);
      const cpu = process.cpuUsage(cpuBefore);
      m.serverCpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, m.requests);
      if (v.metered) await assertMetered(v.url, headers, warm.requests + m.requests);
      rounds[name]!.push(m);
      process.stdout.write(
        `${target.label} round ${round} ${name.padEnd(9)} ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server CPU ${m.serverCpuMs.toFixed(3)} ms a request\n`,
      );
    }
  }

  // Where the time goes: each piece alone, one caller at a time, in this process (no TCP).
  const claims = { sub: userId, tid: tenantId, sid: '' };
  const verified = await verifyAccessToken(config.jwtSecret, accessToken);
  if (!verified.ok || !('sid' in verified.claims)) throw new Error('token');
  claims.sid = verified.claims.sid;
  const selectCompany = (q: typeof db | Tx | typeof floorDb) =>
    sql`select * from companies where tenant_id = ${tenantId} and id = ${companyId}`.execute(q);
  const pieces: Array<[string, () => Promise<unknown>]> = [
    ['JWT verification (jose, HS256)', () => verifyAccessToken(config.jwtSecret, accessToken)],
    ['the SELECT alone (floor)', () => selectCompany(floorDb)],
    [
      'empty tenant transaction (BEGIN with tenant and role, COMMIT)',
      () => withTenant(db, tenantId, async () => {}),
    ],
    ['tenant transaction + the SELECT (bare+tx)', () => withTenant(db, tenantId, (tx) => selectCompany(tx))],
    [
      "tenant transaction opening with the principal and company check, + the SELECT (the platform's queries)",
      () =>
        withTenantOpening<PrincipalRow, void>(db, tenantId, principalQuery(claims), async (tx, rows) => {
          principalFromRow(rows[0], claims, new Date());
          await findCompany(tx, tenantId, companyId);
        }),
    ],
    ['bare+tx route through Fastify (inject)', () => bare.inject({ url: `/tx/companies/${companyId}` })],
    ['platform route through Fastify (inject, logging off)', () => inject(accessToken)],
    [
      "the same with an API key's token, metered in memory (inject, logging off)",
      () => inject(profileKeyToken),
    ],
  ];
  // What the meter adds with REDIS_URL: one round trip to Redis a call (its counting script).
  const redis = REDIS_URL ? new Redis(REDIS_URL) : undefined;
  if (redis) pieces.push(['one Redis round trip (PING)', () => redis.ping()]);
  const profile: Array<[string, number]> = [];
  for (const [name, fn] of pieces) profile.push([name, await timeEach(fn)]);
  for (const [name, us] of profile) process.stdout.write(`  ${us.toFixed(0).padStart(6)} µs  ${name}\n`);

  await redis?.quit();
  await counted.close();
  await bare.close();
  await redisApp?.close();
  await app.close();
  mailer.close();
  return { target, statements, keyStatements, rounds, profile };
}

/** The key's meter counted every call that was answered (a failing Redis lets calls through
 * uncounted, which would not be a metered call): read back from the headers of one more call.
 * A call cut off when autocannon stops may be counted unanswered, one per connection and run. */
async function assertMetered(url: string, headers: Record<string, string>, answered: number) {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: the call after the run answered ${res.status}`);
  const limit = Number(res.headers.get('x-ratelimit-limit'));
  const counted = limit - Number(res.headers.get('x-ratelimit-remaining')) - 1; // less this call
  if (limit !== KEY_RATE_LIMIT || counted < answered || counted > answered + 2 * CONNECTIONS) {
    throw new Error(`${url}: the meter counted ${counted} calls (limit ${limit}); ${answered} were answered`);
  }
}

/** The HTTP layer alone: GET /health of the real app, no database. */
/** Mean server CPU a request over the rounds, in ms. */
function serverCpu(rounds: Measure[]): string {
  const cpu = rounds.map((m) => m.serverCpuMs).filter((x): x is number => x !== undefined);
  return cpu.length ? (cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(3) : '–';
}

async function httpCeiling(): Promise<Measure> {
  const config = loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: tmpdir() });
  const database = await connect({});
  const mailer = createMailer(undefined, config.mailFrom, pino({ level: 'silent' }));
  const app = await buildApp(
    wireDeps({
      config,
      database,
      mailer,
      jobs: createJobs({ database, log: pino({ level: 'silent' }) }),
      now: () => new Date(),
    }),
  );
  const url = await listen(app);
  await autocannon(`${url}/health`, {}, WARMUP_S);
  const m = await autocannon(`${url}/health`, {}, DURATION_S);
  process.stdout.write(
    `GET /health (no database)   ${m.requestsPerSecond.toFixed(0)} req/s  p50 ${m.p50} ms\n`,
  );
  await app.close();
  await database.close();
  return m;
}

function report(results: TargetResult[], ceiling: Measure, started: Date, load: number[]): string {
  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push(
    '# Benchmark: the platform request path against a bare route, webhooks, and sales documents against pgbench',
    '',
  );
  lines.push(
    `Written by \`npm run bench\` (bench/run.ts) on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `- Machine: ${availableParallelism()} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB; ` +
      `load average at start ${load.map((l) => l.toFixed(2)).join(' / ')} (the machine is shared: other work was running).`,
    `- Node ${process.version}; load from autocannon in its own process, ${CONNECTIONS} connections, ` +
      `${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up, ${ROUNDS} rounds interleaved (figures are the mean of the rounds).`,
    `- Request: \`GET /api/companies/{id}\` with the owner's access token; the bare routes return the same row.`,
    `- Key calls: the same request with the token exchanged from a user API key (scope \`companies:read\`, ${KEY_RATE_LIMIT} calls a minute), ` +
      'a new key for each measurement; the rate limiter counts every call, which the bench checks after each measurement ' +
      `(counters in memory; \`key+redis\`: in Redis, ${REDIS_URL ? 'REDIS_URL set' : 'not measured: REDIS_URL not set'}).`,
    `- HTTP layer alone (the real app's \`GET /health\`, no database): ${fmt(ceiling.requestsPerSecond)} req/s, p50 ${ceiling.p50} ms.`,
    '- The platform app logs as `main.ts` sets it up (level info, a line per request and per answer), to /dev/null.',
    '- Webhooks (a section of each database): delivery by the real job worker to a local HTTP receiver, and what `emit()` adds to a write; see [README.md](README.md).',
    `- Sales documents against pgbench (PostgreSQL's last section): creating an invoice with 5 lines and listing a page of 50 through the app, against \`pgbench\` running the same statements; ${
      results.some((r) => r.invoices)
        ? 'see below and [README.md](README.md)'
        : 'not measured: it runs on PostgreSQL only, and DATABASE_URL was not set'
    }.`,
    '- How to read these numbers, and a CPU profile of the platform under load: [README.md](README.md).',
    '',
  );
  for (const r of results) {
    const floor = summarise(r.rounds.floor!);
    const tx = summarise(r.rounds['bare+tx']!);
    const platform = summarise(r.rounds.platform!);
    const keyCall = summarise(r.rounds.key!);
    const keyRedis = r.rounds['key+redis'] ? summarise(r.rounds['key+redis']) : undefined;
    lines.push(
      `## ${r.target.label}`,
      '',
      `Server: ${r.target.version}. Pool: ${r.target.database.kind === 'pg' ? `${POOL_SIZE} connections` : 'one connection (embedded)'}.`,
      '',
    );
    lines.push(
      '| variant | requests/s | p50 ms | p99 ms | per round (req/s) | server CPU ms a request |',
      '|---|---:|---:|---:|---|---:|',
    );
    for (const [name, s] of [
      ['floor: the SELECT alone', floor],
      ['bare+tx: the SELECT in a tenant transaction', tx],
      ['platform: GET /api/companies/{id}', platform],
      ["key: the same with an API key's token, metered in memory", keyCall],
      ...(keyRedis ? [['key+redis: the same, metered in Redis', keyRedis] as const] : []),
    ] as const) {
      const key = name.split(':')[0]!;
      lines.push(
        `| ${name} | ${fmt(s.rps)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${r.rounds[key]!.map((m) => fmt(m.requestsPerSecond)).join(', ')} | ${serverCpu(r.rounds[key]!)} |`,
      );
    }
    lines.push(
      '',
      `- **platform / floor: ${(platform.rps / floor.rps).toFixed(2)}**; platform / bare+tx: ${(platform.rps / tx.rps).toFixed(2)}; bare+tx / floor: ${(tx.rps / floor.rps).toFixed(2)}.`,
      `- Round trips a platform request makes: ${r.statements} (${
        r.target.database.kind === 'pg'
          ? "a read route on PostgreSQL: one batch of the tenant, role and read-only settings, the caller's principal and the route's SELECT; no BEGIN or COMMIT"
          : "one script with BEGIN, the tenant, role and read-only settings and the caller's principal; the route's SELECT; COMMIT"
      }); the floor makes 1, bare+tx 3 (BEGIN with the settings, the SELECT, COMMIT).`,
      '- Server CPU: what the bench process (which serves the app and the bare routes; autocannon runs in a child) spent a request during the measurement, user and system time.',
      `- **key / platform (metered key call / user-token call): ${(keyCall.rps / platform.rps).toFixed(2)}**; ` +
        (keyRedis
          ? `key+redis / platform: ${(keyRedis.rps / platform.rps).toFixed(2)}; key+redis / key: ${(keyRedis.rps / keyCall.rps).toFixed(2)}.`
          : 'key+redis not measured (REDIS_URL not set).'),
      `- Round trips a key call makes to the database: ${r.keyStatements} (the opening script reads the key, its role and the plan instead of the session); the meter adds none in memory, one to Redis with REDIS_URL, made after the opening and before the route's query.`,
      '',
      'Each piece alone, one call at a time in the server process (median of 1000 calls):',
      '',
      '| piece | µs |',
      '|---|---:|',
      ...r.profile.map(([name, us]) => `| ${name} | ${us.toFixed(0)} |`),
      '',
    );
    if (r.webhooks) lines.push(...webhookLines(r.webhooks));
    if (r.invoices) lines.push(...invoiceLines(r.invoices));
  }
  return `${lines.join('\n')}\n`;
}

const started = new Date();
const load = loadavg();
const adminUrl = process.env.DATABASE_URL;
/**
 * BENCH_ONLY=reports runs the reports section alone, BENCH_ONLY=request the request path alone,
 * BENCH_ONLY=webhooks the webhook section alone; each prints its figures and leaves RESULTS.md
 * as it is.
 */
const only = process.env.BENCH_ONLY;
const results: TargetResult[] = [];
const reportResults: ReportsResult[] = [];
const ceiling = only === 'reports' || only === 'webhooks' ? undefined : await httpCeiling();
for (const make of [embeddedTarget, ...(adminUrl ? [() => postgresTarget(adminUrl)] : [])]) {
  const target = await make();
  try {
    if (only === 'webhooks') {
      const webhooks = await benchWebhooks(target);
      process.stdout.write(`\n## ${target.label}\n\n${webhookLines(webhooks).join('\n')}\n`);
      continue;
    }
    if (only !== 'reports') {
      const result = await benchTarget(target);
      if (only !== 'request') {
        result.webhooks = await benchWebhooks(target);
        // PostgreSQL only: pgbench needs a server to connect to.
        if (target.url) result.invoices = await benchInvoices(target);
      }
      results.push(result);
    }
    if (only === 'request') continue;
    const sizes = reportSizes(target.database.kind);
    reportResults.push(await benchReports(target, sizes.sizes, sizes.note));
  } finally {
    await target.cleanup();
  }
}
if (only === 'webhooks') {
  // Printed per target above.
} else if (only === 'reports') {
  process.stdout.write(`\n${reportsSection(reportResults)}\n`);
} else if (only === 'request') {
  process.stdout.write(`\n${report(results, ceiling!, started, load)}\n`);
} else {
  const text = `${report(results, ceiling!, started, load)}\n${reportsSection(reportResults)}\n`;
  writeFileSync(join(import.meta.dirname, 'RESULTS.md'), text);
  process.stdout.write(`\n${text}`);
}
