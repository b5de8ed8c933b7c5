// Value added to (or taken from) the units a receipt brought in, after the fact: the one way for
// a landed cost (freight, duty: landed-costs.post.ts) and for a supplier's bill priced otherwise
// than its purchase order (flows.purchases.ts). IAS 2.10-11: the cost of purchase is the price
// paid plus what it took to bring the goods in, less discounts; IAS 2.34: the carrying amount of
// inventories sold is an expense. So each share splits by how much of what the receipt brought
// in is still on hand:
//   * kept (units on hand): a value-only movement (quantity 0) through moveStock raises the pool,
//     and for FIFO the receipt's own layer, at the receipt's location, batch and serial;
//   * sold (units gone): cost of sales, since the sales took those units out at the old cost.
// The caller posts the answered lines (Dr/Cr inventory, Dr/Cr cost of sales) against its own
// counter account (a landed cost's bill line accounts; a bill's GRNI) in the same entry.
//
// Still on hand:
//   * FIFO: the receipt's layer, quantity left ÷ quantity in;
//   * average: the pool keeps no units apart, so the receipt's units are followed through it in
//     the order stock moved (seq): each movement out afterwards takes its proportion of them
//     (out ÷ the pool's quantity before it), as the sale would have carried the value had it been
//     known at the receipt; goods sent back against the receipt itself take its units; a return
//     of a sale brings back what that sale took; receipts afterwards dilute, they take nothing;
//     transfers move nothing within the company. The result is the weighted average as if the
//     value had been part of the receipt (worked in revalue.test.ts).
//
// Every share is recorded (receipt_revaluations) with what was kept. A bill's void undoes its
// shares (undoRevaluations): its reversal took the approval's lines off the ledger, so the undo
// puts them back and revalues by the opposite amount with the split as it is now, leaving cost of
// sales with exactly what went into it through sales since.
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, money, toSql, ZERO } from '../../platform/money/money.ts';
import type { PostingLine } from '../ledger/index.ts';
import { costOfSalesAccount, inventoryAccount, type StockItem, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

type Ctx = Pick<TenantCtx, 'db' | 'tenantId'>;

export interface ReceiptShare {
  /** The movement that brought the units in (a purchase-order receipt, a bill's purchase). */
  receiptMovementId: string;
  /** Signed: less than 0 takes value off (a bill cheaper than its order). */
  amount: Decimal;
}

export interface Revaluation {
  companyId: string;
  date: string;
  /** The entry the caller posts the answered lines in. */
  entryId: string;
  type: 'landed_cost' | 'price_difference';
  /** What adds the value: the landed cost, or the bill (and its line). */
  source: { type: 'bill' | 'landed_cost'; id: string; lineId?: string | null };
  shares: ReceiptShare[];
  /** The body field a refusal names. */
  field?: string;
}

interface ReceiptRow {
  id: string;
  seq: string;
  company_id: string;
  item_id: string;
  product_id: string;
  variant_id: string | null;
  location_id: string;
  batch_id: string | null;
  serial_id: string | null;
  quantity: string;
}

async function receiptOf(ctx: Ctx, companyId: string, id: string, field: string): Promise<ReceiptRow> {
  const r = await ctx.db
    .selectFrom('stock_movements')
    .select([
      'id',
      'seq',
      'company_id',
      'item_id',
      'product_id',
      'variant_id',
      'location_id',
      'batch_id',
      'serial_id',
      'quantity',
    ])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!r || r.company_id !== companyId || money(r.quantity).lessThanOrEqualTo(0))
    throw badRequest(field, 'not a movement that brought stock into this company');
  return { ...r, seq: String(r.seq) };
}

const TRANSFERS = sql`('transfer_out', 'transfer_in')`;

/**
 * Average cost: the part of the receipt's units still in the pool (0 to its quantity), followed
 * movement by movement from the receipt to now (see the head of the file).
 */
