// `node bench/profile.ts [route]`: where the server's CPU goes under load, on
//   company         GET /api/companies/{id} (the default);
//   invoice-create  POST /api/invoices, a draft with 5 lines (the same body each time, no clientId);
//   invoice-list    GET /api/invoices?limit=50 over a company holding 60 invoices.
// Starts the real app (logging as in production, to /dev/null) in a child process with
// --cpu-prof, loads it with autocannon for a few seconds, stops it, and prints the self time
// by package and by function. Embedded database by default; DATABASE_URL: a fresh database on
// that PostgreSQL server. The reading of such profiles is in bench/README.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { connect } from '../src/platform/db/connect.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { sha256 } from '../test/support/app.ts';
import { emptyPgDatabase } from '../test/support/db.ts';
import { invoiceFixture } from './invoices.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CHILD = 'BENCH_PROFILE_CHILD';
const ROUTES = ['company', 'invoice-create', 'invoice-list'] as const;
type Route = (typeof ROUTES)[number];

/** What the load generator sends. */
interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** The child: the app on a fresh database; prints the Load of its route; stops on SIGINT. */
async function serve() {
  const dataDir = process.env.BENCH_DATA_DIR!;
  const config = loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: dataDir });
  const database = await connect({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir });
  await migrate(database);
  const mailer = createMailer(undefined, config.mailFrom, pino({ level: 'silent' }));
  const app = await buildApp(
    wireDeps({
      config,
      database,
      mailer,
      jobs: createJobs({ database, log: pino({ level: 'silent' }) }),
      now: () => new Date(),
    }),
    {
      loggerInstance: createLogger('info', '/dev/null'),
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const route = process.env.BENCH_PROFILE_ROUTE as Route;
  let load: Load;
  if (route === 'company') {
    const reg = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: {
        tenantName: 'Profile',
        name: 'Profile',
        email: 'profile@example.co.za',
        password: sha256('x'),
      },
    });
    const body = reg.json();
    const headers = { authorization: `Bearer ${body.accessToken}` };
    load = { url: `${url}/api/companies/${body.companyId}`, method: 'GET', headers };
  } else {
    const f = await invoiceFixture(url);
    load =
      route === 'invoice-create'
        ? {
            url: `${url}/api/invoices`,
            method: 'POST',
            headers: { ...f.onCompany, 'content-type': 'application/json' },
            body: JSON.stringify(f.body),
          }
        : { url: `${url}${f.listPath}`, method: 'GET', headers: f.onListed };
  }
  process.stdout.write(`${JSON.stringify(load)}\n`);
  process.on('SIGINT', async () => {
    await app.close();
    await database.close();
    process.exit(0); // --cpu-prof writes the profile on exit
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

function category(url: string): string {
  if (!url) return '(native: syscalls, GC, idle)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]}`;
  return url;
}

function report(file: string) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const t = p.timeDeltas[i] ?? 0;
    const frame = byId.get(id)!.callFrame;
    total += t;
    const c = category(frame.url);
    byCategory.set(c, (byCategory.get(c) ?? 0) + t);
    const f = `${frame.functionName || '(anonymous)'}  [${c}]`;
    byFunction.set(f, (byFunction.get(f) ?? 0) + t);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  process.stdout.write(
    `\nself time by package or file (${(total / 1e6).toFixed(1)} s sampled)\n${top(byCategory, 20)}\n`,
  );
  process.stdout.write(`\nself time by function\n${top(byFunction, 25)}\n`);
}

async function main() {
  const route = (process.argv[2] ?? 'company') as Route;
  if (!ROUTES.includes(route)) throw new Error(`the route to profile: one of ${ROUTES.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'bp-profile-'));
  const empty = process.env.DATABASE_URL ? await emptyPgDatabase(process.env.DATABASE_URL) : undefined;
  try {
    const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, import.meta.filename], {
      env: {
        ...process.env,
        [CHILD]: '1',
        BENCH_DATA_DIR: dir,
        BENCH_DATABASE_URL: empty?.url ?? '',
        BENCH_PROFILE_ROUTE: route,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    const target = JSON.parse(String(first.value)) as Load;
    const args = [
      join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'autocannon.js'),
      '-c',
      '10',
      '-d',
      String(SECONDS),
      '-m',
      target.method,
      ...Object.entries(target.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      ...(target.body ? ['-b', target.body] : []),
      target.url,
    ];
    const load = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    await new Promise((resolve) => load.on('exit', resolve));
    child.kill('SIGINT');
    await exited;
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no profile was written');
    report(join(dir, file));
  } finally {
    await empty?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[CHILD]) await serve();
else await main();
