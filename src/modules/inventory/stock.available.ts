// Is there stock to take out on a date? A movement dated in the past changes on hand from that
// date on, not only now: a sale back-dated before the goods came in, or one that takes what a
// later sale already took, would leave the location below zero at some date of its valuation
// even though there is enough now (issue 34). So what goes out must be on hand at its own date
// and at every later movement's date: the lowest running balance from that date on, per
// location and batch, as moveStock keeps stock.
//
// One query, never a loop over the movements: the balance now (stock_balances, kept by trigger)
// less what moved after the date gives the balance at the date; the later dates' balances are
// that plus a running sum over the later movements (by day: a day's movements count together,
// as the valuation at a date counts them). It reads the movements after the date only, through
// stock_movements_by_item (tenant, company, item, date, seq), so checking today's sale reads none.
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import type { LedgerCtx } from '../ledger/index.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'> | Pick<TenantCtx, 'db' | 'tenantId'>;

const NIL = '00000000-0000-0000-0000-000000000000';

export interface Taking {
  companyId: string;
  locationId: string;
  itemId: string;
  batchId: string | null;
  /** The movement's date. */
  date: string;
  /** What goes out (positive). */
  out: Decimal;
  /** The item's name, for the refusal. */
  name: string;
  /** The body field a refusal names (e.g. `lines[2].productId`). */
  field: string;
}

/**
 * The lowest on hand at the location (and batch) from `date` on, before this movement: at `date`
 * itself, then after each later day's movements; answers it and the first day it is reached.
 */
export async function lowestFrom(
  ctx: Ctx,
  t: Omit<Taking, 'out' | 'name' | 'field'>,
): Promise<{ date: string; quantity: Decimal }> {
  const r = await sql<{ day: string; low: string }>`
    with later as (
      select date, sum(quantity) as q from stock_movements
       where tenant_id = ${ctx.tenantId} and company_id = ${t.companyId} and item_id = ${t.itemId}
         and location_id = ${t.locationId} and batch_id is not distinct from ${t.batchId}::uuid
         and date > ${t.date}::date
       group by date
    ), base as (
      select coalesce((select quantity from stock_balances
                        where tenant_id = ${ctx.tenantId} and company_id = ${t.companyId}
                          and location_id = ${t.locationId} and item_id = ${t.itemId}
                          and batch_key = ${t.batchId ?? NIL}::uuid), 0)
           - coalesce((select sum(q) from later), 0) as b
    ), points as (
      select ${t.date}::date as date, b as bal from base
      union all
      select l.date, base.b + sum(l.q) over (order by l.date) from later l cross join base
    )
    select to_char(p.date, 'YYYY-MM-DD') as day, p.bal::text as low from points p
     order by p.bal, p.date limit 1`.execute(ctx.db);
  const row = r.rows[0]!;
  return { date: row.day, quantity: money(row.low) };
}

/**
 * 409 INSUFFICIENT_STOCK naming `field` unless `out` can leave the location on `date` with on
 * hand at zero or more then and at every later date.
 */
export async function assertAvailableThrough(ctx: Ctx, t: Taking): Promise<void> {
  const low = await lowestFrom(ctx, t);
  if (!low.quantity.lessThan(t.out)) return;
  const detail =
    low.date === t.date
      ? `${t.name}: ${low.quantity.toString()} on hand there on ${t.date}, ${t.out.toString()} asked`
      : `${t.name}: ${t.out.toString()} taken on ${t.date} would leave ${low.quantity.minus(t.out).toString()} ` +
        `there on ${low.date}, after the movements dated since (stock is checked at the date and every later date)`;
  throw conflict(detail, { code: 'INSUFFICIENT_STOCK', field: t.field });
}