async function averageUnitsLeft(ctx: Ctx, r: ReceiptRow): Promise<Decimal> {
  const q = money(r.quantity);
  const upTo = await sql<{ q: string | null }>`
    select sum(quantity)::text as q from stock_movements
     where tenant_id = ${ctx.tenantId} and company_id = ${r.company_id} and item_id = ${r.item_id}
       and seq <= ${r.seq}::bigint and type not in ${TRANSFERS}`.execute(ctx.db);
  const later = await sql<{ id: string; quantity: string; reverses_movement_id: string | null }>`
    select id, quantity::text as quantity, reverses_movement_id from stock_movements
     where tenant_id = ${ctx.tenantId} and company_id = ${r.company_id} and item_id = ${r.item_id}
       and seq > ${r.seq}::bigint and quantity <> 0 and type not in ${TRANSFERS}
     order by seq`.execute(ctx.db);
  let pool = money(upTo.rows[0]?.q ?? 0);
  // Stock below zero before the receipt was made good by it: those units were gone already.
  const clamp = (u: Decimal) => {
    const most = pool.greaterThan(0) ? pool : ZERO;
    return u.lessThan(0) ? ZERO : u.greaterThan(most) ? most : u.greaterThan(q) ? q : u;
  };
  let units = clamp(q);
  // What each movement out took of the receipt's units, for a return of it to bring back.
  const took = new Map<string, { units: Decimal; out: Decimal }>();
  for (const m of later.rows) {
    const d = money(m.quantity);
    if (d.greaterThan(0)) {
      const t = m.reverses_movement_id ? took.get(m.reverses_movement_id) : undefined;
      pool = pool.plus(d);
      if (t) units = units.plus(t.units.times(d).dividedBy(t.out));
    } else {
      const out = d.negated();
      if (m.reverses_movement_id === r.id) units = units.minus(out);
      else if (!m.reverses_movement_id) {
        const share = pool.lessThanOrEqualTo(0)
          ? ZERO
          : out.greaterThanOrEqualTo(pool)
            ? units
            : units.times(out).dividedBy(pool);
        units = units.minus(share);
        took.set(m.id, { units: share, out });
      }
      // Goods sent back against another receipt take that receipt's units, not these.
      pool = pool.minus(out);
    }
    units = clamp(units);
  }
  return units;
}

interface Split {
  kept: Decimal;
  sold: Decimal;
  layer: { id: string; value_left: string } | null;
}

/** The share split into what the units on hand keep and what went with the units gone. */
async function split(ctx: Ctx, r: ReceiptRow, item: StockItem, amount: Decimal): Promise<Split> {
  const q = money(r.quantity);
  let fraction: Decimal;
  let layer: Split['layer'] = null;
  let floor: Decimal;
  if (item.costMethod === 'fifo') {
    const l = await ctx.db
      .selectFrom('stock_layers')
      .select(['id', 'quantity_left', 'value_left'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('movement_id', '=', r.id)
      .forUpdate()
      .executeTakeFirst();
    layer = l ?? null;
    fraction = l ? money(l.quantity_left).dividedBy(q) : ZERO;
    floor = money(l?.value_left ?? 0).negated();
  } else {
    fraction = (await averageUnitsLeft(ctx, r)).dividedBy(q);
    const pool = await ctx.db
      .selectFrom('stock_costs')
      .select('value')
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', r.company_id)
      .where('item_id', '=', r.item_id)
      .executeTakeFirst();
    floor = money(pool?.value ?? 0).negated();
  }
  let kept = fraction.greaterThanOrEqualTo(1) ? amount : cents(amount.times(fraction));
  // Value taken off never takes the stock below nothing; the rest is cost of sales.
  if (kept.lessThan(floor)) kept = floor;
  return { kept, sold: amount.minus(kept), layer };
}

const side = (amount: Decimal) => (amount.greaterThan(0) ? { debit: amount } : { credit: amount.abs() });

/** One share: the movement and the layer for what is kept, cost of sales for the rest; its row. */
async function applyShare(
  ctx: Ctx,
  r: Revaluation,
  receipt: ReceiptRow,
  amount: Decimal,
  undoesId: string | null,
): Promise<{ lines: PostingLine[]; kept: Decimal; sold: Decimal; item: StockItem }> {
  const item = await stockItem(ctx, receipt.product_id, receipt.variant_id);
  const { kept, sold, layer } = await split(ctx, receipt, item, amount);
  const lines: PostingLine[] = [];
  let movementId: string | null = null;
  if (!kept.isZero()) {
    if (layer)
      await sql`update stock_layers set value_left = value_left + ${toSql(kept)}::numeric
                 where tenant_id = ${ctx.tenantId} and id = ${layer.id}`.execute(ctx.db);
    const moved = await moveStock(ctx, {
      companyId: r.companyId,
      locationId: receipt.location_id,
      productId: receipt.product_id,
      variantId: receipt.variant_id,
      batchId: receipt.batch_id,
      serialId: receipt.serial_id,
      date: r.date,
      type: r.type,
      quantity: 0,
      value: kept,
      source: { type: r.source.type, id: r.source.id, lineId: receipt.id },
      entryId: r.entryId,
      item,
    });
    movementId = moved.movementId;
    lines.push(...moved.lines);
  }
  if (!sold.isZero())
    lines.push({
      accountId: await costOfSalesAccount(ctx, r.companyId, item),
      ...side(sold),
      description: `${item.name}: ${r.type === 'landed_cost' ? 'landed cost' : 'price difference'} on units gone`,
    });
  await ctx.db
    .insertInto('receipt_revaluations')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      company_id: r.companyId,
      receipt_movement_id: receipt.id,
      source_type: r.source.type,
      source_id: r.source.id,
      source_line_id: r.source.lineId ?? null,
      date: r.date,
      amount: toSql(amount),
      kept: toSql(kept),
      movement_id: movementId,
      entry_id: r.entryId,
      undoes_id: undoesId,
    })
    .execute();
  return { lines, kept, sold, item };
}

