// Property: any sequence of buys, sells, returns and adjustments over three items (two average,
// one FIFO; one refusing negative stock), in any date order, keeps
//   * on hand (stock_balances) = Σ movements, per location, item and batch; months likewise;
//   * each cost pool = Σ its movements (quantity and value); a FIFO pool = its open layers;
//   * the valuation at any date = the inventory account's balance at that date, to the cent.
// One app; each run a fresh tenant (its own ledger). Refusals (409 INSUFFICIENT_STOCK) are
// part of the property: nothing of a refused adjustment remains.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import { post, systemAccount } from '../ledger/index.ts';
import { adjustRaw, stockProduct } from './stock.factories.ts';
import { moveStock } from './stock.move.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Op =
  | { kind: 'buy'; item: number; qty: number; cost: number; day: number }
  | { kind: 'sell'; item: number; qty: number; day: number }
  | { kind: 'return'; pick: number; qty: number; day: number };

const day = fc.integer({ min: 0, max: 150 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    item: fc.integer({ min: 0, max: 2 }),
    qty: fc.integer({ min: 1, max: 20 }),
    cost: fc.integer({ min: 1, max: 50_000 }).map((c) => c / 1000), // up to R50.000, three decimals
    day,
  }),
  fc.record({
    kind: fc.constant('sell' as const),
    item: fc.integer({ min: 0, max: 2 }),
    qty: fc.integer({ min: 1, max: 15 }),
    day,
  }),
  fc.record({
    kind: fc.constant('return' as const),
    pick: fc.nat(),
    qty: fc.integer({ min: 1, max: 5 }),
    day,
  }),
);

const dateOf = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);

test('random movements keep on hand = Σ movements and valuation = ledger', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { minLength: 1, maxLength: 10 }),
      fc.array(day, { minLength: 2, maxLength: 3 }),
      async (ops, checkDays) => {
        const r = await register(t.app, { plan: 'business' });
        const api = as(t.app, r.token, r.companyId);
        const items = [
          await stockProduct(t, api, r.tenantId),
          await stockProduct(t, api, r.tenantId, { costMethod: 'fifo' }),
          await stockProduct(t, api, r.tenantId, { allowNegative: false }),
        ];
        const outs: Array<{ id: string; productId: string; qty: number }> = [];
        for (const o of ops) {
          const date = dateOf(o.day);
          if (o.kind === 'return') {
            const orig = outs.length ? outs[o.pick % outs.length] : undefined;
            if (!orig) continue;
            const qty = Math.min(o.qty, orig.qty);
            await withTenant(t.database.db, r.tenantId, async (tx) => {
              const ctx = { db: tx, tenantId: r.tenantId };
              const entryId = crypto.randomUUID();
              const m = await moveStock(ctx, {
                companyId: r.companyId,
                productId: orig.productId,
                date,
                type: 'return_in',
                quantity: qty,
                reversesMovementId: orig.id,
                source: { type: 'test_return' },
                entryId,
                counterAccountId: await systemAccount(ctx, r.companyId, 'cost_of_sales'),
              });
              if (m.lines.length) {
                await post(ctx, {
                  companyId: r.companyId,
                  date,
                  description: 'Return',
                  source: { type: 'test_return' },
                  lines: m.lines,
                  entryId,
                });
              } else {
                // A return of nothing's worth posts nothing: its movement names no entry.
                await tx
                  .deleteFrom('stock_movements')
                  .where('tenant_id', '=', r.tenantId)
                  .where('entry_id', '=', entryId)
                  .execute();
                throw new Error('zero-value return');
              }
            }).catch((e: Error) => {
              if (e.message !== 'zero-value return') throw e;
            });
            continue;
          }
          const productId = items[o.item]!;
          const line =
            o.kind === 'buy'
              ? { productId, quantity: o.qty, unitCost: o.cost }
              : { productId, quantity: -o.qty };
          const res = await adjustRaw(api, date, [line]);
          if (res.statusCode === 409) {
            assert.equal(res.json().code, 'INSUFFICIENT_STOCK');
            continue;
          }
          if (res.statusCode === 400 && /moves no value/.test(res.body)) continue;
          assert.equal(res.statusCode, 201, res.body);
          if (o.kind === 'sell') {
            const m = res.json().movements[0];
            outs.push({ id: m.id, productId, qty: o.qty });
          }
        }
        await withTenant(t.database.db, r.tenantId, async (tx) => {
          const mismatches = await sqlChecks(tx, r.tenantId);
          assert.deepEqual(mismatches, [], JSON.stringify(ops));
        });
        for (const d of [...checkDays, 400]) {
          const v = await api({ method: 'GET', url: `/api/inventory/valuation?asOf=${dateOf(d)}` });
          assert.equal(v.statusCode, 200, v.body);
          assert.equal(v.json().difference, 0, `${dateOf(d)}: ${v.body} after ${JSON.stringify(ops)}`);
        }
      },
    ),
    { numRuns: 12, seed: Number(process.env.FC_SEED ?? 20_2026), endOnFailure: true },
  );
});

/** Rows where a running table disagrees with the movements; none when all is well. */
async function sqlChecks(tx: Tx, tenantId: string) {
  const r = await sql<{ what: string; k: string }>`
    with m as (
      select company_id, location_id, item_id, coalesce(batch_id, '00000000-0000-0000-0000-000000000000'::uuid) as batch_key,
             sum(quantity) as q, sum(value) as v
        from stock_movements where tenant_id = ${tenantId}
       group by 1, 2, 3, 4
    )
    select 'balance' as what, coalesce(b.item_id, m.item_id)::text as k
      from stock_balances b
      full join m on m.company_id = b.company_id and m.location_id = b.location_id and m.item_id = b.item_id and m.batch_key = b.batch_key
     where (b.tenant_id = ${tenantId} or b.tenant_id is null)
       and (coalesce(b.quantity, 0) <> coalesce(m.q, 0) or coalesce(b.value, 0) <> coalesce(m.v, 0))
    union all
    select 'month', mb.item_id::text from stock_month_balances mb
     where mb.tenant_id = ${tenantId}
       and (mb.quantity, mb.value) is distinct from (
         select row(coalesce(sum(quantity), 0), coalesce(sum(value), 0)) from stock_movements s
          where s.tenant_id = mb.tenant_id and s.company_id = mb.company_id and s.location_id = mb.location_id
            and s.item_id = mb.item_id and date_trunc('month', s.date)::date = mb.month)
    union all
    select 'pool', c.item_id::text from stock_costs c
     where c.tenant_id = ${tenantId}
       and (c.quantity, c.value) is distinct from (
         select row(coalesce(sum(quantity), 0), coalesce(sum(value), 0)) from stock_movements s
          where s.tenant_id = c.tenant_id and s.company_id = c.company_id and s.item_id = c.item_id)
    union all
    select 'fifo layers', c.item_id::text from stock_costs c
      join products p on p.tenant_id = c.tenant_id and p.id = c.product_id and p.cost_method = 'fifo'
     where c.tenant_id = ${tenantId} and c.quantity > 0
       and (c.quantity, c.value) is distinct from (
         select row(coalesce(sum(quantity_left), 0), coalesce(sum(value_left), 0)) from stock_layers l
          where l.tenant_id = c.tenant_id and l.company_id = c.company_id and l.item_id = c.item_id and l.quantity_left > 0)`.execute(
    tx,
  );
  return r.rows;
}
