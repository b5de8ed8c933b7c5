// Goods sent back to the supplier on a supplier credit note (bills/bills.credit-notes.ts). A
// credit note line naming a tracked product takes it out of stock (type 'return_out') at the cost
// it came in with: each movement names the in movement it undoes (the bill's purchase movement,
// or for a bill made from a purchase order, the receipt's), so moveStock takes that value
// (FIFO: from that movement's layer). In the credit note's own entry:
//   Cr inventory (the cost it came in with)   Dr cost of sales (the same)
// and the credit note line, which would credit the bill line's account, credits cost of sales
// instead: so the inventory account falls by the goods' cost, creditors (or the bank) by what
// the supplier credits, and a difference between the two (a credit at another price) lands in
// cost of sales. When the goods are gone (sold), 409 INSUFFICIENT_STOCK and nothing is written.
import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import type { PostingLine } from '../ledger/index.ts';
import type { Piece } from './flows.pieces.ts';
import { piecesOut, reversedSoFar, undoMoved } from './flows.pieces.ts';
import { baseQuantity, type LineStock } from './lines.ts';
import type { PurchaseLine } from './purchase-lines.ts';
import { costOfSalesAccount, type StockItem, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

interface NoteLine extends PurchaseLine {
  id: string;
  product_id: string | null;
  variant_id?: string | null;
  quantity: string | number;
  stock?: LineStock | null;
}

interface Bill {
  id: string;
  company_id: string;
  /** The purchase-order lines the bill's lines bill (their receipts brought the goods in). */
  orderLineIds: string[];
}

/** The in movements the goods came with that are not yet sent back, split as `base` needs. */
async function piecesSentBack(
  ctx: TenantCtx,
  bill: Bill,
  item: StockItem,
  base: Decimal,
  s: LineStock | null,
  date: string,
  field: string,
): Promise<Piece[]> {
  const moved = await ctx.db
    .selectFrom('stock_movements as m')
    .select(['m.id', 'm.quantity', 'm.batch_id', 'm.serial_id'])
    .select(reversedSoFar(ctx.tenantId))
    .where('m.tenant_id', '=', ctx.tenantId)
    .where('m.item_id', '=', item.itemId)
    .where('m.company_id', '=', bill.company_id)
    .where('m.quantity', '>', '0')
    .where((eb) =>
      eb.or([
        eb.and([eb('m.type', '=', 'purchase'), eb('m.source_id', '=', bill.id)]),
        ...(bill.orderLineIds.length
          ? [eb.and([eb('m.type', '=', 'receipt'), eb('m.source_line_id', 'in', bill.orderLineIds)])]
          : []),
      ]),
    )
    .orderBy('m.seq')
    .execute();
  const { taken, left, rest } = await undoMoved(ctx, item, moved, base, s, field);
  const out = taken.map((p) => ({ ...p, quantity: p.quantity.negated() }));
  if (left.isZero()) return out;
  // More than the bill brought in (or none of it): out at the cost method's value.
  return [...out, ...(await piecesOut(ctx, bill.company_id, item, left, rest, date, field))];
}

/**
 * The credit note's lines as its entry posts them (a tracked product's to cost of sales) and
 * the lines to add (Cr inventory / Dr cost of sales at the cost the goods came in with); the
 * goods are moved out under `entryId`.
 */
export async function supplierReturnStock(
  ctx: TenantCtx,
  bill: Bill,
  note: { id: string; date: string },
  lines: NoteLine[],
  entryId: string,
): Promise<{ lines: NoteLine[]; extra: PostingLine[] }> {
  const out: NoteLine[] = [];
  const extra: PostingLine[] = [];
  for (const [i, l] of lines.entries()) {
    if (!l.product_id) {
      if (l.variant_id) throw badRequest(`lines[${i}].variantId`, 'needs the productId it is a variant of');
      out.push(l);
      continue;
    }
    const field = `lines[${i}].productId`;
    const item = await stockItem(ctx, l.product_id, l.variant_id ?? null, field);
    if (!item.isTracked) {
      out.push(l);
      continue;
    }
    const base = await baseQuantity(ctx, item.productId, l.stock, l.quantity, `lines[${i}].unit`);
    const cos = await costOfSalesAccount(ctx, bill.company_id, item, field);
    const pieces = await piecesSentBack(ctx, bill, item, base, l.stock ?? null, note.date, `lines[${i}]`);
    for (const p of pieces) {
      const moved = await moveStock(ctx, {
        companyId: bill.company_id,
        productId: item.productId,
        item,
        batchId: p.batchId,
        serialId: p.serialId,
        date: note.date,
        type: 'return_out',
        quantity: p.quantity,
        reversesMovementId: p.reversesMovementId ?? null,
        source: { type: 'bill_credit_note', id: note.id, lineId: l.id },
        entryId,
        counterAccountId: cos,
        field,
      });
      extra.push(...moved.lines);
    }
    out.push({ ...l, account_id: cos });
  }
  return { lines: out, extra };
}
