// `node bench/bank-import.ts`: a 50,000-row bank statement (an FNB-shaped CSV) imported through
// the real route, POST /api/bank-statements over HTTP (multipart), first as a preview, then
// written; against a baseline in the same run: the same 50,000 rows as bare multi-row INSERTs
// (2,000 rows a statement, as writeIngest sends them) in one transaction. Embedded PGlite by
// default; PostgreSQL when DATABASE_URL is set (a fresh database, dropped after).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connect, type Database } from '../src/platform/db/connect.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import { encodeMultipart } from '../src/platform/http/multipart.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { sha256 } from '../test/support/app.ts';
import { emptyPgDatabase } from '../test/support/db.ts';
import { listen } from './support.ts';

const ROWS = Number(process.env.BANK_ROWS ?? 50_000);
const PER_DAY = 100;

/** An FNB export of ROWS lines, PER_DAY a day from 2024-01-01, balances running; pairs of identical rows. */
function statementCsv(): { csv: string; rows: Array<{ date: string; cents: number; description: string }> } {
  const out = [
    "2,'62812345678','Gold Business Account'",
    "3,'Transactions'",
    'Date,Amount,Balance,Description',
  ];
  const rows: Array<{ date: string; cents: number; description: string }> = [];
  let balance = 1_000_000_00;
  let seed = 17;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < ROWS; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / PER_DAY) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    // Every tenth row repeats the one before: two genuine identical lines of a day.
    const repeat = i % 10 === 1;
    const cents = repeat ? rows[i - 1]!.cents : (rand() % 2 ? 1 : -1) * (100 + (rand() % 500_000));
    const description = repeat ? rows[i - 1]!.description : `POS PURCHASE SHOP ${rand() % 1000}`;
    balance += cents;
    rows.push({ date: day, cents, description });
    out.push(
      `${day.replace(/-/g, '/')},${(cents / 100).toFixed(2)},${(balance / 100).toFixed(2)},${description}`,
    );
  }
  return { csv: `${out.join('\n')}\n`, rows };
}

async function target(): Promise<{ database: Database; label: string; cleanup(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const empty = await emptyPgDatabase(url);
    const database = await connect({ databaseUrl: empty.url, poolSize: 10 });
    await migrate(database);
    return {
      database,
      label: 'PostgreSQL (local server)',
      async cleanup() {
        await database.close();
        await empty.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bp-bank-bench-'));
  const database = await connect({ dataDir: dir });
  await migrate(database);
  return {
    database,
    label: 'embedded PGlite (DATA_DIR on disk)',
    async cleanup() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const t = await target();
const config = {
  ...loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: '/tmp' }),
  logLevel: 'silent',
};
const log = pino({ level: 'silent' });
const app = await buildApp(
  wireDeps({
    config,
    database: t.database,
    mailer: createMailer(undefined, config.mailFrom, log),
    jobs: createJobs({ database: t.database, log }),
    now: () => new Date(),
  }),
);
const url = await listen(app);
const reg = await fetch(`${url}/auth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    tenantName: 'Bank import bench (Pty) Ltd',
    name: 'Bench',
    email: `bank.${Date.now()}@example.co.za`,
    password: sha256('bench-password-1'),
    plan: 'enterprise',
    companyName: 'Bank import bench',
  }),
});
if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
const { accessToken, tenantId, companyId } = (await reg.json()) as Record<string, string>;
const auth = { authorization: `Bearer ${accessToken}`, 'x-company-id': companyId! };
const account = async (name: string) => {
  const res = await fetch(`${url}/api/bank-accounts`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, bank: 'fnb' }),
  });
  if (res.status !== 201) throw new Error(`bank account: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
};
const bankAccountId = await account('FNB Business Cheque');
const baselineAccountId = await account('Baseline');

const { csv, rows } = statementCsv();
const bytes = Buffer.from(csv);

async function post(preview: boolean) {
  // Encoded before the clock starts: the server's work is measured, not the client's.
  const { payload, headers } = encodeMultipart({ bankAccountId, preview: String(preview), file: bytes });
  const t0 = performance.now();
  const res = await fetch(`${url}/api/bank-statements`, {
    method: 'POST',
    headers: { ...auth, ...headers },
    body: payload,
  });
  const body = (await res.json()) as { rowsNew: number; rowsDuplicate: number; balance: { status: string } };
  const ms = performance.now() - t0;
  const want = preview ? 200 : 201;
  if (res.status !== want || body.rowsNew !== ROWS || body.balance.status !== 'ok')
    throw new Error(`import (preview ${preview}): ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
  return ms;
}

/** A statement row of the baseline account, for its lines to name (as the import's do). */
async function baselineStatement(): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, tenantId!, (tx) =>
    tx
      .insertInto('bank_statements')
      .values({
        tenant_id: tenantId!,
        id,
        company_id: companyId!,
        bank_account_id: baselineAccountId,
        source: 'file',
      })
      .execute(),
  );
  return id;
}

/** The baseline's rows: every column the import writes, the running balance and statement included. */
function baselineRows(statementId: string) {
  const seq = new Map<string, number>();
  let balance = 1_000_000_00;
  return rows.map((r, i) => {
    const key = `${r.date}|${r.cents}`;
    const n = (seq.get(key) ?? 0) + 1;
    seq.set(key, n);
    balance += r.cents;
    return {
      tenant_id: tenantId!,
      id: crypto.randomUUID(),
      company_id: companyId!,
      bank_account_id: baselineAccountId,
      date: r.date,
      value_date: null,
      amount: (r.cents / 100).toFixed(2),
      description: r.description,
      reference: null,
      payee: null,
      external_id: null,
      running_balance: (balance / 100).toFixed(2),
      source: 'file' as const,
      statement_id: statementId,
      source_line: i + 4,
      sequence: n,
      pending: false,
    };
  });
}

/** The floor: the same rows as bare multi-row INSERTs (2,000 a statement) in one transaction. */
async function baseline() {
  const values = baselineRows(await baselineStatement());
  const t0 = performance.now();
  await withTenant(t.database.db, tenantId!, async (tx) => {
    for (let i = 0; i < values.length; i += 2000)
      await tx
        .insertInto('bank_transactions')
        .values(values.slice(i, i + 2000))
        .execute();
  });
  return performance.now() - t0;
}

const previewMs = await post(true);
const writeMs = await post(false);
const baseMs = await baseline();
const us = (ms: number) => ((ms * 1000) / ROWS).toFixed(1);
const s = (ms: number) => (ms / 1000).toFixed(2);
const line = (what: string, ms: number) => `| ${what} | ${s(ms)} | ${us(ms)} | ${(ms / baseMs).toFixed(2)} |`;
process.stdout.write(
  [
    `Bank statement import, ${ROWS.toLocaleString('en')} rows (${(bytes.length / 1024 / 1024).toFixed(1)} MiB CSV), ${t.label}, Node ${process.version}`,
    '',
    '| | seconds | µs per row | × baseline |',
    '|---|---:|---:|---:|',
    line('POST /api/bank-statements preview=true (parse, plan, answer)', previewMs),
    line('POST /api/bank-statements (parse, lock, plan, write, answer)', writeMs),
    line('baseline: bare multi-row INSERTs of the same rows, one transaction', baseMs),
    '',
  ].join('\n'),
);
await app.close();
await t.cleanup();
