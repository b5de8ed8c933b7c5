// `npm run bench`, section "Reports at scale": the trial balance and the income statement of a
// company with few journal lines against one with many, through the real routes.
//
// Each company is seeded with set-based SQL: entries and their lines made by generate_series in
// large batches (every line of an entry in the same INSERT as its siblings, as the statement
// triggers that check balance and keep the running balances require), inside a transaction
// whose app.tenant_id is set (row-level security is forced even on the tables' owner). Entries
// balance (a debit and a credit of the same amount), spread over three years of days and the
// default chart's ordinary accounts (the control accounts of debtors, creditors, inventory and
// customer deposits left out: their open items are not what these reports read).
//
// Then, over HTTP to the listening app with the owner's token, one request at a time, the companies
// taking turns request by request (so that other work on the machine weighs on each alike), each
// report is asked for after warm-up rounds; the median is reported, and the ratio of the
// large company's median to the small one's. For contrast, the same trial balance summed from
// journal_lines (what the running balances spare) is timed once per company.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp, wireDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { addDays, todayOf } from '../src/platform/dates/days.ts';
import type { Database } from '../src/platform/db/connect.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { sha256 } from '../test/support/app.ts';

/** Three years of days. */
const DAYS = 1096;
/** Entries per INSERT statement (two lines each). */
const BATCH_ENTRIES = Number(process.env.BENCH_BATCH_ENTRIES ?? 10_000);
const WARMUP = 5;
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 40);
const PASSWORD = 'bench password';

export interface ReportTarget {
  label: string;
  database: Database;
}

export interface Timing {
  median: number;
  p90: number;
  min: number;
}

export interface CompanyResult {
  lines: number;
  entries: number;
  seedSeconds: number;
  /** Rows of the running balances the company ended with. */
  dailyRows: number;
  monthRows: number;
  trialBalance: Timing;
  incomeStatement: Timing;
  /** The same trial balance summed from journal_lines, once (ms). */
  fromLines: number;
}

export interface ReportsResult {
  label: string;
  accounts: number;
  companies: CompanyResult[];
  note?: string;
}

const PGLITE_NOTE =
  'PGlite measures 10 000 against 100 000 lines: seeding 1 000 000 lines into the embedded database ' +
  'takes several minutes (measured: 2.5–3 s per 20 000 lines for the first 400 000, then 7–18 s per ' +
  '20 000 on this shared machine), so the 1 000 000-line company is measured on PostgreSQL (below). ' +
  '`BENCH_REPORT_SIZES=10000,1000000` runs it here too.';

/**
 * Journal lines of the companies measured: 10 000 and 1 000 000 on PostgreSQL, 10 000 and
 * 100 000 on PGlite (where seeding a million lines takes too long for a routine run).
 * BENCH_REPORT_SIZES (e.g. "10000,1000000") overrides both.
 */
