// `node bench/reconciliation.ts`: reconciliation suggestions for a page of 50 bank lines against
// 10,000 open invoices, through the real route (GET /api/reconciliation/suggestions), with a
// baseline in the same run: GET /api/bank-accounts/{id} (one small read through the same
// request path: auth, tenant transaction, serialisation). Goal: the page in under 100 ms.
//
// On PGlite by default; on PostgreSQL when DATABASE_URL is set (a role that may create
// databases, as for the tests). The company: 500 customers, 10,000 released invoices of
// 115.00 × k (k = 1..500, so 20 invoices share each amount), seeded by cloning one invoice made
// through the API (its row, its entry and its entry's lines, so open items and balances come
// from the ledger's own triggers). The 50 bank lines: 25 of an amount some 20 invoices are due
// and a customer's name, 25 naming an invoice's number with another amount: none certain, so
// the import reconciles none and every line is in the page.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ingest } from '../src/modules/banking/banking.factories.ts';
import { invoiceOf, reconSetup } from '../src/modules/banking/reconciliation.factories.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import { as, register, startTestApp } from '../test/support/app.ts';
import { prepareSnapshot } from '../test/support/db.ts';

const INVOICES = Number(process.env.BENCH_RECON_INVOICES ?? 10_000);
const CUSTOMERS = 500;
const PAGE = 50;
const RUNS = Number(process.env.BENCH_RECON_RUNS ?? 30);
const GOAL_MS = 100;

/** Columns of a table, each as itself unless overridden by an SQL expression (seed row s, source row r). */
async function cloneColumns(
  tx: Parameters<Parameters<typeof withTenant>[2]>[0],
  table: string,
  over: Record<string, string>,
) {
  const cols = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
     where table_name = ${table} and table_schema = current_schema() order by ordinal_position`.execute(tx);
  const names = cols.rows.map((c) => c.column_name);
  return {
    into: names.map((n) => `"${n}"`).join(', '),
    select: names.map((n) => (n in over ? `${over[n]} as "${n}"` : `r."${n}"`)).join(', '),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { p50: median(ms), max: Math.max(...ms) };
}

const step = (what: string) => console.error(`${new Date().toISOString()} ${what}`);

async function main() {
  const started = performance.now();
  // The migrated database the tests start from (made again here: this branch's migrations).
  step('migrating');
  await prepareSnapshot();
  step('seeding');
  const t = await startTestApp({ jobsWork: false });
  try {
    const b = await register(t.app, { plan: 'business' });
    const r = await reconSetup(t, b);
    const model = await invoiceOf(r, 100); // 115.00: Dr debtors 115.00, Cr sales 100.00, Cr VAT 15.00
    await withTenant(t.database.db, b.tenantId, async (tx) => {
      await sql`create temp table seed_contacts as
        select g as n, gen_random_uuid() as id from generate_series(1, ${CUSTOMERS}) g`.execute(tx);
      const c = await cloneColumns(tx, 'contacts', {
        id: 's.id',
        name: `'Customer ' || lpad(s.n::text, 4, '0') || ' Trading'`,
        email: 'null',
      });
      await sql
        .raw(`insert into contacts (${c.into}) select ${c.select} from contacts r, seed_contacts s
               where r.id = '${r.sales.customerId}'`)
        .execute(tx);
      await sql`create temp table seed as
        select g as n, gen_random_uuid() as inv, gen_random_uuid() as je,
               (select id from seed_contacts where n = 1 + g % ${CUSTOMERS}) as contact,
               1 + g % 500 as k
          from generate_series(1, ${INVOICES}) g`.execute(tx);
      const i = await cloneColumns(tx, 'invoices', {
        id: 's.inv',
        number: `'B-' || lpad(s.n::text, 6, '0')`,
        contact_id: 's.contact',
      });
      await sql
        .raw(
          `insert into invoices (${i.into}) select ${i.select} from invoices r, seed s where r.id = '${model.id}'`,
        )
        .execute(tx);
      const e = await cloneColumns(tx, 'journal_entries', { id: 's.je', source_id: 's.inv' });
      await sql
        .raw(`insert into journal_entries (${e.into}) select ${e.select} from journal_entries r, seed s
               where r.source_type = 'invoice' and r.source_id = '${model.id}'`)
        .execute(tx);
      const l = await cloneColumns(tx, 'journal_lines', {
        id: 'gen_random_uuid()',
        entry_id: 's.je',
        debit: 'r.debit * s.k',
        credit: 'r.credit * s.k',
        open_item_id: `case when r.open_item_id is null then null else s.inv end`,
        contact_id: `case when r.contact_id is null then null else s.contact end`,
      });
      await sql
        .raw(`insert into journal_lines (${l.into}) select ${l.select} from journal_lines r
               join journal_entries m on m.tenant_id = r.tenant_id and m.id = r.entry_id, seed s
               where m.source_type = 'invoice' and m.source_id = '${model.id}'`)
        .execute(tx);
      await sql`analyze`.execute(tx).catch(() => undefined);
    });
    const open = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', b.tenantId)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow(),
    );
    assert.equal(Number(open.n), INVOICES + 1);
    const lines = Array.from({ length: PAGE }, (_, n) =>
      n % 2 === 0
        ? {
            date: '2026-04-03',
            amount: (115 * (1 + ((n * 7) % 500))).toFixed(2),
            description: `EFT CUSTOMER ${String(1 + n).padStart(4, '0')} TRADING`,
          }
        : {
            date: '2026-04-03',
            amount: '99.99',
            description: `PAYMENT B-${String(n * 97).padStart(6, '0')}`,
          },
    );
    step('importing the bank lines');
    await ingest(t, r, lines);
    step('timing');
    const seeded = (performance.now() - started) / 1000;
    const api = as(t.app, b.token, b.companyId);
    let answered = 0;
    const page = await timed(async () => {
      const res = await api({
        method: 'GET',
        url: `/api/reconciliation/suggestions?bankAccountId=${r.bankAccountId}&limit=${PAGE}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.items.length, PAGE);
      answered = body.items.reduce((n: number, x: { suggestions: unknown[] }) => n + x.suggestions.length, 0);
    });
    const base = await timed(async () => {
      const res = await api({ method: 'GET', url: `/api/bank-accounts/${r.bankAccountId}` });
      assert.equal(res.statusCode, 200, res.body);
    });
    const target = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(
      JSON.stringify(
        {
          target,
          invoices: INVOICES,
          customers: CUSTOMERS,
          page: PAGE,
          runs: RUNS,
          suggestionsAnswered: answered,
          suggestionsP50Ms: Number(page.p50.toFixed(1)),
          suggestionsMaxMs: Number(page.max.toFixed(1)),
          baselineP50Ms: Number(base.p50.toFixed(1)),
          ratio: Number((page.p50 / base.p50).toFixed(1)),
          goalMs: GOAL_MS,
          met: page.p50 < GOAL_MS,
          setupSeconds: Number(seeded.toFixed(1)),
        },
        null,
        2,
      ),
    );
  } finally {
    await t.close();
  }
}

await main();
