// Undoing the stock a document moved, when the document is voided. Every movement it made
// (value-only ones aside) is moved back, in an entry of its own dated the void:
//   * a movement out (a sale, a delivery) comes back in at the cost it left with
//     (type 'return_in' naming it): Dr inventory / Cr cost of sales;
//   * a movement in (a credit note's return, a bill's purchase) goes out again at the cost
//     method's value now (type `outType`, naming the document): Cr inventory / Dr `counter`.
//     The document's own void has already reversed the in movement's value (its entry is
//     reversed whole), so the inventory account took that value off once: the entry puts it
//     back (Dr inventory / Cr `counter`), leaving the account at the valuation and any
//     difference (the cost moved since) in `counter` (cost of sales).
// When the stock has gone (sold on), taking it out again is refused like any sale (409
// INSUFFICIENT_STOCK) and the void writes nothing.
import type { Decimal } from 'decimal.js';
import { money } from '../../platform/money/money.ts';
import { type LedgerCtx, type PostingLine, post } from '../ledger/index.ts';
import { costOfSalesAccount, inventoryAccount, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';
import type { MovementType } from './stock.tables.ts';

export interface Undo {
  companyId: string;
  sourceId: string;
  date: string;
  /** The entry's description, e.g. "Void of bill KOS-1001: goods returned". */
  description: string;
  source: { type: string; id: string };
  /** The type of the movements that take stock in again back out. */
  outType: MovementType;
  /** The counter account of those movements; default the item's cost of sales. */
  counterAccountId?: string;
}

/**
 * True when the item's stock in the company holds no value and came in at no cost: taking some
 * out moves no value, so the movement posts nothing. A movement in an entry of its own then names
 * no entry (an entry needs two lines with an amount, and a movement's entry must be posted).
 */
export async function costsNothing(
  ctx: Pick<LedgerCtx, 'db' | 'tenantId'>,
  companyId: string,
  itemId: string,
) {
  const pool = await ctx.db
    .selectFrom('stock_costs')
    .select(['value', 'last_unit_cost'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return !pool || (money(pool.value).isZero() && money(pool.last_unit_cost).isZero());
}

/** Moves back every movement of `sourceId`; answers the entry posted, or null when none moved. */
export async function undoStock(ctx: LedgerCtx, u: Undo): Promise<string | null> {
  const moved = await ctx.db
    .selectFrom('stock_movements')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', u.companyId)
    .where('source_id', '=', u.sourceId)
    // Value alone (a revaluation, a bill's price difference: undone by revalue.ts) moves no goods.
    .where('type', 'not in', ['revaluation', 'price_difference'])
    .orderBy('seq')
    .execute();
  if (!moved.length) return null;
  const entryId = crypto.randomUUID();
  const lines: PostingLine[] = [];
  for (const m of moved) {
    const item = await stockItem(ctx, m.product_id, m.variant_id);
    const q = money(m.quantity);
    const counter = u.counterAccountId ?? (await costOfSalesAccount(ctx, u.companyId, item));
    // Nothing of value moves (see costsNothing): the movement names no entry.
    const free = q.lessThan(0)
      ? money(m.value).isZero()
      : money(m.value).isZero() && (await costsNothing(ctx, u.companyId, item.itemId));
    const back = await moveStock(ctx, {
      companyId: u.companyId,
      locationId: m.location_id,
      productId: m.product_id,
      variantId: m.variant_id,
      batchId: m.batch_id,
      serialId: m.serial_id,
      item,
      date: u.date,
      type: q.lessThan(0) ? 'return_in' : u.outType,
      quantity: q.negated(),
      reversesMovementId: q.lessThan(0) ? m.id : null,
      source: { type: u.source.type, id: u.source.id, lineId: m.source_line_id },
      entryId: free ? null : entryId,
      counterAccountId: q.lessThan(0) ? await costOfSalesAccount(ctx, u.companyId, item) : counter,
    });
    lines.push(...back.lines);
    if (q.greaterThan(0)) {
      // Put back what the document's reversal took off the inventory account.
      const v: Decimal = money(m.value);
      if (!v.isZero()) {
        const description = `${item.name}: value reversed with the document`;
        lines.push(
          { accountId: await inventoryAccount(ctx, u.companyId, item), debit: v, description },
          { accountId: counter, credit: v, description },
        );
      }
    }
  }
  if (!lines.length) return null;
  await post(ctx, {
    companyId: u.companyId,
    date: u.date,
    description: u.description,
    source: u.source,
    entryId,
    lines,
  });
  return entryId;
}
