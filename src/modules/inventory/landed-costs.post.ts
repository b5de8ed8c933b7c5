// Posting a landed cost. For each receipt, its share splits by how much of what it brought in
// is still on hand: that part raises the stock's cost (a landed_cost movement of quantity 0
// through moveStock, which raises the company's pool; for FIFO the receipt's own layer is
// raised too), the part for units already sold goes to cost of sales. The other side is the
// bill lines' accounts, where the charge was booked when the bill was approved: one entry,
// Dr inventory (+ Dr cost of sales) Cr each bill line's account.
//
// Still on hand: FIFO knows it exactly (the receipt's layer, quantity left ÷ quantity in).
// The average method keeps no units apart, so the receipt counts as on hand up to what the
// company holds of the item now (all of it while at least its quantity is on hand).
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { cents, money, toSql, ZERO } from '../../platform/money/money.ts';
import { ledgerCtxOf, type PostingLine, post } from '../ledger/index.ts';
import { findLandedCost, landedCostRecord } from './landed-costs.service.ts';
import { costOfSalesAccount, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

interface Receipt {
  movement_id: string;
  amount: string;
  product_id: string;
  variant_id: string | null;
  item_id: string;
  location_id: string;
  batch_id: string | null;
  serial_id: string | null;
  quantity: string;
}

/** The fraction of the receipt still on hand (0 to 1), and its FIFO layer if it has one. */
async function onHandFraction(ctx: TenantCtx, companyId: string, r: Receipt, fifo: boolean) {
  const q = money(r.quantity);
  if (fifo) {
    const layer = await ctx.db
      .selectFrom('stock_layers')
      .select(['id', 'quantity_left'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('movement_id', '=', r.movement_id)
      .forUpdate()
      .executeTakeFirst();
    if (!layer) return { fraction: ZERO, layerId: null };
    return { fraction: money(layer.quantity_left).dividedBy(q), layerId: layer.id };
  }
  const pool = await ctx.db
    .selectFrom('stock_costs')
    .select('quantity')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('item_id', '=', r.item_id)
    .executeTakeFirst();
  const held = money(pool?.quantity ?? 0);
  const fraction = held.lessThanOrEqualTo(0)
    ? ZERO
    : held.greaterThanOrEqualTo(q)
      ? money(1)
      : held.dividedBy(q);
  return { fraction, layerId: null };
}

export async function postLandedCost(ctx: TenantCtx, id: string) {
  const row = await findLandedCost(ctx, id, true);
  if (row.status !== 'draft')
    throw conflict('The landed cost is posted already', { code: 'LANDED_COST_POSTED' });
  const companyId = row.company_id;
  const entryId = crypto.randomUUID();
  const receipts = await sql<Receipt>`
    select a.movement_id, a.amount::text as amount, m.product_id, m.variant_id, m.item_id, m.location_id,
           m.batch_id, m.serial_id, m.quantity::text as quantity
      from landed_cost_allocations a
      join stock_movements m on m.tenant_id = a.tenant_id and m.id = a.movement_id
     where a.tenant_id = ${ctx.tenantId} and a.landed_cost_id = ${id}
     order by m.date, m.created_at, m.id`.execute(ctx.db);
  const lines: PostingLine[] = [];
  for (const r of receipts.rows) {
    const share = money(r.amount);
    if (share.isZero()) continue;
    const item = await stockItem(ctx, r.product_id, r.variant_id);
    const { fraction, layerId } = await onHandFraction(ctx, companyId, r, item.costMethod === 'fifo');
    const kept: Decimal = fraction.greaterThanOrEqualTo(1) ? share : cents(share.times(fraction));
    const sold = share.minus(kept);
    if (kept.greaterThan(0)) {
      if (layerId)
        await sql`update stock_layers set value_left = value_left + ${toSql(kept)}::numeric
                   where tenant_id = ${ctx.tenantId} and id = ${layerId}`.execute(ctx.db);
      const moved = await moveStock(ctx, {
        companyId,
        locationId: r.location_id,
        productId: r.product_id,
        variantId: r.variant_id,
        batchId: r.batch_id,
        serialId: r.serial_id,
        date: row.date,
        type: 'landed_cost',
        quantity: 0,
        value: kept,
        source: { type: 'landed_cost', id, lineId: r.movement_id },
        entryId,
        item,
      });
      lines.push(...moved.lines);
    }
    if (sold.greaterThan(0))
      lines.push({
        accountId: await costOfSalesAccount(ctx, companyId, item),
        debit: sold,
        description: `${item.name}: landed cost on units sold`,
      });
  }
  const charges = await sql<{ account_id: string; amount: string; description: string }>`
    select l.account_id, c.amount::text as amount, l.description
      from landed_cost_charges c join bill_lines l on l.tenant_id = c.tenant_id and l.id = c.bill_line_id
     where c.tenant_id = ${ctx.tenantId} and c.landed_cost_id = ${id}
     order by c.id`.execute(ctx.db);
  for (const c of charges.rows)
    lines.push({
      accountId: c.account_id,
      credit: money(c.amount),
      description: `Landed cost: ${c.description}`,
    });
  await post(ledgerCtxOf(ctx), {
    companyId,
    date: row.date,
    description: row.description ? `Landed cost: ${row.description}` : 'Landed cost',
    source: { type: 'landed_cost', id },
    entryId,
    lines,
  });
  const updated = await ctx.db
    .updateTable('landed_costs')
    .set({ status: 'posted', entry_id: entryId })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return landedCostRecord(ctx, updated);
}
