// The invoices section of `npm run bench`, PostgreSQL only: what the app serves of the SQL its
// sales-document routes send, against pgbench sending those very statements.
//
// On the target's database (fresh for the run), the real app (logging as in production)
// registers a tenant, makes its company VAT-registered, adds customers, and then:
//   create  POST /api/invoices: a draft invoice with 5 lines, a fresh body each request;
//   list    GET /api/invoices?limit=50 on a second company holding 60 invoices of 5 lines.
// The statements one request of each sends (text and parameters, the opening script, the
// principal, the audit entry and COMMIT included) are captured on the wire (pg.Client's
// query), and turned into a pgbench script: the same statements with the same parameters, in
// the same transaction shape, sent with the extended protocol as node-postgres sends them.
// What must differ per transaction (the new ids, the document number) comes from pgbench.
// pgbench then runs on the same database with the same login role, the same connections and
// duration as autocannon loads the app, interleaved over two rounds; every HTTP answer must be
// 201 (200 for the list), no pgbench transaction may fail, and the rows written are counted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions } from '../src/logger.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { sha256 } from '../test/support/app.ts';
import { PROCESSES, startProcesses } from './processes.ts';
import {
  autocannon,
  CONNECTIONS,
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

export const PGBENCH = process.env.PGBENCH ?? '/usr/bin/pgbench';
/** pgbench's threads: one per core, at most one per connection. */
const PGBENCH_THREADS = Math.max(1, Math.min(CONNECTIONS, availableParallelism()));
const LINES = 5;
const PAGE = 50;
/** Invoices of the listed company: more than a page. */
const LISTED = 60;
const CUSTOMERS = 5;
/** One request at a time: calls through inject, and seconds of pgbench with one connection. */
const ALONE_CALLS = 200;
const ALONE_S = 2;
/** BENCH_INVOICES_ONLY=create or list: only those measurements (when comparing a change). */
const ONLY = process.env.BENCH_INVOICES_ONLY ?? '';
/** The ratio the issue asks for: the app serves at least half of what pgbench does. */
export const GOAL = 0.5;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-01';

/** `… processes`: the app as deployed, a serving process per core (bench/processes.ts). */
const VARIANTS = [
  'create app',
  'create processes',
  'create pgbench',
  'list app',
  'list processes',
  'list pgbench',
] as const;
type Variant = (typeof VARIANTS)[number];

/** One statement as the app sent it: its text, its parameters as sent, the rows it answered. */
interface Sent {
  text: string;
  /** A read route's query carries the tenant settings in its own batch (TenantReadQuery)... */
  settings?: string;
  /** ...and the first one the request's opening (the principal) too. */
  opening?: string;
  /** Sent ahead of the next statement, in its batch (the audit entry ahead of COMMIT). */
  ahead?: boolean;
  values: Array<string | null>;
  rows: Array<Record<string, unknown>>;
  client: unknown;
}

export interface PgbenchScript {
  /** The script file's text. */
  text: string;
  /** -D name=value: the captured parameters, each a pgbench variable (sent as a parameter). */
  defines: string[];
  /** Round trips of one transaction, and those the app's request made. */
  roundTrips: number;
  appRoundTrips: number;
  /** What pgbench adds: the statement generating the new ids, if any. */
  added: string[];
  /** The app's statements, abbreviated, for the report. */
  statements: string[];
}

export interface InvoiceResult {
  rounds: Record<Variant, Measure[]>;
  /** Milliseconds of one request alone (median): the app's, and pgbench's transaction. */
  alone: Partial<Record<'create' | 'list', { app: number; appCpu: number; pgbench: number }>>;
  create: PgbenchScript;
  list: PgbenchScript;
  /** Rows each side's measured create runs wrote (invoices; lines and audit entries checked with them). */
  written: { app: number; processes: number; pgbench: number };
  /** Invoices on the listed page, and lines on it. */
  page: { invoices: number; lines: number };
  pgbenchVersion: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const prepareValue = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils.prepareValue;

/** A parameter as node-postgres sends it. */
function asSent(v: unknown): string | null {
  const p = prepareValue(v);
  return p === null || p === undefined ? null : String(p);
}

/**
 * Every statement sent to PostgreSQL by this process while `fn` runs, through node-postgres's
 * Client (the app's pool makes its clients from it), with the rows each answered.
 */
async function capture(fn: () => Promise<void>): Promise<Sent[]> {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; the wrapper passes them all through
  const proto = pg.Client.prototype as any;
  const original = proto.query;
  const sent: Sent[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: as above
  proto.query = function (this: pg.Client, ...args: any[]) {
    const [config, values] = args;
    // A write's COMMIT carries the statements ahead of it (CommitQuery in connect.ts): each
    // is captured as sent, ahead of the COMMIT, in its batch.
    if (Array.isArray(config?.ahead) && typeof config?.settings !== 'string') {
      for (const a of config.ahead as Array<{ text: string; values: unknown[] }>) {
        sent.push({ text: a.text, values: a.values.map(asSent), rows: [], ahead: true, client: this });
      }
    }
    const text: string = typeof config === 'string' ? config : config.text;
    const params: unknown[] = Array.isArray(values) ? values : (config?.values ?? []);
    const entry: Sent = {
      text,
      ...(typeof config?.settings === 'string' ? { settings: config.settings } : {}),
      ...(typeof config?.opening === 'string' ? { opening: config.opening } : {}),
      values: params.map(asSent),
      rows: [],
      client: this,
    };
    sent.push(entry);
    const keep = (res: pg.QueryResult | pg.QueryResult[]) => {
      entry.rows = (Array.isArray(res) ? res : [res]).flatMap((x) => x.rows ?? []);
    };
    if (typeof config?.submit === 'function' && typeof config.callback === 'function') {
      // A query object (TenantReadQuery) answers through its callback, not a promise.
      const callback = config.callback;
      config.callback = (err: Error | null, res: pg.QueryResult | pg.QueryResult[]) => {
        if (!err) keep(res);
        callback(err, res);
      };
    }
    const r = original.apply(this, args);
    if (r && typeof r.then === 'function') {
      r.then(keep, () => {});
    }
    return r;
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  // All of it on one connection: the request's tenant transaction, and nothing else.
  if (new Set(sent.map((s) => s.client)).size !== 1)
    throw new Error('capture: statements on several connections');
  return sent;
}

/** Splits a simple-protocol script at its semicolons (outside quotes). */
function splitScript(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

/**
 * The pgbench script of one captured request. Parameters become pgbench variables (-D), which
 * pgbench sends as parameters in extended mode, as node-postgres does; NULL, which a variable
 * cannot carry, is written in the statement. The opening simple-protocol script (BEGIN, the
 * settings, the principal) is one round trip in the app: in pgbench, its statements travel in
 * one pipeline; so do a read route's settings and each of its queries (TenantReadQuery in
 * src/platform/db/connect.ts: one batch, one Sync). Values that must differ per transaction:
 *   - a UUID parameter known neither before the request (the ids in the statements' text and
 *     in the request) nor answered by an earlier statement is a new id: pgbench draws it with
 *     gen_random_uuid() in one statement before BEGIN (\gset is not allowed in a pipeline).
 * The document number is taken and formatted inside the create's insert: nothing to carry.
 * A write's COMMIT and the audit entry ahead of it travel in one pipeline, as the app sends
 * them (CommitQuery in src/platform/db/connect.ts).
 */
function pgbenchScript(sent: Sent[], known: Set<string>): PgbenchScript {
  const seen = new Set(known);
  for (const s of sent) for (const m of s.text.match(UUID_IN_TEXT) ?? []) seen.add(m.toLowerCase());
  const vars = new Map<string, string>(); // a parameter's value → its variable
  const defines: string[] = [];
  const fresh: string[] = [];
  const lines: string[] = [];
  let pipelined = false;
  for (const s of sent) {
    if (s.values.length === 0 && /;/.test(s.text)) {
      // The opening script: one round trip, as a pipeline.
      lines.push('\\startpipeline', ...splitScript(s.text).map((t) => `${t};`), '\\endpipeline');
    } else {
      if (/\\/.test(s.text) || /:[a-z_]/i.test(s.text.replace(/::/g, ''))) {
        throw new Error(`pgbench script: cannot carry ${s.text.slice(0, 80)}`);
      }
      const text = s.text.replace(/\s+/g, ' ').replace(/\$(\d+)/g, (_, k: string) => {
        const value = s.values[Number(k) - 1];
        if (value === undefined) throw new Error(`pgbench script: $${k} has no value`);
        if (value === null) return 'null';
        let name = vars.get(value);
        if (!name) {
          if (UUID.test(value) && !seen.has(value.toLowerCase())) {
            name = `id${fresh.length + 1}`;
            fresh.push(name);
          } else {
            name = `v${defines.length + 1}`;
            defines.push(`${name}=${value}`);
          }
          vars.set(value, name);
        }
        return `:${name}`;
      });
      const statement = `${text};`;
      // The settings and the query in one pipeline: one Sync, one implicit transaction, as the app sends them.
      if (s.settings) {
        const opening = s.opening ? [`${s.opening};`] : [];
        lines.push('\\startpipeline', `${s.settings};`, ...opening, statement, '\\endpipeline');
      } else if (s.ahead) {
        // With the statement after it, in one pipeline (one round trip), as the app sends them.
        if (!pipelined) lines.push('\\startpipeline');
        pipelined = true;
        lines.push(statement);
      } else if (pipelined) {
        lines.push(statement, '\\endpipeline');
        pipelined = false;
      } else lines.push(statement);
    }
    // What a statement answered is known to the statements after it.
    for (const r of s.rows)
      for (const x of Object.values(r)) if (typeof x === 'string') seen.add(x.toLowerCase());
  }
  // Round trips: each statement, with those sent ahead of it.
  const trips: Sent[][] = [];
  let batch: Sent[] = [];
  for (const s of sent) {
    batch.push(s);
    if (!s.ahead) {
      trips.push(batch);
      batch = [];
    }
  }
  const added = fresh.length
    ? [`select ${fresh.map((n) => `gen_random_uuid() as ${n}`).join(', ')} \\gset`]
    : [];
  return {
    text: `${[...added, ...lines].join('\n')}\n`,
    defines,
    roundTrips: trips.length + added.length,
    appRoundTrips: trips.length,
    added,
    statements: trips.map((t) => t.map((s) => abbreviate(s.text)).join('` + `')),
  };
}

function abbreviate(text: string): string {
  const t = text.replace(/\s+/g, ' ').replace(UUID_IN_TEXT, '…');
  const shown = t.length > 150 ? `${t.slice(0, 150)}…` : t;
  return shown.replace(/\|/g, '\\|');
}

/** One pgbench run: TPS without connection time, latencies from its transaction log. */
async function pgbench(
  url: string,
  script: PgbenchScript,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Measure> {
  const dir = mkdtempSync(join(tmpdir(), 'bp-pgbench-'));
  try {
    const file = join(dir, 'script.sql');
    writeFileSync(file, script.text);
    const args = [
      '-n',
      '-f',
      file,
      '-c',
      String(connections),
      '-j',
      String(Math.min(connections, PGBENCH_THREADS)),
      '-T',
      String(seconds),
      '-M',
      'extended',
      '-l',
      `--log-prefix=${join(dir, 'tx')}`,
      ...script.defines.flatMap((d) => ['-D', d]),
      url,
    ];
    const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>(
      (resolve, reject) => {
        // Through the shell, whose `times` then prints pgbench's CPU time (user and system).
        const script = '"$0" "$@"; status=$?; times >&2; exit $status';
        const child = spawn('/bin/sh', ['-c', script, PGBENCH, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          err += d;
        });
        child.on('error', reject);
        child.on('exit', (code) => resolve({ code, out, err }));
      },
    );
    // `times`: the shell's own line, then its children's: "0m1.234s 0m0.567s".
    const times = [...err.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
    const cpuMs = times
      ? (Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000
      : undefined;
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
    const processed = /number of transactions actually processed: (\d+)/.exec(out);
    const failed = /number of failed transactions: (\d+)/.exec(out);
    if (code !== 0 || !tps || !processed || !failed || failed[1] !== '0' || /error/i.test(err)) {
      throw new Error(`pgbench failed (exit ${code}):\n${out}\n${err}`);
    }
    const latencies: number[] = [];
    for (const f of readdirSync(dir).filter((n) => n.startsWith('tx'))) {
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
        const us = line.split(' ')[2];
        if (us) latencies.push(Number(us) / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    if (latencies.length !== Number(processed[1])) throw new Error('pgbench: the log misses transactions');
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]!;
    return {
      requestsPerSecond: Number(tps[1]),
      p50: Number(at(50).toFixed(2)),
      p99: Number(at(99).toFixed(2)),
      requests: Number(processed[1]),
      ...(cpuMs === undefined ? {} : { loadCpuMs: cpuMs }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pgbenchVersion(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PGBENCH, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** fetch against the listening app; fails on an answer of 300 or more. */
function caller(url: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/**
 * Through the app's API: a tenant whose company is VAT-registered, a second company (the
 * listed one) holding LISTED invoices of LINES lines, CUSTOMERS customers; answers the create
 * body (no clientId) and the list's path. Also used by bench/profile.ts.
 */
export async function invoiceFixture(url: string) {
  const call = caller(url);
  const reg = await call('POST', '/auth/register', {
    tenantName: 'Bench Invoices (Pty) Ltd',
    name: 'Bench',
    email: `bench.invoices.${Date.now()}@example.co.za`,
    password: sha256('bench password'),
  });
  const { accessToken, tenantId, companyId } = reg.body as {
    accessToken: string;
    tenantId: string;
    companyId: string;
  };
  const auth = { authorization: `Bearer ${accessToken}` };
  const vat = { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' };
  await call('PATCH', `/api/companies/${companyId}`, vat, auth);
  // The listed company: its invoices stay as they are while the creates grow the first one's.
  const listed = await call('POST', '/api/companies', { name: 'Bench Listed (Pty) Ltd', ...vat }, auth);
  const listedId = (listed.body as { id: string }).id;
  const customers: string[] = [];
  for (let i = 1; i <= CUSTOMERS; i++) {
    const c = await call(
      'POST',
      '/api/contacts',
      { name: `Customer ${i} (Pty) Ltd`, contactType: 'CUSTOMER', email: `accounts${i}@example.com` },
      auth,
    );
    customers.push((c.body as { id: string }).id);
  }
  const invoice = (contactId: string) => ({
    contactId,
    documentType: 'invoice',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    paymentTermsDays: 30,
    reference: 'PO-',
    lines: Array.from({ length: LINES }, (_, i) => ({
      description: `Consulting, week ${i + 1}`,
      quantity: i + 1,
      unitPrice: 333.33 + i,
      ...(i === LINES - 1 ? { discountRate: 10 } : {}),
    })),
  });
  const onCompany = { ...auth, 'x-company-id': companyId };
  const onListed = { ...auth, 'x-company-id': listedId };
  for (let i = 0; i < LISTED; i++) {
    await call('POST', '/api/invoices', invoice(customers[i % CUSTOMERS]!), onListed);
  }
  return {
    tenantId,
    companyId,
    listedId,
    customers,
    body: invoice(customers[0]!),
    listPath: `/api/invoices?limit=${PAGE}`,
    onCompany,
    onListed,
  };
}

export async function benchInvoices(target: Target): Promise<InvoiceResult> {
  if (!target.url) throw new Error('the invoices section runs on PostgreSQL only');
  const { database } = target;
  const silent = pino({ level: 'silent' });
  const config = {
    ...loadConfig({ JWT_SECRET, DATA_DIR: tmpdir() }),
    logLevel: 'silent',
  };
  const mailer = createMailer(undefined, config.mailFrom, silent);
  const jobs = createJobs({ database, log: silent, work: false });
  const deps = wireDeps({ config, database, mailer, jobs, now: () => new Date() });
  // Logging as main.ts sets it up (level info, a line per request), written to /dev/null.
  const logger = { ...loggerOptions('info'), stream: pino.destination('/dev/null') };
  const app = await buildApp(deps, { logger });
  const url = await listen(app);
  const served = await startProcesses(target.url, JWT_SECRET);

  const call = caller(url);
  const { tenantId, companyId, listedId, customers, body, listPath, onCompany, onListed } =
    await invoiceFixture(url);
  // Warm: the first requests compile schemas and fill the pool.
  for (let i = 0; i < 20; i++) {
    await call('POST', '/api/invoices', body, onCompany);
    await call('GET', listPath, undefined, onListed);
  }

  // The statements of one request of each, as sent.
  let created: { id: string; number: string } | undefined;
  const createSent = await capture(async () => {
    const r = await call('POST', '/api/invoices', body, onCompany);
    if (r.status !== 201) throw new Error(`create answered ${r.status}`);
    created = r.body;
  });
  let page: { items: Array<{ lines: unknown[] }>; total: number } | undefined;
  const listSent = await capture(async () => {
    page = (await call('GET', listPath, undefined, onListed)).body;
  });
  if (!created || !page || page.items.length !== PAGE || page.total !== LISTED)
    throw new Error('the listed page is not full');
  const known = new Set([tenantId, companyId, listedId, ...customers]);
  const create = pgbenchScript(createSent, known);
  const list = pgbenchScript(listSent, known);
  // BENCH_PGBENCH_DIR: keep the two scripts (and their variables) there, to run them by hand.
  const keep = process.env.BENCH_PGBENCH_DIR;
  if (keep) {
    for (const [name, script] of [
      ['create', create],
      ['list', list],
    ] as const) {
      writeFileSync(join(keep, `${name}.sql`), script.text);
      writeFileSync(join(keep, `${name}.defines`), script.defines.map((d) => `-D\n${d}`).join('\n'));
    }
  }

  /** The first company's invoices, their live lines and the audit entries of creates, at one instant. */
  const count = async () => {
    const r = await withTenant(database.db, tenantId, (tx) =>
      sql<{ invoices: number; lines: number; audited: number }>`
        select (select count(*) from invoices where tenant_id = ${tenantId} and company_id = ${companyId})::int as invoices,
               (select count(*) from invoice_lines l join invoices i on i.tenant_id = l.tenant_id and i.id = l.invoice_id
                 where l.tenant_id = ${tenantId} and i.company_id = ${companyId} and l.retired_at is null)::int as lines,
               (select count(*) from audit_log where tenant_id = ${tenantId} and company_id = ${companyId}
                 and action = 'POST /api/invoices')::int as audited`.execute(tx),
    );
    return r.rows[0]!;
  };
  /** The count once requests cut off when autocannon stopped have ended: unchanged for 300 ms. */
  const settled = async () => {
    let last = await count();
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const now = await count();
      if (now.invoices === last.invoices) return now;
      last = now;
    }
    throw new Error('create: requests still writing 15 s after the run');
  };
  /** A create run wrote `answered` invoices (up to one a connection more: cut off when the run
   * stopped, yet committed), each with its lines and its audit entry. */
  const checkWritten = (
    label: string,
    before: Awaited<ReturnType<typeof count>>,
    after: Awaited<ReturnType<typeof count>>,
    answered: number,
  ) => {
    const n = after.invoices - before.invoices;
    if (n < answered || n > answered + CONNECTIONS) {
      throw new Error(`${label}: ${n} invoices written for ${answered} answered`);
    }
    if (after.lines - before.lines !== LINES * n || after.audited - before.audited !== n) {
      throw new Error(
        `${label}: ${n} invoices but ${after.lines - before.lines} lines, ${after.audited - before.audited} audit entries`,
      );
    }
    return n;
  };

  const rounds = Object.fromEntries(VARIANTS.map((v) => [v, [] as Measure[]])) as Record<Variant, Measure[]>;
  const written = { app: 0, processes: 0, pgbench: 0 };
  const createUrl = `${url}/api/invoices`;
  const post = {
    method: 'POST' as const,
    body: JSON.stringify(body),
    vary: 'reference',
    status: 201,
    cpu: true,
  };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of VARIANTS.filter((v) => v.startsWith(ONLY))) {
      let m: Measure;
      if (variant === 'create app') {
        await autocannon(createUrl, onCompany, WARMUP_S, post);
        const before = await settled();
        const cpu0 = process.cpuUsage();
        m = await autocannon(createUrl, onCompany, DURATION_S, post);
        m.serverCpuMs = cpuMs(process.cpuUsage(cpu0));
        written.app += checkWritten(`${variant} round ${round}`, before, await settled(), m.requests);
      } else if (variant === 'create processes') {
        const createServed = `${served.url}/api/invoices`;
        await autocannon(createServed, onCompany, WARMUP_S, post);
        const before = await settled();
        const cpu0 = served.cpuMs();
        m = await autocannon(createServed, onCompany, DURATION_S, post);
        m.serverCpuMs = served.cpuMs() - cpu0;
        written.processes += checkWritten(`${variant} round ${round}`, before, await settled(), m.requests);
      } else if (variant === 'create pgbench') {
        await pgbench(target.url, create, WARMUP_S);
        const before = await count();
        m = await pgbench(target.url, create, DURATION_S);
        written.pgbench += checkWritten(`${variant} round ${round}`, before, await count(), m.requests);
      } else if (variant === 'list app') {
        await autocannon(`${url}${listPath}`, onListed, WARMUP_S, { status: 200 });
        const cpu0 = process.cpuUsage();
        m = await autocannon(`${url}${listPath}`, onListed, DURATION_S, { status: 200, cpu: true });
        m.serverCpuMs = cpuMs(process.cpuUsage(cpu0));
      } else if (variant === 'list processes') {
        const listServed = `${served.url}${listPath}`;
        await autocannon(listServed, onListed, WARMUP_S, { status: 200 });
        const cpu0 = served.cpuMs();
        m = await autocannon(listServed, onListed, DURATION_S, { status: 200, cpu: true });
        m.serverCpuMs = served.cpuMs() - cpu0;
      } else {
        await pgbench(target.url, list, WARMUP_S);
        m = await pgbench(target.url, list, DURATION_S);
      }
      rounds[variant].push(m);
      const cpu = [
        m.loadCpuMs === undefined ? '' : `client CPU ${fmt(m.loadCpuMs / m.requests)} ms`,
        m.serverCpuMs === undefined ? '' : `app CPU ${fmt(m.serverCpuMs / m.requests)} ms`,
      ].join(' ');
      process.stdout.write(
        `${target.label} round ${round} ${variant.padEnd(14)} ${m.requestsPerSecond.toFixed(0).padStart(6)} /s  p50 ${m.p50} ms  p99 ${m.p99} ms  ${cpu}\n`,
      );
    }
  }
  // The fresh bodies were fresh: every created invoice has a reference of its own.
  const refs = await withTenant(database.db, tenantId, (tx) =>
    sql<{ n: number; distinct: number }>`
      select count(*)::int as n, count(distinct reference)::int as distinct from invoices
       where tenant_id = ${tenantId} and company_id = ${companyId} and reference <> ${body.reference}`.execute(
      tx,
    ),
  );
  if (refs.rows[0]!.n !== refs.rows[0]!.distinct) throw new Error('create: bodies were not fresh');

  // One request at a time: the app's through Fastify's inject (no TCP; logging on, to
  // /dev/null), median of ALONE_CALLS; pgbench's with one connection, median transaction.
  const alone = {} as InvoiceResult['alone'];
  for (const what of (['create', 'list'] as const).filter((w) => w.startsWith(ONLY))) {
    const request =
      what === 'create'
        ? { method: 'POST' as const, url: '/api/invoices', headers: onCompany, payload: body }
        : { method: 'GET' as const, url: listPath, headers: onListed };
    const call = async () => {
      const r = await app.inject(request);
      if (r.statusCode !== (what === 'create' ? 201 : 200)) throw new Error(`${what}: ${r.statusCode}`);
    };
    const cpu0 = process.cpuUsage();
    const ms = await timeEach(call, ALONE_CALLS);
    const cpu = process.cpuUsage(cpu0);
    const bench1 = await pgbench(target.url, what === 'create' ? create : list, ALONE_S, 1);
    alone[what] = {
      app: ms / 1000,
      // timeEach makes 50 calls more to warm up
      appCpu: (cpu.user + cpu.system) / 1000 / (ALONE_CALLS + 50),
      pgbench: bench1.p50,
    };
    process.stdout.write(
      `${target.label} alone ${what}: app ${fmt(alone[what].app)} ms (${fmt(alone[what].appCpu)} ms of the process's CPU), pgbench ${bench1.p50} ms\n`,
    );
  }

  await served.stop();
  await app.close();
  mailer.close();
  return {
    alone,
    rounds,
    create,
    list,
    written,
    page: { invoices: page.items.length, lines: page.items.reduce((n, d) => n + d.lines.length, 0) },
    pgbenchVersion: await pgbenchVersion(),
  };
}

/** Mean milliseconds of CPU a request or transaction, over the rounds that measured it. */
function cpuPerRequest(ms: Measure[], which: 'loadCpuMs' | 'serverCpuMs'): string {
  const per = ms.filter((m) => m[which] !== undefined).map((m) => m[which]! / m.requests);
  return per.length ? (per.reduce((a, b) => a + b, 0) / per.length).toFixed(2) : '–';
}

/** The RESULTS.md lines of the invoices section. */
export function invoiceLines(r: InvoiceResult): string[] {
  const s = Object.fromEntries(VARIANTS.map((v) => [v, summarise(r.rounds[v])])) as Record<
    Variant,
    ReturnType<typeof summarise>
  >;
  const ratio = (what: 'create' | 'list', by: 'app' | 'processes') =>
    s[`${what} ${by}`].rps / s[`${what} pgbench`].rps;
  const verdict = (x: number) => (x >= GOAL ? '**met**' : '**not met**');
  const perCore = `\`API_PROCESSES=${PROCESSES}\` (a serving process per core)`;
  const row = (v: Variant, name: string, trips: number) =>
    `| ${name} | ${fmt(s[v].rps)} | ${fmt(s[v].p50)} | ${fmt(s[v].p99)} | ${r.rounds[v].map((m) => fmt(m.requestsPerSecond)).join(', ')} | ${trips} | ${cpuPerRequest(r.rounds[v], 'loadCpuMs')} | ${cpuPerRequest(r.rounds[v], 'serverCpuMs')} |`;
  const statements = (script: PgbenchScript) => script.statements.map((t, i) => `${i + 1}. \`${t}\``);
  const alone = (what: 'create' | 'list') => {
    const a = r.alone[what];
    // Absent when BENCH_INVOICES_ONLY measured the other half.
    if (!a) return `${what}: not measured`;
    return `${what}: app ${fmt(a.app)} ms (${fmt(a.appCpu)} ms of its CPU), pgbench ${fmt(a.pgbench)} ms`;
  };
  return [
    '### Sales documents against pgbench',
    '',
    `\`POST /api/invoices\` (a draft invoice with ${LINES} lines) and \`GET /api/invoices?limit=${PAGE}\` through the app, against ` +
      `\`pgbench\` running the statements one such request sends (captured on the wire) on the same database with the same login role; ` +
      `${CONNECTIONS} connections each (pgbench: ${PGBENCH_THREADS} threads, \`-M extended\`), ${DURATION_S} s after a ${WARMUP_S} s warm-up, ` +
      `the six interleaved over ${ROUNDS} rounds. ${r.pgbenchVersion}.`,
    '',
    '| measurement | requests/s (pgbench: transactions/s) | p50 ms | p99 ms | per round | round trips | load generator CPU ms a request | app process CPU ms a request |',
    '|---|---:|---:|---:|---|---:|---:|---:|',
    row('create app', 'create: `POST /api/invoices` through the app, one process', r.create.appRoundTrips),
    row(
      'create processes',
      `create: the same through the app as deployed, ${perCore}`,
      r.create.appRoundTrips,
    ),
    row('create pgbench', 'create: the same statements in pgbench', r.create.roundTrips),
    row(
      'list app',
      `list: \`GET /api/invoices?limit=${PAGE}\` through the app, one process`,
      r.list.appRoundTrips,
    ),
    row('list processes', `list: the same through the app as deployed, ${perCore}`, r.list.appRoundTrips),
    row('list pgbench', 'list: the same statements in pgbench', r.list.roundTrips),
    '',
    `- **create, app as deployed / pgbench: ${ratio('create', 'processes').toFixed(2)}**, goal ${GOAL}: ${verdict(ratio('create', 'processes'))}. ` +
      `**list, app as deployed / pgbench: ${ratio('list', 'processes').toFixed(2)}**, goal ${GOAL}: ${verdict(ratio('list', 'processes'))}.`,
    `- One process alone, against the same pgbench: create ${ratio('create', 'app').toFixed(2)}, list ${ratio('list', 'app').toFixed(2)}. ` +
      `pgbench runs a thread per core (${PGBENCH_THREADS}); Node.js runs a process's JavaScript on one core, so the app as ` +
      'docs/operations.md deploys it runs a serving process per core (`API_PROCESSES`, node:cluster: one port, connections handed ' +
      'out in turn). The goal is read on that deployment (docs/decisions.md).',
    `- One request at a time (median; the app through Fastify's inject with logging on, pgbench with one connection): ${alone('create')}; ${alone('list')}.`,
    `- Every answer was 201 (create) or 200 (list), and no pgbench transaction failed. The measured creates wrote ${r.written.app} invoices ` +
      `through the app in one process, ${r.written.processes} through the app as deployed and ${r.written.pgbench} through pgbench, each with its ${LINES} lines and its audit entry (counted after each run); ` +
      'every app create had a body of its own (a unique `reference`) and no `clientId`.',
    `- Creates go to one company, whose document counter row they take turns on until commit (gap-free numbering), on both sides. ` +
      `The list reads another company of the tenant, holding ${LISTED} invoices of ${LINES} lines for ${CUSTOMERS} customers: ` +
      `a page of ${r.page.invoices} invoices with ${r.page.lines} lines, the same rows throughout.`,
    '- pgbench sends the captured parameters as parameters (pgbench variables; NULL written in the statement), and the ' +
      "opening script's statements in one pipeline (one round trip, like the app's simple-protocol script). What must differ per create " +
      'comes from pgbench: the new ids (document, lines, audit entry, request id) from one `select gen_random_uuid() …` before BEGIN (a round ' +
      'trip the app does not make: `\\gset` is not allowed in a pipeline); the document number is taken in the insert itself. The audit entry ' +
      'and COMMIT go in one pipeline, as the app sends them in one batch.',
    "- CPU: the load generator is autocannon (its process) or pgbench (its process, the shell's `times`); the app process is the Node " +
      'server (as deployed: the serving processes together, from /proc). PostgreSQL’s own CPU is not measured (it serves all three).',
    '',
    `Statements one create sends (${r.create.appRoundTrips} round trips):`,
    '',
    ...statements(r.create),
    '',
    `Statements one list sends (${r.list.appRoundTrips} round trips):`,
    '',
    ...statements(r.list),
    '',
  ];
}

// `node bench/invoices.ts`: this section alone, on a fresh database of DATABASE_URL's server.
if (import.meta.main) {
  const { connect } = await import('../src/platform/db/connect.ts');
  const { migrate } = await import('../src/platform/db/migrate.ts');
  const { emptyPgDatabase } = await import('../test/support/db.ts');
  const { POOL_SIZE } = await import('./support.ts');
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL: the invoices section runs on PostgreSQL only');
  const empty = await emptyPgDatabase(adminUrl);
  const database = await connect({ databaseUrl: empty.url, poolSize: POOL_SIZE });
  try {
    await migrate(database);
    const target: Target = {
      label: 'PostgreSQL',
      database,
      floor: database,
      url: empty.url,
      version: '',
      cleanup: async () => {},
    };
    process.stdout.write(`\n${invoiceLines(await benchInvoices(target)).join('\n')}\n`);
  } finally {
    await database.close();
    await empty.drop();
  }
}