export function reportSizes(kind: Database['kind']): { sizes: number[]; note?: string } {
  const given = process.env.BENCH_REPORT_SIZES;
  if (given)
    return { sizes: given.split(',').map(Number), note: `Sizes set by BENCH_REPORT_SIZES=${given}.` };
  return kind === 'pglite' ? { sizes: [10_000, 100_000], note: PGLITE_NOTE } : { sizes: [10_000, 1_000_000] };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** Seeds `lines` journal lines (lines / 2 balanced entries) into the company. */
export async function seed(
  database: Database,
  tenantId: string,
  companyId: string,
  lines: number,
  firstDay: string,
): Promise<{ seconds: number; accounts: number }> {
  const started = performance.now();
  const entries = Math.floor(lines / 2);
  const accounts = await withTenant(database.db, tenantId, (tx) =>
    tx
      .selectFrom('accounts')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('company_id', '=', companyId)
      .where('is_control', '=', false)
      .orderBy('code')
      .execute(),
  );
  const ids = `{${accounts.map((a) => a.id).join(',')}}`;
  const n = accounts.length;
  // Deterministic ids, so that the lines find their entry: md5 of the company and the number.
  const salt = companyId;
  for (let lo = 1; lo <= entries; lo += BATCH_ENTRIES) {
    const hi = Math.min(entries, lo + BATCH_ENTRIES - 1);
    // The login role owns the tables; row-level security is forced on owners too, so the
    // tenant is set for the transaction.
    const t0 = performance.now();
    let t1 = 0;
    let t2 = 0;
    await database.db.transaction().execute(async (tx) => {
      await sql`select set_config('app.tenant_id', ${tenantId}, true)`.execute(tx);
      await sql`
        insert into journal_entries (tenant_id, id, company_id, date, description, reference, source_type)
        select ${tenantId}::uuid, md5(${salt} || 'e' || g)::uuid, ${companyId}::uuid,
               ${firstDay}::date + (g % ${DAYS})::int, 'Bench entry ' || g, 'B-' || g, 'bench'
          from generate_series(${lo}::bigint, ${hi}::bigint) g`.execute(tx);
      t1 = performance.now();
      // One statement for the batch's lines: every entry's two lines go in together.
      await sql`
        insert into journal_lines (tenant_id, id, entry_id, line_no, company_id, date, account_id, debit, credit)
        select ${tenantId}::uuid, md5(${salt} || 'l' || g || '-' || k)::uuid, md5(${salt} || 'e' || g)::uuid, k,
               ${companyId}::uuid, ${firstDay}::date + (g % ${DAYS})::int,
               (${ids}::uuid[])[(1 + case k when 1 then (g * 31) % ${n} else ((g * 31) % ${n} + 1 + g % ${n - 1}) % ${n} end)::int],
               case k when 1 then ((g * 7919) % 100000 + 1) / 100.0 else 0 end,
               case k when 2 then ((g * 7919) % 100000 + 1) / 100.0 else 0 end
          from generate_series(${lo}::bigint, ${hi}::bigint) g cross join generate_series(1, 2) k`.execute(
        tx,
      );
      t2 = performance.now();
    });
    if (process.env.BENCH_DEBUG)
      process.stdout.write(
        `  batch ${lo}-${hi}: entries ${(t1 - t0).toFixed(0)} ms, lines ${(t2 - t1).toFixed(0)} ms, commit ${(performance.now() - t2).toFixed(0)} ms\n`,
      );
  }
  // Fresh statistics, as autovacuum would gather after a bulk load on PostgreSQL (PGlite has
  // no autovacuum; the report queries do not depend on them, see ledger/balances.ts).
  await sql`analyze journal_entries, journal_lines, account_balances, account_month_balances, cash_flow_balances`.execute(
    database.db,
  );
  return { seconds: (performance.now() - started) / 1000, accounts: n };
}

function summary(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p90: sorted[Math.floor(sorted.length * 0.9)]!,
    min: sorted[0]!,
  };
}

async function getOk(url: string, token: string, companyId: string): Promise<void> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'x-company-id': companyId } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
}

async function countRows(database: Database, tenantId: string, companyId: string) {
  return withTenant(database.db, tenantId, async (tx) => {
    const r = await sql<{ daily: number; months: number; lines: number }>`
      select (select count(*) from account_balances where tenant_id = ${tenantId} and company_id = ${companyId})::int as daily,
             (select count(*) from account_month_balances where tenant_id = ${tenantId} and company_id = ${companyId})::int as months,
             (select count(*) from journal_lines where tenant_id = ${tenantId} and company_id = ${companyId})::int as lines`.execute(
      tx,
    );
    return r.rows[0]!;
  });
}

/** The trial balance the naive way: every line of the company summed per account. */
async function fromLines(database: Database, tenantId: string, companyId: string): Promise<number> {
  const t0 = performance.now();
  await withTenant(database.db, tenantId, (tx) =>
    sql`select account_id, sum(debit) as debit, sum(credit) as credit from journal_lines
         where tenant_id = ${tenantId} and company_id = ${companyId} group by account_id`.execute(tx),
  );
  return performance.now() - t0;
}

/**
 * Seeds one company per size in a new tenant of the target's database and times the two
 * reports on each. `sizes` are numbers of journal lines, smallest first.
 */
