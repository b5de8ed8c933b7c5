// One leg of a stock transfer: a quantity out of one location of the company and into another,
// as two movements (transfer_out, transfer_in) of equal and opposite value, written together.
//
// A transfer is neither a purchase nor a sale of the company (IAS 2.25: one cost formula for the
// entity, and a location is no reason for another), so it leaves the company's cost alone: the
// pool (stock_costs) and the FIFO layers keep their quantities, dates and costs. Moving the
// goods through moveStock, as before issue 34, took each leg out of the oldest layers and put it
// back as a new layer dated the transfer, so a later sale took the dearer layers first.
//
// The value the two movements carry only splits the company's value between its locations
// (the valuation by location): the units leave at what they stood at where they leave, that
// location's value pro rata (all of it when all its units leave, so no cent is stranded there);
// a leg out of transit carries exactly what the leg into transit carried (`value`), so the
// transit location ends at 0 units and R0.00 whatever the pool did meanwhile.
import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, money } from '../../platform/money/money.ts';
import { assertAvailableThrough } from './stock.available.ts';
import { type StockItem, stockItem } from './stock.items.ts';
import { insertMovement, lockPool, moveSerial, NIL, type Pool, type StockMove } from './stock.move.ts';

export interface TransferLeg {
  companyId: string;
  from: string;
  to: string;
  productId: string;
  variantId: string | null;
  batchId: string | null;
  serialId: string | null;
  date: string;
  /** What moves, in base units (more than 0). */
  quantity: Decimal;
  /** The value it carries; default what it stands at in `from`. */
  value?: Decimal;
  /** Out of transit: already checked when it left its warehouse. */
  fromTransit: boolean;
  source: StockMove['source'];
  /** The body field a refusal names. */
  field: string;
  item?: StockItem;
}

/** Moves a leg and answers the value it carried (positive). */
export async function transferStock(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  t: TransferLeg,
): Promise<Decimal> {
  const item = t.item ?? (await stockItem(ctx, t.productId, t.variantId, `${t.field}.productId`));
  const field = `${t.field}.quantity`;
  if (!item.isTracked) throw badRequest(`${t.field}.productId`, `${item.name} is not tracked in stock`);
  if (item.tracking === 'batch' && !t.batchId) throw badRequest(field, `${item.name} needs a batch`);
  if (item.tracking === 'serial' && !t.serialId)
    throw badRequest(field, `${item.name} needs a serial number`);
  if (!t.quantity.greaterThan(0)) throw badRequest(field, 'must be more than 0');
  // The pool's lock makes every movement of the item in the company take turns, this one too.
  const pool = await lockPool(ctx, t.companyId, item);
  const move: StockMove = {
    companyId: t.companyId,
    productId: item.productId,
    variantId: item.variantId,
    batchId: t.batchId,
    serialId: t.serialId,
    date: t.date,
    type: 'transfer_out',
    quantity: t.quantity.negated(),
    source: t.source,
    field,
    item,
  };
  if (item.tracking === 'serial') {
    await moveSerial(ctx, move, t.from, t.quantity.negated(), field);
    await moveSerial(ctx, move, t.to, t.quantity, field);
  }
  if (!t.fromTransit && !item.allowNegative)
    await assertAvailableThrough(ctx, {
      companyId: t.companyId,
      locationId: t.from,
      itemId: item.itemId,
      batchId: t.batchId,
      date: t.date,
      out: t.quantity,
      name: item.name,
      field,
    });
  const value = t.value ?? (await standingAt(ctx, t, item, pool));
  await insertMovement(ctx, move, item, t.from, 'transfer_out', t.quantity.negated(), value.negated(), null);
  await insertMovement(ctx, move, item, t.to, 'transfer_in', t.quantity, value, null);
  return value;
}

/**
 * What `t.quantity` stands at in `t.from` now: its value there pro rata, all of it when all its
 * units go. Beyond what is there (a product allowing negative stock), the company's unit cost.
 */
async function standingAt(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  t: TransferLeg,
  item: StockItem,
  pool: Pool,
): Promise<Decimal> {
  const here = await ctx.db
    .selectFrom('stock_balances')
    .select(['quantity', 'value'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', t.companyId)
    .where('location_id', '=', t.from)
    .where('item_id', '=', item.itemId)
    .where('batch_key', '=', t.batchId ?? NIL)
    .executeTakeFirst();
  const hq = money(here?.quantity ?? 0);
  const hv = money(here?.value ?? 0);
  const unit = pool.quantity.greaterThan(0) ? pool.value.dividedBy(pool.quantity) : pool.lastUnitCost;
  if (!hq.greaterThan(0)) return cents(unit.times(t.quantity));
  if (t.quantity.lessThan(hq)) return cents(hv.times(t.quantity).dividedBy(hq));
  return hv.plus(cents(unit.times(t.quantity.minus(hq))));
}
