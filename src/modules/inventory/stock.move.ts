// moveStock: the one way stock changes. It writes one immutable movement (the running balances
// follow by trigger, migrations/0049_inventory.sql), keeps the item's cost pool in the company
// (the weighted average, or the FIFO layers), and answers the ledger lines that carry the
// movement's value: the inventory account against the caller's counter account (cost of sales
// for a sale, GRNI for a receipt, stock adjustments for a count). The caller posts those lines
// in the same transaction, in its own entry or one of their own, under the `entryId` it gave,
// so the inventory account always equals the valuation.
//
// Value rules (cents, half-up):
//   * in: the value given, else quantity × unitCost, else (a count or an adjustment found
//     more) quantity × the pool's current unit cost;
//   * a return in naming the movement it undoes comes back at the cost it left with, pro rata;
//   * out, average: quantity × pool value ÷ pool quantity, except that taking all that is on
//     hand takes the pool's whole value (so no cent is stranded);
//   * out, FIFO: the oldest layers first, a whole layer at its remaining value, part of one
//     pro rata;
//   * out beyond what is on hand (negative stock allowed): the last unit cost stock came in at;
//   * afterwards, when nothing is on hand but value remains (or FIFO's layers disagree with the
//     pool after stock went below zero and came back, or an average pool comes back from below
//     zero: what ends on hand is at the receipt's cost), a revaluation movement of quantity 0
//     moves the difference to cost of sales.
//   * a return (reversesMovementId) must name an out movement of the same item and company, and
//     never bring back more than went out;
//   * out naming the in movement it undoes (sent back to the supplier): that movement's cost pro
//     rata (FIFO: from its own layer first), never more out against it than came in.
import { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { cents, type MoneyInput, money, toSql, ZERO } from '../../platform/money/money.ts';
import type { LedgerCtx, PostingLine } from '../ledger/index.ts';
import { assertAvailableThrough } from './stock.available.ts';
import {
  costOfSalesAccount,
  defaultLocation,
  inventoryAccount,
  type StockItem,
  stockItem,
} from './stock.items.ts';
import type { MovementType } from './stock.tables.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'> | Pick<TenantCtx, 'db' | 'tenantId'>;

/** The batch key of stock without a batch (stock_balances.batch_key is never null). */
export const NIL = '00000000-0000-0000-0000-000000000000';

export interface StockMove {
  companyId: string;
  /** Default: the company's default location (made on first use). */
  locationId?: string | null;
  productId: string;
  variantId?: string | null;
  /** Required for a batch-tracked product (see batchOf). */
  batchId?: string | null;
  /** Required for a serial-tracked product, with a quantity of 1 or -1 (see serialOf). */
  serialId?: string | null;
  date: string;
  type: MovementType;
  /** Signed, in the product's base unit: more than 0 comes in, less goes out. */
  quantity: MoneyInput;
  /** In only: the value of the whole quantity in rands (rounded to cents). */
  value?: MoneyInput | null;
  /** In only: the cost of one base unit, when no value is given. */
  unitCost?: MoneyInput | null;
  /**
   * The movement this one undoes: in, a return that comes back at the cost it left with; out,
   * goods sent back to the supplier at the cost they came in with.
   */
  reversesMovementId?: string | null;
  source: { type: string; id?: string | null; lineId?: string | null };
  /** The journal entry the caller posts the answered lines in. */
  entryId?: string | null;
  /**
   * The account the other side of the value posts to. Without one (a transfer, whose two
   * movements cancel), only the inventory lines are answered.
   */
  counterAccountId?: string | null;
  /** Out of a transit location, or the leg of a transfer: no negative-stock check. */
  skipNegativeCheck?: boolean;
  /** The body field a refusal names (e.g. `lines[2].quantity`). */
  field?: string;
  /** The item, when the caller has it already. */
  item?: StockItem;
}

export interface StockMoved {
  movementId: string;
  quantity: Decimal;
  /** Signed: what the inventory account moves by, revaluation included. */
  value: Decimal;
  /** The inventory account, then the counter lines (and any revaluation against cost of sales). */
  lines: PostingLine[];
  /** The cost of sales line's value for an out movement, as a positive amount (reports). */
  unitCost: Decimal;
}

export interface Pool {
  quantity: Decimal;
  value: Decimal;
  lastUnitCost: Decimal;
}

/** The item's pool in the company, locked: every movement of the item in the company takes turns. */
export async function lockPool(ctx: Ctx, companyId: string, item: StockItem): Promise<Pool> {
  await ctx.db
    .insertInto('stock_costs')
    .values({
      tenant_id: ctx.tenantId,
      company_id: companyId,
      item_id: item.itemId,
      product_id: item.productId,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const p = await ctx.db
    .selectFrom('stock_costs')
    .select(['quantity', 'value', 'last_unit_cost'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('item_id', '=', item.itemId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { quantity: money(p.quantity), value: money(p.value), lastUnitCost: money(p.last_unit_cost) };
}

/** A quantity for a NUMERIC(20,4) column. */
const qty = (v: Decimal) => v.toFixed(4);

/** On hand at the location (and batch) now. */
export async function onHandAt(
  ctx: Ctx,
  companyId: string,
  locationId: string,
  itemId: string,
  batchId: string | null,
) {
  const r = await ctx.db
    .selectFrom('stock_balances')
    .select('quantity')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('location_id', '=', locationId)
    .where('item_id', '=', itemId)
    .where('batch_key', '=', batchId ?? NIL)
    .executeTakeFirst();
  return money(r?.quantity ?? 0);
}

/** Takes `need` out of the FIFO layers, oldest first; answers the value taken and what is left. */
async function takeLayers(ctx: Ctx, companyId: string, itemId: string, need: Decimal) {
  const layers = await ctx.db
    .selectFrom('stock_layers')
    .select(['id', 'quantity_left', 'value_left'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('item_id', '=', itemId)
    .where('quantity_left', '>', '0')
    .orderBy('date')
    .orderBy('seq')
    .orderBy('id')
    .execute();
  let left = need;
  let value = ZERO;
  for (const l of layers) {
    if (left.isZero()) break;
    const qLeft = money(l.quantity_left);
    const vLeft = money(l.value_left);
    const take = left.lessThan(qLeft) ? left : qLeft;
    const v = take.equals(qLeft) ? vLeft : cents(vLeft.times(take).dividedBy(qLeft));
    await ctx.db
      .updateTable('stock_layers')
      .set({ quantity_left: qty(qLeft.minus(take)), value_left: toSql(vLeft.minus(v)) })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', l.id)
      .execute();
    value = value.plus(v);
    left = left.minus(take);
  }
  return { value, beyond: left };
}

async function layersValue(ctx: Ctx, companyId: string, itemId: string): Promise<Decimal> {
  const r = await ctx.db
    .selectFrom('stock_layers')
    .select((eb) => eb.fn.sum<string>('value_left').as('v'))
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('item_id', '=', itemId)
    .where('quantity_left', '>', '0')
    .executeTakeFirst();
  return money(r?.v ?? 0);
}

/**
 * An out movement naming the in movement it undoes (goods sent back to the supplier): the in
 * movement's value pro rata, never more out against it than came in. FIFO takes it from that
 * movement's own layer (what is left of it), the rest from the oldest layers; average takes it
 * from the pool (all of the pool when all on hand goes).
 */
async function takeBack(
  ctx: Ctx,
  m: StockMove,
  item: StockItem,
  out: Decimal,
  onHand: Decimal,
  pool: Pool,
  field: string,
): Promise<{ value: Decimal; beyond: Decimal }> {
  const orig = await ctx.db
    .selectFrom('stock_movements')
    .select(['quantity', 'value', 'item_id', 'company_id'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', m.reversesMovementId!)
    .executeTakeFirst();
  if (!orig || orig.company_id !== m.companyId || orig.item_id !== item.itemId || money(orig.quantity).lte(0))
    throw badRequest(field, 'the movement it sends back is not an in movement of this item in this company');
  const gone = await ctx.db
    .selectFrom('stock_movements')
    .select((eb) => eb.fn.sum<string>('quantity').as('q'))
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', m.companyId)
    .where('item_id', '=', item.itemId)
    .where('reverses_movement_id', '=', m.reversesMovementId!)
    .executeTakeFirst();
  const oq = money(orig.quantity);
  if (
    money(gone?.q ?? 0)
      .abs()
      .plus(out)
      .greaterThan(oq)
  )
    throw badRequest(field, 'more would go back than came in');
  if (item.costMethod === 'fifo') {
    const layer = await ctx.db
      .selectFrom('stock_layers')
      .select(['id', 'quantity_left', 'value_left'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('movement_id', '=', m.reversesMovementId!)
      .where('quantity_left', '>', '0')
      .executeTakeFirst();
    const qLeft = money(layer?.quantity_left ?? 0);
    const take = out.lessThan(qLeft) ? out : qLeft;
    let value = ZERO;
    if (layer && take.greaterThan(0)) {
      const vLeft = money(layer.value_left);
      value = take.equals(qLeft) ? vLeft : cents(vLeft.times(take).dividedBy(qLeft));
      await ctx.db
        .updateTable('stock_layers')
        .set({ quantity_left: qty(qLeft.minus(take)), value_left: toSql(vLeft.minus(value)) })
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', layer.id)
        .execute();
    }
    if (take.equals(out)) return { value, beyond: ZERO };
    const rest = await takeLayers(ctx, m.companyId, item.itemId, out.minus(take));
    return { value: value.plus(rest.value), beyond: rest.beyond };
  }
  if (out.greaterThanOrEqualTo(onHand))
    return { value: onHand.isZero() ? ZERO : pool.value, beyond: out.minus(onHand) };
  const value = cents(money(orig.value).times(out).dividedBy(oq));
  return { value: Decimal.min(value, pool.value), beyond: ZERO };
}

/** The value of an in movement (positive or zero). */
async function valueIn(
  ctx: Ctx,
  m: StockMove,
  item: StockItem,
  q: Decimal,
  pool: Pool,
  field: string,
): Promise<Decimal> {
  if (m.reversesMovementId) {
    const orig = await ctx.db
      .selectFrom('stock_movements')
      .select(['quantity', 'value', 'item_id', 'company_id'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', m.reversesMovementId)
      .executeTakeFirst();
    if (
      !orig ||
      orig.company_id !== m.companyId ||
      orig.item_id !== item.itemId ||
      money(orig.quantity).gte(0)
    )
      throw badRequest(field, 'the movement it returns is not an out movement of this item in this company');
    // What came back against it already counts: never more back than went out.
    const back = await ctx.db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.sum<string>('quantity').as('q'))
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', m.companyId)
      .where('item_id', '=', item.itemId)
      .where('reverses_movement_id', '=', m.reversesMovementId)
      .executeTakeFirst();
    if (
      money(back?.q ?? 0)
        .plus(q)
        .greaterThan(money(orig.quantity).abs())
    )
      throw badRequest(field, 'more would come back than went out');
    const oq = money(orig.quantity).abs();
    const ov = money(orig.value).abs();
    return q.equals(oq) ? ov : cents(ov.times(q).dividedBy(oq));
  }
  if (m.value != null) return cents(money(m.value));
  if (m.unitCost != null) return cents(money(m.unitCost).times(q));
  const unit = pool.quantity.greaterThan(0) ? pool.value.dividedBy(pool.quantity) : pool.lastUnitCost;
  return cents(unit.times(q));
}

export async function insertMovement(
  ctx: Ctx,
  m: StockMove,
  item: StockItem,
  locationId: string,
  type: MovementType,
  q: Decimal,
  value: Decimal,
  reverses: string | null,
): Promise<string> {
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('stock_movements')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: m.companyId,
      location_id: locationId,
      product_id: item.productId,
      variant_id: item.variantId,
      item_id: item.itemId,
      batch_id: type === 'revaluation' ? null : (m.batchId ?? null),
      serial_id: type === 'revaluation' ? null : (m.serialId ?? null),
      date: m.date,
      type,
      quantity: qty(q),
      unit_cost: q.isZero() ? '0' : value.dividedBy(q).abs().toDecimalPlaces(6).toString(),
      value: toSql(value),
      source_type: m.source.type,
      source_id: m.source.id ?? null,
      source_line_id: m.source.lineId ?? null,
      entry_id: m.entryId ?? null,
      reverses_movement_id: reverses,
    })
    .execute();
  return id;
}

/** Serial rules: a serial comes in only when out of stock, goes out only from where it is. */
export async function moveSerial(ctx: Ctx, m: StockMove, locationId: string, q: Decimal, field: string) {
  if (!q.abs().equals(1)) throw badRequest(field, 'a serial-tracked product moves one unit per serial');
  const s = await ctx.db
    .selectFrom('stock_serials')
    .select(['id', 'serial', 'location_id'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', m.serialId!)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (q.greaterThan(0) && s.location_id)
    throw conflict(`Serial ${s.serial} is in stock already`, { code: 'SERIAL_IN_STOCK', field });
  if (q.lessThan(0) && s.location_id !== locationId)
    throw conflict(`Serial ${s.serial} is not in stock at that location`, {
      code: 'SERIAL_NOT_IN_STOCK',
      field,
    });
  await ctx.db
    .updateTable('stock_serials')
    .set(
      q.greaterThan(0)
        ? { company_id: m.companyId, location_id: locationId, batch_id: m.batchId ?? null }
        : { company_id: null, location_id: null },
    )
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', s.id)
    .execute();
}

export async function moveStock(ctx: Ctx, m: StockMove): Promise<StockMoved> {
  const field = m.field ?? 'quantity';
  const q = money(m.quantity);
  // A landed cost or a bill's price difference (revalue.ts) adds value alone, to units on hand.
  const valueOnly = q.isZero() && (m.type === 'landed_cost' || m.type === 'price_difference');
  if (q.isZero() && !valueOnly) throw badRequest(field, 'must not be zero');
  const item = m.item ?? (await stockItem(ctx, m.productId, m.variantId));
  if (!item.isTracked) throw badRequest(field, `${item.name} is not tracked in stock`);
  if (item.tracking === 'batch' && !m.batchId) throw badRequest(field, `${item.name} needs a batch`);
  if (item.tracking === 'serial' && !m.serialId)
    throw badRequest(field, `${item.name} needs a serial number`);
  const locationId = m.locationId ?? (await defaultLocation(ctx, m.companyId));
  const pool = await lockPool(ctx, m.companyId, item);

  // Value only (quantity 0): the serial stays where it is.
  if (item.tracking === 'serial' && !q.isZero()) await moveSerial(ctx, m, locationId, q, field);
  let value: Decimal;
  if (q.greaterThan(0) || valueOnly) {
    value = await valueIn(ctx, m, item, q, pool, field);
  } else {
    const out = q.abs();
    if (!m.skipNegativeCheck && !item.allowNegative) {
      if (m.type === 'count') {
        // A count sets on hand to what was counted (never below zero): nothing to check at a
        // date, and its sheet's date may precede receipts it counted (stock-takes.service.ts).
        const here = await onHandAt(ctx, m.companyId, locationId, item.itemId, m.batchId ?? null);
        if (here.lessThan(out))
          throw conflict(`${item.name}: ${here.toString()} on hand there, ${out.toString()} asked`, {
            code: 'INSUFFICIENT_STOCK',
            field,
          });
      }
      // On hand at the movement's date and at every later date (a back-dated sale, issue 34).
      else
        await assertAvailableThrough(ctx, {
          companyId: m.companyId,
          locationId,
          itemId: item.itemId,
          batchId: m.batchId ?? null,
          date: m.date,
          out,
          name: item.name,
          field,
        });
    }
    const onHand = pool.quantity.greaterThan(0) ? pool.quantity : ZERO;
    let taken: Decimal;
    let beyond: Decimal;
    if (m.reversesMovementId) {
      // Goods sent back where they came from: at the cost they came in with.
      ({ value: taken, beyond } = await takeBack(ctx, m, item, out, onHand, pool, field));
    } else if (item.costMethod === 'fifo') {
      ({ value: taken, beyond } = await takeLayers(ctx, m.companyId, item.itemId, out));
    } else if (out.greaterThanOrEqualTo(onHand)) {
      taken = onHand.isZero() ? ZERO : pool.value;
      beyond = out.minus(onHand);
    } else {
      taken = cents(pool.value.times(out).dividedBy(onHand));
      beyond = ZERO;
    }
    value = taken.plus(cents(beyond.times(pool.lastUnitCost))).negated();
  }

  const movementId = await insertMovement(
    ctx,
    m,
    item,
    locationId,
    m.type,
    q,
    value,
    m.reversesMovementId ?? null,
  );
  const quantity = pool.quantity.plus(q);
  let poolValue = pool.value.plus(value);
  let lastUnitCost = pool.lastUnitCost;
  if (q.greaterThan(0)) {
    lastUnitCost = value.dividedBy(q).toDecimalPlaces(6);
    if (item.costMethod === 'fifo' && quantity.greaterThan(0)) {
      // Stock that was below zero is made good first: only what ends on hand forms a layer.
      const layerQ = quantity.lessThan(q) ? quantity : q;
      await ctx.db
        .insertInto('stock_layers')
        .values({
          tenant_id: ctx.tenantId,
          id: crypto.randomUUID(),
          company_id: m.companyId,
          item_id: item.itemId,
          movement_id: movementId,
          date: m.date,
          quantity: qty(layerQ),
          quantity_left: qty(layerQ),
          value_left: toSql(layerQ.equals(q) ? value : cents(value.times(layerQ).dividedBy(q))),
        })
        .execute();
    }
  }
  // The pool must end consistent: nothing on hand holds no value; FIFO's pool equals its layers.
  let target: Decimal | null = null;
  if (quantity.isZero()) target = ZERO;
  else if (item.costMethod === 'fifo' && quantity.greaterThan(0) && !valueOnly)
    target = await layersValue(ctx, m.companyId, item.itemId);
  else if (pool.quantity.lessThan(0) && quantity.greaterThan(0))
    // Average, back from below zero: what was taken beyond stock went at the last unit cost; it
    // is made good at this receipt's cost, so what ends on hand is at that cost and the
    // difference is the cost of what was sold (the revaluation below).
    target = cents(value.times(quantity).dividedBy(q));
  const lines: PostingLine[] = [];
  const inv = await inventoryAccount(ctx, m.companyId, item, m.field ?? 'productId');
  const description = `${item.name}: ${m.type.replace('_', ' ')}`;
  const push = (accountId: string, amount: Decimal, inventorySide: boolean) => {
    if (amount.isZero()) return;
    const debit = inventorySide ? amount.greaterThan(0) : amount.lessThan(0);
    lines.push({ accountId, ...(debit ? { debit: amount.abs() } : { credit: amount.abs() }), description });
  };
  push(inv, value, true);
  if (m.counterAccountId) push(m.counterAccountId, value, false);
  let total = value;
  if (target && !target.equals(poolValue)) {
    const diff = target.minus(poolValue);
    await insertMovement(ctx, m, item, locationId, 'revaluation', ZERO, diff, null);
    push(inv, diff, true);
    push(await costOfSalesAccount(ctx, m.companyId, item, m.field ?? 'productId'), diff, false);
    poolValue = target;
    total = total.plus(diff);
  }
  await ctx.db
    .updateTable('stock_costs')
    .set({
      quantity: qty(quantity),
      value: toSql(poolValue),
      last_unit_cost: lastUnitCost.toFixed(6),
      updated_at: new Date(),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', m.companyId)
    .where('item_id', '=', item.itemId)
    .execute();
  return {
    movementId,
    quantity: q,
    value: total,
    lines,
    unitCost: q.isZero() ? ZERO : value.dividedBy(q).abs().toDecimalPlaces(6),
  };
}