/**
 * Adds each share to its receipt's units: answers the lines to post in `entryId` (inventory for
 * what is on hand, cost of sales for what is gone); the caller posts the other side.
 */
export async function revalueReceipts(ctx: Ctx, r: Revaluation): Promise<PostingLine[]> {
  const lines: PostingLine[] = [];
  for (const s of r.shares) {
    if (s.amount.isZero()) continue;
    const receipt = await receiptOf(ctx, r.companyId, s.receiptMovementId, r.field ?? 'receipts');
    lines.push(...(await applyShare(ctx, r, receipt, s.amount, null)).lines);
  }
  return lines;
}

/**
 * A voided document's shares undone, in `entryId` dated `date`: its reversal took the approval's
 * lines off (inventory for what was kept, cost of sales for the rest), so they are put back, and
 * each share is revalued by its opposite as things stand now. Net: inventory loses what of the
 * share is still on hand, cost of sales what went out with sales. Answers the lines (none when
 * the document added nothing).
 */
export async function undoRevaluations(
  ctx: Ctx,
  u: {
    companyId: string;
    source: { type: 'bill' | 'landed_cost'; id: string };
    date: string;
    entryId: string;
  },
): Promise<PostingLine[]> {
  const rows = await ctx.db
    .selectFrom('receipt_revaluations as r')
    .selectAll('r')
    .where('r.tenant_id', '=', ctx.tenantId)
    .where('r.company_id', '=', u.companyId)
    .where('r.source_type', '=', u.source.type)
    .where('r.source_id', '=', u.source.id)
    .where('r.undoes_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('receipt_revaluations as x')
            .select('x.id')
            .whereRef('x.tenant_id', '=', 'r.tenant_id')
            .whereRef('x.undoes_id', '=', 'r.id'),
        ),
      ),
    )
    .orderBy('r.created_at')
    .execute();
  const lines: PostingLine[] = [];
  for (const row of rows) {
    const receipt = await receiptOf(ctx, u.companyId, row.receipt_movement_id, 'id');
    const amount = money(row.amount);
    const kept = money(row.kept);
    const r: Revaluation = {
      companyId: u.companyId,
      date: u.date,
      entryId: u.entryId,
      type: u.source.type === 'bill' ? 'price_difference' : 'landed_cost',
      source: { ...u.source, lineId: row.source_line_id },
      shares: [],
    };
    const done = await applyShare(ctx, r, receipt, amount.negated(), row.id);
    lines.push(...done.lines);
    const description = `${done.item.name}: value reversed with the document`;
    if (!kept.isZero())
      lines.push({
        accountId: await inventoryAccount(ctx, u.companyId, done.item),
        ...side(kept),
        description,
      });
    const sold = amount.minus(kept);
    if (!sold.isZero())
      lines.push({
        accountId: await costOfSalesAccount(ctx, u.companyId, done.item),
        ...side(sold),
        description,
      });
  }
  return lines;
}
