// `node bench/inventory.ts`: stock on hand for a page of products and the valuation report of a
// company with 10,000 stock movements against one with 1,000,000, both over 10,000 products,
// through the real routes (GET /api/inventory/stock?limit=50, GET /api/inventory/valuation).
// Goal (issue 20): at 1,000,000 movements each is at most 2× its time at 10,000.
//
// On PGlite by default; on PostgreSQL when DATABASE_URL is set. Each company is seeded with
// set-based SQL: 10,000 tracked products, then movements made by generate_series in batches of
// 100,000 (a purchase of 2 at R10 or a sale of 1, over the 365 days of 2025), so the running
// tables (stock_balances, stock_month_balances) are kept by the movements' own statement
// trigger, as in use. No journal entries are seeded (the routes read the ledger's running
// balances, which are as small for both): the valuation's difference is not what is timed.
// One request at a time, the companies taking turns; the median after warm-up is reported.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { defaultLocation } from '../src/modules/inventory/stock.items.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import { as, register, startTestApp } from '../test/support/app.ts';
import { prepareSnapshot } from '../test/support/db.ts';

const PRODUCTS = 10_000;
const SIZES = (process.env.BENCH_INV_SIZES ?? '10000,1000000').split(',').map(Number);
const BATCH = 100_000;
const WARMUP = 3;
const RUNS = Number(process.env.BENCH_INV_RUNS ?? 15);

await prepareSnapshot();
const t = await startTestApp({ jobsWork: false });
const kind = t.database.kind;

interface Company {
  size: number;
  api: ReturnType<typeof as>;
  seedSeconds: number;
  balanceRows: number;
  monthRows: number;
  times: Record<string, number[]>;
}

const companies: Company[] = [];
for (const size of SIZES) {
  const r = await register(t.app, { plan: 'business' });
  const started = performance.now();
  await withTenant(t.database.db, r.tenantId, async (tx) => {
    const loc = await defaultLocation({ db: tx, tenantId: r.tenantId }, r.companyId);
    await sql`insert into products (tenant_id, id, sku, name, unit_price, is_tracked, reorder_point)
      select ${r.tenantId}::uuid, gen_random_uuid(), 'B-' || lpad(g::text, 5, '0'), 'Bench product ' || lpad(g::text, 5, '0'),
             10, true, 5
        from generate_series(0, ${PRODUCTS - 1}) g`.execute(tx);
    for (let from = 0; from < size; from += BATCH) {
      const to = Math.min(size, from + BATCH) - 1;
      await sql`with p as (
          select id, (row_number() over (order by sku) - 1)::int as rn from products where tenant_id = ${r.tenantId}::uuid)
        insert into stock_movements (tenant_id, id, company_id, location_id, product_id, item_id, date, type,
                                     quantity, unit_cost, value, source_type)
        select ${r.tenantId}::uuid, gen_random_uuid(), ${r.companyId}::uuid, ${loc}::uuid, p.id, p.id,
               date '2025-01-01' + ((g / ${PRODUCTS}) * 365 / greatest(1, ${Math.ceil(size / PRODUCTS)}))::int,
               case when g % 3 = 2 then 'sale' else 'purchase' end,
               case when g % 3 = 2 then -1 else 2 end, 10,
               case when g % 3 = 2 then -10 else 20 end, 'bench'
          from generate_series(${from}::int, ${to}::int) g
          join p on p.rn = g % ${PRODUCTS}`.execute(tx);
    }
  });
  const counts = await withTenant(t.database.db, r.tenantId, async (tx) => {
    const n = async (table: string) =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from ${sql.table(table)} where tenant_id = ${r.tenantId}::uuid`.execute(tx)
        ).rows[0]!.n,
      );
    return {
      movements: await n('stock_movements'),
      balances: await n('stock_balances'),
      months: await n('stock_month_balances'),
    };
  });
  assert.equal(counts.movements, size);
  companies.push({
    size,
    api: as(t.app, r.token, r.companyId),
    seedSeconds: (performance.now() - started) / 1000,
    balanceRows: counts.balances,
    monthRows: counts.months,
    times: {},
  });
  process.stderr.write(
    `seeded ${size} movements in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
if (kind === 'pg') await sql`analyze`.execute(t.database.db).catch(() => {});

const CALLS: Record<string, string> = {
  'on hand, a page of 50 products': '/api/inventory/stock?limit=50&page=3',
  'valuation at the last day (2025-12-31)': '/api/inventory/valuation?asOf=2025-12-31',
  'valuation mid-year (2025-06-30)': '/api/inventory/valuation?asOf=2025-06-30',
};
for (let i = 0; i < WARMUP + RUNS; i++) {
  for (const [label, url] of Object.entries(CALLS)) {
    for (const c of companies) {
      const s = performance.now();
      const res = await c.api({ method: 'GET', url });
      const ms = performance.now() - s;
      assert.equal(res.statusCode, 200, res.body);
      if (i < WARMUP) continue;
      c.times[label] = [...(c.times[label] ?? []), ms];
    }
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const lines = [
  `Inventory at scale on ${kind === 'pg' ? 'PostgreSQL' : 'PGlite'}, ${new Date().toISOString().slice(0, 16)} UTC; median of ${RUNS} after ${WARMUP} warm-ups`,
  '',
  `| call | ${companies.map((c) => `${c.size.toLocaleString('en')} movements ms`).join(' | ')} | ratio |`,
  `|---|${companies.map(() => '---:').join('|')}|---:|`,
  ...Object.keys(CALLS).map((label) => {
    const ms = companies.map((c) => median(c.times[label]!));
    return `| ${label} | ${ms.map((m) => m.toFixed(1)).join(' | ')} | **${(ms.at(-1)! / ms[0]!).toFixed(2)}** |`;
  }),
  '',
  ...companies.map(
    (c) =>
      `- ${c.size.toLocaleString('en')} movements: seeded in ${c.seedSeconds.toFixed(1)} s; ${c.balanceRows} stock_balances rows, ${c.monthRows} stock_month_balances rows`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
await t.close();
