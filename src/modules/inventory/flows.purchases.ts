// Purchases move stock.
//
// A purchase-order receipt brings each received line's tracked product into the company's
// default location (type 'receipt'), in one entry per receipt:
//   Dr inventory   Cr 2160 Goods received not invoiced (GRNI), the order line as its open item
// at the order line's net unit price (its net amount, after any discount and before VAT, ÷ its
// quantity), except units already billed: those come in at the bill's price (flows.order-match.ts).
//
// A bill line naming its order line (bills.order-lines.ts links it) moves no stock: the receipt
// brings the goods. It posts to GRNI instead of its expense account, clearing what the receipt
// credited for the units it bills; a price other than the order's is added to the receipt's units
// (revalue.ts: inventory for units still on hand, cost of sales for units gone), and units billed
// before they are received stay a debit on GRNI until the receipt clears it. So GRNI ends at nil
// for an order line received and billed in full, in any order and in any number of parts.
//
// A bill line naming a tracked product and no order line brings the stock in at approval (type
// 'purchase') at the line's cost (net; its total when the company claims no input tax) and posts
// that cost to inventory instead of the line's account. Voiding such a bill takes the stock out
// again (flows.undo.ts; 409 INSUFFICIENT_STOCK when it has been sold). Voiding a bill of an order
// moves no goods: GRNI is owed again by the reversal, and the price difference it added to the
// receipts is taken off them again (unbillStock).
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
import { ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import {
  billMatch,
  differenceShares,
  grniOwed,
  lockOrderOf,
  matchedQuantities,
  receiptValue,
} from './flows.order-match.ts';
import { piecesIn } from './flows.pieces.ts';
import { baseQuantity, type LineStock } from './lines.ts';
import type { PurchaseLine } from './purchase-lines.ts';
import { revalueReceipts, undoRevaluations } from './revalue.ts';
import { costOfSalesAccount, inventoryAccount, type StockItem, stockItem } from './stock.items.ts';
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

/** GRNI lines name the order line as their open item (flows.order-match.ts). */
const tagged = (lines: PostingLine[], grni: string, orderLineId: string) =>
  lines.map((l) => (l.accountId === grni ? { ...l, openItemId: orderLineId } : l));

/**
 * Moves a receipt's tracked goods in and posts Dr inventory / Cr GRNI; the entry's id or null.
 * `lines` are the order's lines as they were before this receipt (their `received`).
 */
export async function receiveStock(
  ctx: TenantCtx,
  order: { id: string; company_id: string; number: string },
  receipt: { id: string; date: string },
  received: Array<{ lineId: string; quantity: number } & LineStock>,
  lines: Array<OrderLine & { received: string }>,
): Promise<string | null> {
  const lctx = ledgerCtxOf(ctx);
  const entryId = crypto.randomUUID();
  const posting: PostingLine[] = [];
  // What this receipt has already taken of each line (a line may come twice in one receipt).
  const before = new Map<string, { received: Decimal; owed: Decimal }>();
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
    const grni = await systemAccount(lctx, order.company_id, 'grni');
    const seen = before.get(line.id) ?? {
      received: money(line.received),
      owed: await grniOwed(ctx, order.company_id, grni, line.id),
    };
    const { billed } = await matchedQuantities(ctx, line.id);
    // Units billed before they came are valued at the bill's price (GRNI's debit for them).
    const value = receiptValue(q, billed.minus(seen.received), seen.owed, (x) => orderValue(line, x));
    before.set(line.id, { received: seen.received.plus(q), owed: seen.owed.plus(value) });
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
      posting.push(...tagged(moved.lines, grni, line.id));
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

interface BillLine extends PurchaseLine {
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
): Promise<{ lines: PurchaseLine[]; extra: PostingLine[] }> {
  const out: PurchaseLine[] = [];
  const extra: PostingLine[] = [];
  // What the bill's earlier lines did to an order line (two lines may bill one order line).
  const earlier = new Map<string, { billed: Decimal; owed: Decimal }>();
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
    const orderLine = l.purchase_order_line_id ? await orderLineOf(ctx, l.purchase_order_line_id) : null;
    if (orderLine && orderLine.product_id === l.product_id) {
      const billed = await billOrderLine(ctx, bill, l, item, cost, orderLine.id, entryId, earlier, field);
      out.push(billed.line);
      extra.push(...billed.extra);
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

/**
 * A bill line of goods on an order line (flows.order-match.ts): Dr GRNI its cost; the price
 * difference on the units received Cr GRNI and onto the receipts' units (revalue.ts).
 */
async function billOrderLine(
  ctx: TenantCtx,
  bill: { id: string; company_id: string; issue_date: string },
  l: BillLine,
  item: StockItem,
  cost: Decimal,
  orderLineId: string,
  entryId: string,
  earlier: Map<string, { billed: Decimal; owed: Decimal }>,
  field: string,
): Promise<{ line: PurchaseLine; extra: PostingLine[] }> {
  const grni = await systemAccount(ledgerCtxOf(ctx), bill.company_id, 'grni');
  await lockOrderOf(ctx, orderLineId);
  const q = money(l.quantity);
  const { received, billed: posted } = await matchedQuantities(ctx, orderLineId);
  const before = earlier.get(orderLineId) ?? {
    billed: posted,
    owed: await grniOwed(ctx, bill.company_id, grni, orderLineId),
  };
  const { matched, difference } = billMatch(q, cost, received, before.billed, before.owed);
  // Dr GRNI the line's cost, Cr GRNI the difference: what is cleared is the receipts' value.
  earlier.set(orderLineId, { billed: before.billed.plus(q), owed: before.owed.minus(cost).plus(difference) });
  const extra: PostingLine[] = [];
  if (!difference.isZero()) {
    const description = `${item.name}: bill price differs from the order`;
    const shares = await differenceShares(ctx, orderLineId, received, before.billed, matched, difference);
    const onto = shares.length
      ? await revalueReceipts(ctx, {
          companyId: bill.company_id,
          date: bill.issue_date,
          entryId,
          type: 'price_difference',
          source: { type: 'bill', id: bill.id, lineId: l.id },
          shares,
          field,
        })
      : // Nothing was moved in by the receipts (the product was not tracked then): cost of sales.
        [
          {
            accountId: await costOfSalesAccount(ctx, bill.company_id, item, field),
            ...(difference.greaterThan(0) ? { debit: difference } : { credit: difference.abs() }),
            description,
          },
        ];
    extra.push(
      {
        accountId: grni,
        ...(difference.greaterThan(0) ? { credit: difference } : { debit: difference.abs() }),
        description,
        openItemId: orderLineId,
      },
      ...onto,
    );
  }
  return { line: { ...l, account_id: grni, open_item_id: orderLineId }, extra };
}

/**
 * A bill of an order voided (after its entry's reversal): the price difference it added to the
 * receipts' units is taken off them again as things stand now (revalue.ts), in an entry of its
 * own dated the void. Answers the entry's id, or null when it added none.
 */
export async function unbillStock(
  ctx: TenantCtx,
  bill: { id: string; company_id: string; bill_number: string },
  date: string,
): Promise<string | null> {
  const entryId = crypto.randomUUID();
  const lines = await undoRevaluations(ctx, {
    companyId: bill.company_id,
    source: { type: 'bill', id: bill.id },
    date,
    entryId,
  });
  if (!lines.some((l) => !money(l.debit).isZero() || !money(l.credit).isZero())) return null;
  return post(ledgerCtxOf(ctx), {
    companyId: bill.company_id,
    date,
    description: `Void of bill ${bill.bill_number}: price difference taken off the goods received`,
    source: { type: 'bill', id: bill.id },
    entryId,
    lines,
  });
}

/** An order line with a product (the one a bill line names). */
async function orderLineOf(ctx: TenantCtx, id: string) {
  const line = await ctx.db
    .selectFrom('purchase_order_lines')
    .select(['id', 'product_id'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return line?.product_id ? line : null;
}
