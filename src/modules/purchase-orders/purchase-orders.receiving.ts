// Goods received against an order, and the bill made from what was received. An order's status
// follows its lines: nothing received → sent; some → partially_received; everything ordered →
// received; everything ordered received and billed → billed. A receipt of tracked goods posts
// Dr inventory / Cr GRNI (inventory/flows.purchases.ts); the bill posts the rest when approved
// (bills.posting.ts).

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money } from '../../platform/money/money.ts';
import { type BillRecord, type BillTaxCode, insertBill } from '../bills/index.ts';
import { receiveStock, stockColumn } from '../inventory/index.ts';
import { type OrderLineRow, type OrderRecord, type OrderRow, orderLines } from './purchase-orders.queries.ts';
import type { BillFromOrder, ReceiptCreate } from './purchase-orders.schemas.ts';
import { lockOrder, recordOf } from './purchase-orders.service.ts';
import type { PurchaseOrderStatus } from './purchase-orders.tables.ts';

/** The status the order's lines say, for an order that has been sent. */
export function statusOf(
  lines: Array<Pick<OrderLineRow, 'quantity' | 'received' | 'billed'>>,
): PurchaseOrderStatus {
  const all = lines.every((l) => money(l.received).greaterThanOrEqualTo(money(l.quantity)));
  if (all && lines.every((l) => money(l.billed).greaterThanOrEqualTo(money(l.received)))) return 'billed';
  if (all) return 'received';
  return lines.some((l) => !money(l.received).isZero()) ? 'partially_received' : 'sent';
}

/** 409 for an order that takes no more receipts or bills: a draft, a cancelled or billed one. */
function assertOpen(row: OrderRow) {
  if (row.status === 'draft')
    throw conflict(`Purchase order ${row.number} is a draft: send it first`, { code: 'ORDER_NOT_SENT' });
  if (row.status === 'cancelled' || row.status === 'billed')
    throw conflict(`Purchase order ${row.number} is ${row.status}`, { code: 'ORDER_CLOSED' });
}

/** Sets the order's status from its lines (statusOf). */
export async function settle(ctx: TenantCtx, row: OrderRow): Promise<OrderRow> {
  const lines = (await orderLines(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  return ctx.db
    .updateTable('purchase_orders')
    .set({ status: statusOf(lines) })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * POST /api/purchase-orders/{id}/receipts: quantities received per line, never more than was
 * ordered less what was received before (400 naming lines[i].quantity).
 */
export async function receiveOrder(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof ReceiptCreate>,
): Promise<OrderRecord> {
  const row = await lockOrder(ctx, id);
  assertOpen(row);
  if (input.date < row.issue_date) throw badRequest('date', "must not be before the order's issue date");
  const lines = (await orderLines(ctx.db, ctx.tenantId, [id])).get(id)!;
  const receiving = new Map<string, ReturnType<typeof money>>();
  for (const [i, l] of input.lines.entries()) {
    const line = lines.find((x) => x.id === l.lineId);
    if (!line) throw badRequest(`lines[${i}].lineId`, `no line of purchase order ${row.number}`);
    if (!hasAtMostDecimals(l.quantity, 4)) throw badRequest(`lines[${i}].quantity`, 'at most four decimals');
    const now = (receiving.get(line.id) ?? money(0)).plus(money(l.quantity));
    const open = money(line.quantity).minus(money(line.received));
    if (now.greaterThan(open))
      throw badRequest(
        `lines[${i}].quantity`,
        `at most ${open.toString()} of line ${line.line_no} (${line.description}) is still to come: ` +
          `${money(line.quantity).toString()} ordered, ${money(line.received).toString()} received`,
      );
    receiving.set(line.id, now);
  }
  const receiptId = crypto.randomUUID();
  await ctx.db
    .insertInto('purchase_order_receipts')
    .values({
      tenant_id: ctx.tenantId,
      id: receiptId,
      purchase_order_id: id,
      date: input.date,
      note: input.note ?? null,
    })
    .execute();
  await ctx.db
    .insertInto('purchase_order_receipt_lines')
    .values(
      input.lines.map((l) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        receipt_id: receiptId,
        purchase_order_line_id: l.lineId,
        quantity: String(l.quantity),
        stock: stockColumn(l),
      })),
    )
    .execute();
  // Tracked goods come into stock at the order's price: Dr inventory / Cr GRNI (flows.purchases.ts).
  await receiveStock(ctx, row, { id: receiptId, date: input.date }, input.lines, lines);
  const updated = await settle(ctx, row);
  ctx.reply.code(201);
  return recordOf(ctx, updated);
}

/**
 * POST /api/purchase-orders/{id}/bill: a draft bill of what was received and not yet billed, at
 * the order's prices, tax codes and accounts; each bill line names its order line.
 */
export async function billOrder(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BillFromOrder>,
): Promise<BillRecord> {
  const row = await lockOrder(ctx, id);
  assertOpen(row);
  const lines = (await orderLines(ctx.db, ctx.tenantId, [id])).get(id)!;
  const open = lines
    .map((l) => ({ line: l, quantity: money(l.received).minus(money(l.billed)) }))
    .filter((x) => x.quantity.greaterThan(0));
  if (!open.length)
    throw conflict(`Nothing received on purchase order ${row.number} is left to bill`, {
      code: 'NOTHING_TO_BILL',
    });
  const { bill } = await insertBill(ctx, {
    contactId: row.contact_id,
    billNumber: input.billNumber,
    issueDate: input.issueDate,
    dueDate: input.dueDate,
    currency: row.currency,
    ...(row.reference ? { reference: row.reference } : {}),
    ...(input.supplierVatNumber ? { supplierVatNumber: input.supplierVatNumber } : {}),
    purchaseOrderId: row.id,
    lines: open.map(({ line, quantity }) => ({
      description: line.description,
      quantity: quantity.toNumber(),
      unitPrice: money(line.unit_price).toNumber(),
      taxCode: line.tax_code as BillTaxCode,
      accountId: line.account_id,
      productId: line.product_id,
      ...(line.stock?.unit ? { unit: line.stock.unit } : {}),
      purchaseOrderLineId: line.id,
    })),
  });
  await settle(ctx, row);
  ctx.reply.code(201);
  return bill;
}