export async function benchReports(
  target: ReportTarget,
  sizes: number[],
  note?: string,
): Promise<ReportsResult> {
  const config = {
    ...loadConfig({ JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', DATA_DIR: '/tmp' }),
    logLevel: 'silent',
  };
  const mailer = createMailer(undefined, config.mailFrom, pino({ level: 'silent' }));
  const app = await buildApp(
    wireDeps({
      config,
      database: target.database,
      mailer,
      jobs: createJobs({ database: target.database, log: pino({ level: 'silent' }) }),
      now: () => new Date(),
    }),
  );
  const url = await listen(app);
  const email = `reports.${Date.now()}@example.co.za`;
  const reg = await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenantName: 'Reports bench (Pty) Ltd',
      name: 'Bench',
      email,
      password: sha256(PASSWORD),
      plan: 'enterprise',
      companyName: `Bench ${sizes[0]} lines`,
    }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { accessToken, tenantId, companyId } = (await reg.json()) as {
    accessToken: string;
    tenantId: string;
    companyId: string;
  };
  const companies = [companyId];
  for (const size of sizes.slice(1)) {
    const res = await fetch(`${url}/api/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ name: `Bench ${size} lines` }),
    });
    if (res.status !== 201) throw new Error(`company: ${res.status} ${await res.text()}`);
    companies.push(((await res.json()) as { id: string }).id);
  }
  // Three years of days up to yesterday.
  const firstDay = addDays(todayOf(new Date()), -DAYS);
  // Seed every company first, then measure them interleaved: request by request the companies
  // take turns, so that other work on the machine weighs on each alike.
  const seeded: Array<Omit<CompanyResult, 'trialBalance' | 'incomeStatement' | 'fromLines'>> = [];
  let accounts = 0;
  for (const [i, size] of sizes.entries()) {
    const company = companies[i]!;
    process.stdout.write(`${target.label}: seeding ${size} lines ...`);
    const done = await seed(target.database, tenantId, company, size, firstDay);
    accounts = done.accounts;
    const rows = await countRows(target.database, tenantId, company);
    if (rows.lines !== size - (size % 2)) throw new Error(`seeded ${rows.lines} lines, not ${size}`);
    process.stdout.write(
      ` ${done.seconds.toFixed(1)} s (${rows.daily} daily, ${rows.months} monthly rows)\n`,
    );
    seeded.push({
      lines: rows.lines,
      entries: Math.floor(size / 2),
      seedSeconds: done.seconds,
      dailyRows: rows.daily,
      monthRows: rows.months,
    });
  }
  const token = await login(url, email);
  const reports = ['trial-balance', 'income-statement'] as const;
  const samples = companies.map(() => ({
    'trial-balance': [] as number[],
    'income-statement': [] as number[],
  }));
  for (let run = -WARMUP; run < RUNS; run++) {
    for (const report of reports) {
      for (const [i, company] of companies.entries()) {
        const t0 = performance.now();
        await getOk(`${url}/api/reports/${report}`, token, company);
        if (run >= 0) samples[i]![report].push(performance.now() - t0);
      }
    }
  }
  const results: CompanyResult[] = [];
  for (const [i, company] of companies.entries()) {
    const naive = await fromLines(target.database, tenantId, company);
    const result: CompanyResult = {
      ...seeded[i]!,
      trialBalance: summary(samples[i]!['trial-balance']),
      incomeStatement: summary(samples[i]!['income-statement']),
      fromLines: naive,
    };
    process.stdout.write(
      `  ${result.lines} lines: trial balance median ${ms(result.trialBalance.median)} ms, income statement ${ms(result.incomeStatement.median)} ms; summing the lines ${ms(naive)} ms\n`,
    );
    results.push(result);
  }
  await app.close();
  mailer.close();
  return { label: target.label, accounts, companies: results, ...(note ? { note } : {}) };
}

/** A new access token (they last 15 minutes; seeding a large company may take longer). */
async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: sha256(PASSWORD) }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

const ms = (n: number) => n.toFixed(1);
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** The RESULTS.md section. */
export function reportsSection(results: ReportsResult[]): string {
  const lines: string[] = [
    '## Reports at scale',
    '',
    'The trial balance (as of today) and the income statement (this financial year to today) through the ' +
      `real routes, one request at a time over HTTP, the companies taking turns request by request; median of ${RUNS} after ${WARMUP} warm-up rounds; ` +
      'each company seeded with balanced two-line entries spread over three years of days and the default ' +
      'chart’s ordinary accounts. "Summing the lines" is the same trial balance as one query over ' +
      'journal_lines (what the running balances spare the reports), timed once.',
    '',
  ];
  for (const r of results) {
    lines.push(`### ${r.label}`, '');
    if (r.note) lines.push(r.note, '');
    lines.push(
      `Accounts posted to: ${r.accounts}.`,
      '',
      '| journal lines | seeded in | daily balance rows | monthly rows | trial balance ms (median / p90) | income statement ms (median / p90) | summing the lines ms |',
      '|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const c of r.companies) {
      lines.push(
        `| ${count(c.lines)} | ${c.seedSeconds.toFixed(1)} s | ${c.dailyRows} | ${c.monthRows} | ${ms(c.trialBalance.median)} / ${ms(c.trialBalance.p90)} | ${ms(c.incomeStatement.median)} / ${ms(c.incomeStatement.p90)} | ${ms(c.fromLines)} |`,
      );
    }
    const small = r.companies[0]!;
    lines.push('');
    for (const large of r.companies.slice(1)) {
      const tb = large.trialBalance.median / small.trialBalance.median;
      const is = large.incomeStatement.median / small.incomeStatement.median;
      const goal = Math.max(tb, is) <= 2 ? 'within the goal of 2' : 'over the goal of 2';
      lines.push(
        `- **${count(large.lines)} / ${count(small.lines)} lines: trial balance ${tb.toFixed(2)}, income statement ${is.toFixed(2)}** (${goal}); summing the lines instead: ${(large.fromLines / small.fromLines).toFixed(1)}.`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
