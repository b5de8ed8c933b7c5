// Purchases move stock.
//
// A purchase-order receipt brings each received line's tracked product into the company's
// default location (type 'receipt') at the order line's net unit price (its net amount, after
// any discount and before VAT, ÷ its quantity), in one entry per receipt:
//   Dr inventory   Cr 2160 Goods received not invoiced (GRNI)
// The bill made from the order then clears GRNI: its line for a received product posts to GRNI
// instead of its expense account. The bill's price may differ from the order's: the difference
// (the bill line's cost less the order's value of the same quantity) goes from GRNI to cost of
// sales (Dr cost of sales / Cr GRNI when the bill is dearer), so GRNI nets to the received value
// and inventory keeps the value the goods came in at (the goods may be sold already; a
// revaluation of what is left is not attempted).
//
// A bill line naming a tracked product and no order line brings the stock in at approval (type
// 'purchase') at the line's cost (net; its total when the company claims no input tax) and posts
// that cost to inventory instead of the line's account. Voiding such a bill takes the stock out
// again (flows.undo.ts; 409 INSUFFICIENT_STOCK when it has been sold). Voiding a bill made from an
// order moves no stock: the goods were received, and GRNI is owed again by the reversal.
//
// Quantities are in the line's unit (a receipt counts in its order line's): what moves is
// quantity × the unit's factor base units, at the line's value, so the cost of a base unit is the
// line's net ÷ its base quantity (a box of 12 at R120 → 12 at R10). A batch product's line names
// its batch (batchCode, batchExpiry for a new one) and a serial product's one serial per base unit;
// each serial is a movement of one, the line's value spread over them to the cent. A negative
// bill line of a tracked product is refused: goods sent back go on a supplier credit note.
import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, money } from '../../platform/money/money.ts';
import type { TaxedLine } from '../bills/bills.posting.ts';
import { ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import { piecesIn } from './flows.pieces.ts';
import { baseQuantity, type LineStock } from './lines.ts';
import { costOfSalesAccount, inventoryAccount, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

interface OrderLine {
  id: string;
  product_id: string | null;
  variant_id: string | null;
  quantity: string | number;
  net_amount: string | number;
  /** The unit the order line counts in. */
  stock?: LineStock | null;
}

/** An order line's net value of `quantity` of it, in cents. */
const orderValue = (l: OrderLine, quantity: Decimal) =>
  cents(money(l.net_amount).times(quantity).dividedBy(money(l.quantity)));

/** Moves a receipt's tracked goods in and posts Dr inventory / Cr GRNI; the entry's id or null. */
export async function receiveStock(
  ctx: TenantCtx,
  order: { id: string; company_id: string; number: string },
  receipt: { id: string; date: string },
  received: Array<{ lineId: string; quantity: number } & LineStock>,
  lines: OrderLine[],
): Promise<string | null> {
  const lctx = ledgerCtxOf(ctx);
  const entryId = crypto.randomUUID();
  const posting: PostingLine[] = [];
  for (const [i, r] of received.entries()) {
    const line = lines.find((l) => l.id === r.lineId)!;
    if (!line.product_id) continue;
    const field = `lines[${i}].lineId`;
    const item = await stockItem(ctx, line.product_id, line.variant_id, field);
    if (!item.isTracked) continue;
    const q = money(r.quantity);
    if (q.isZero()) continue;
    // Received in the order line's unit: base units in, the line's value of them spread over the
    // serials (one movement each).
    const base = await baseQuantity(ctx, item.productId, line.stock, q, `lines[${i}].quantity`);
    const value = orderValue(line, q);
    const grni = await systemAccount(lctx, order.company_id, 'grni');
    for (const p of await piecesIn(ctx, item, base, r, `lines[${i}]`, value)) {
      const moved = await moveStock(ctx, {
        companyId: order.company_id,
        productId: item.productId,
        variantId: item.variantId,
        batchId: p.batchId,
        serialId: p.serialId,
        item,
        date: receipt.date,
        type: 'receipt',
        quantity: p.quantity,
        value: p.value ?? value,
        source: { type: 'purchase_order_receipt', id: receipt.id, lineId: line.id },
        entryId,
        counterAccountId: grni,
        field,
      });
      posting.push(...moved.lines);
    }
  }
  if (!posting.length) return null;
  return post(lctx, {
    companyId: order.company_id,
    date: receipt.date,
    description: `Goods received on purchase order ${order.number}`,
    reference: order.number,
    source: { type: 'purchase_order', id: order.id },
    entryId,
    lines: posting,
  });
}

interface BillLine extends TaxedLine {
  id: string;
  product_id: string | null;
  variant_id: string | null;
  quantity: string | number;
  stock?: LineStock | null;
  purchase_order_line_id: string | null;
}

/**
 * A bill's lines as its approval posts them, stock taken into account (see above), and the
 * lines to add to its entry (a price difference, a revaluation); stock bought without an order
 * is moved in under `entryId`.
 */
export async function billStock(
  ctx: TenantCtx,
  bill: { id: string; company_id: string; issue_date: string; vat_registered: boolean },
  lines: BillLine[],
  entryId: string,
): Promise<{ lines: TaxedLine[]; extra: PostingLine[] }> {
  const lctx = ledgerCtxOf(ctx);
  const out: TaxedLine[] = [];
  const extra: PostingLine[] = [];
  for (const [i, l] of lines.entries()) {
    if (!l.product_id) {
      out.push(l);
      continue;
    }
    const field = `lines[${i}].productId`;
    const item = await stockItem(ctx, l.product_id, l.variant_id, field);
    if (!item.isTracked) {
      out.push(l);
      continue;
    }
    const q = money(l.quantity);
    if (q.lessThanOrEqualTo(0))
      throw badRequest(
        `lines[${i}].quantity`,
        `${item.name} is tracked in stock: a bill brings it in, more than 0 (a supplier credit note sends it back)`,
      );
    // What the company pays for the goods, before any input tax it claims.
    const cost = bill.vat_registered ? money(l.net_amount) : money(l.total_amount);
    const orderLine = l.purchase_order_line_id ? await receivedLine(ctx, l.purchase_order_line_id) : null;
    if (orderLine && orderLine.product_id === l.product_id) {
      const grni = await systemAccount(lctx, bill.company_id, 'grni');
      out.push({ ...l, account_id: grni });
      const diff = cost.minus(orderValue(orderLine, q));
      if (!diff.isZero()) {
        const description = `${item.name}: bill price differs from the order`;
        const cos = await costOfSalesAccount(ctx, bill.company_id, item, field);
        const dearer = diff.greaterThan(0);
        extra.push(
          { accountId: cos, ...(dearer ? { debit: diff } : { credit: diff.abs() }), description },
          { accountId: grni, ...(dearer ? { credit: diff } : { debit: diff.abs() }), description },
        );
      }
      continue;
    }
    // In base units (a box of 12 is 12), one movement per serial: the line's cost spread over them.
    const base = await baseQuantity(ctx, item.productId, l.stock, q, `lines[${i}].unit`);
    for (const p of await piecesIn(ctx, item, base, l.stock ?? null, `lines[${i}]`, cost)) {
      const value = p.value ?? cost;
      const moved = await moveStock(ctx, {
        companyId: bill.company_id,
        productId: item.productId,
        variantId: item.variantId,
        batchId: p.batchId,
        serialId: p.serialId,
        item,
        date: bill.issue_date,
        type: 'purchase',
        quantity: p.quantity,
        value,
        source: { type: 'bill', id: bill.id, lineId: l.id },
        entryId,
        field,
      });
      // The line itself carries the value to inventory; any revaluation moveStock answers is added.
      extra.push(...moved.lines.slice(value.isZero() ? 0 : 1));
    }
    out.push({ ...l, account_id: await inventoryAccount(ctx, bill.company_id, item, field) });
  }
  return { lines: out, extra };
}

async function receivedLine(ctx: TenantCtx, id: string): Promise<OrderLine | null> {
  const line = await ctx.db
    .selectFrom('purchase_order_lines')
    .select(['id', 'product_id', 'variant_id', 'quantity', 'net_amount', 'stock'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!line?.product_id) return null;
  // Only an order line whose goods were received into stock clears GRNI.
  const moved = await ctx.db
    .selectFrom('stock_movements')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('type', '=', 'receipt')
    .where('source_line_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return moved ? line : null;
}
