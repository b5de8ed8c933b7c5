// The stock valuation at a date: quantity and value per product (variant) and location at the end
// of asOf, re-derived from the running balances, and the inventory accounts' balance in the ledger
// at the same date, which it must equal (every movement's value posts to them in its transaction).
//
// It is worked back from now, not forward from the start: on hand now (stock_balances), less
// the months after asOf's month (stock_month_balances), less the movements of asOf's month
// dated after it. So the valuation at a recent date reads items × locations (plus the months
// after it), whatever the length of the history: the cost of history is never paid twice.

import { sql } from 'kysely';
import { nextMonthStart, todayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { money, sum, toNumber } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import { accountTotals } from '../ledger/index.ts';
import { apportionByQuantity } from './stock.apportion.ts';
import { assertLocation } from './stock.items.ts';

interface Row {
  location_id: string;
  item_id: string;
  product_id: string;
  quantity: string;
  value: string;
  sku: string;
  name: string;
}

export async function valuation(ctx: TenantCtx, q: { asOf?: string; locationId?: string }) {
  const companyId = companyOf(ctx);
  const asOf = q.asOf ?? todayOf(ctx.deps.now());
  if (q.locationId) await assertLocation(ctx, companyId, q.locationId);
  // The last month of the calendar has no next month to write: nothing is dated after it.
  const next = asOf >= '9999-12-01' ? '9999-12-31' : nextMonthStart(asOf);
  // Every location is read, also with a locationId: a location's value is its share of the
  // item's, by units (stock.apportion.ts), and the share needs the whole.
  const t = ctx.tenantId;
  const r = await sql<Row>`
    with x as (
      select location_id, item_id, product_id, quantity, value from stock_balances
       where tenant_id = ${t} and company_id = ${companyId}
      union all
      select location_id, item_id, product_id, -quantity, -value from stock_month_balances
       where tenant_id = ${t} and company_id = ${companyId} and month >= ${next}::date
      union all
      select location_id, item_id, product_id, -quantity, -value from stock_movements
       where tenant_id = ${t} and company_id = ${companyId} and date > ${asOf}::date and (date < ${next}::date or ${next}::date = '9999-12-31')
    ), g as materialized (
      select location_id, item_id, min(product_id::text)::uuid as product_id,
             sum(quantity) as quantity, sum(value) as value
        from x group by location_id, item_id
      having sum(quantity) <> 0 or sum(value) <> 0
    )
    select g.location_id, g.item_id, g.product_id, g.quantity, g.value,
           coalesce(v.sku, p.sku) as sku,
           case when v.id is null then p.name else p.name || ' (' || v.name || ')' end as name
      from g
      join products p on p.tenant_id = ${t} and p.id = g.product_id
      left join product_variants v on v.tenant_id = ${t} and v.id = g.item_id
     order by 6, g.item_id, g.location_id`.execute(ctx.db);
  const values = apportionByQuantity(
    r.rows.map((row) => ({ itemId: row.item_id, quantity: row.quantity, value: row.value })),
  );
  const held = r.rows
    .map((row, i) => ({ row, value: values[i]! }))
    .filter(({ row, value }) => !money(row.quantity).isZero() || !value.isZero())
    .filter(({ row }) => !q.locationId || row.location_id === q.locationId);
  const lines = held.map(({ row, value }) => ({
    productId: row.product_id,
    variantId: row.item_id === row.product_id ? null : row.item_id,
    sku: row.sku,
    name: row.name,
    locationId: row.location_id,
    quantity: toQuantity(row.quantity),
    value: toNumber(value),
  }));
  const value = sum(held.map((h) => h.value));
  const quantity = sum(held.map((h) => money(h.row.quantity)));
  const totals = await accountTotals(ctx.db, ctx.tenantId, companyId, { to: asOf });
  const ledger = sum(totals.filter((a) => a.subtype === 'inventory').map((a) => a.net));
  return {
    asOf,
    lines,
    totals: { quantity: toQuantity(quantity), value: toNumber(value) },
    ledgerBalance: toNumber(ledger),
    // With a location the ledger still holds every location: no difference is worked.
    difference: q.locationId ? null : toNumber(value.minus(ledger)),
  };
}
