// Reversing a goods receipt entered by mistake (wrong quantity, wrong order): the receipt stays,
// marked reversed (when, by whom, the date it posted at, why); its goods go out again at the value
// they came in with and its entry is undone, Dr GRNI / Cr inventory, dated the reversal
// (inventory/flows.unreceive.ts). Its lines no longer count as received, so the order's status
// falls back (received → partially_received → sent); a cancelled order stays cancelled.
//
// Refused (409, nothing written): a receipt reversed already (ALREADY_REVERSED); one whose order
// lines are billed beyond what would remain received (RECEIPT_BILLED: the bill cleared GRNI for
// those goods, so reverse or credit the bill first); goods gone (INSUFFICIENT_STOCK); a date on or
// before the lock date (PERIOD_LOCKED). Another company's or tenant's order or receipt is 404.
// The order row is locked first, so of two reversals at once the second sees the first's mark.

import type { Static } from 'typebox';
import { todayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { unreceiveStock } from '../inventory/index.ts';
import { assertOpenPeriod, ledgerCtxOf } from '../ledger/index.ts';
import { type OrderRecord, orderLines } from './purchase-orders.queries.ts';
import { settle } from './purchase-orders.receiving.ts';
import type { ReceiptReverse } from './purchase-orders.schemas.ts';
import { lockOrder, recordOf } from './purchase-orders.service.ts';

/** POST /api/purchase-orders/{id}/receipts/{receiptId}/reverse: 200 with the order. */
export async function reverseReceipt(
  ctx: TenantCtx,
  id: string,
  receiptId: string,
  input: Static<typeof ReceiptReverse>,
): Promise<OrderRecord> {
  const row = await lockOrder(ctx, id);
  const receipt = await ctx.db
    .selectFrom('purchase_order_receipts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('purchase_order_id', '=', id)
    .where('id', '=', receiptId)
    .forUpdate()
    .executeTakeFirst();
  if (!receipt) throw notFound('Receipt');
  if (receipt.reversed_at)
    throw conflict(`This receipt of purchase order ${row.number} was reversed on ${receipt.reversal_date}`, {
      code: 'ALREADY_REVERSED',
    });
  const date = input.date ?? todayOf(ctx.deps.now());
  if (date < receipt.date)
    throw badRequest('date', `must not be before the receipt's date (${receipt.date})`);
  const lctx = ledgerCtxOf(ctx);
  await assertOpenPeriod(lctx, row.company_id, date);

  // What each order line would still have received without this receipt must cover its bills.
  const taken = await ctx.db
    .selectFrom('purchase_order_receipt_lines')
    .select(['purchase_order_line_id', 'quantity'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('receipt_id', '=', receiptId)
    .execute();
  const lines = (await orderLines(ctx.db, ctx.tenantId, [id])).get(id)!;
  for (const line of lines) {
    const back = taken
      .filter((t) => t.purchase_order_line_id === line.id)
      .reduce((s, t) => s.plus(money(t.quantity)), money(0));
    if (back.isZero()) continue;
    const remains = money(line.received).minus(back);
    if (money(line.billed).greaterThan(remains))
      throw conflict(
        `Line ${line.line_no} (${line.description}) of purchase order ${row.number} is billed for ` +
          `${money(line.billed).toString()}; without this receipt ${remains.toString()} would be received: ` +
          'reverse or credit the bill first',
        { code: 'RECEIPT_BILLED' },
      );
  }

  await unreceiveStock(ctx, row, receipt, date);
  await ctx.db
    .updateTable('purchase_order_receipts')
    .set({
      reversed_at: ctx.deps.now(),
      reversed_by_type: lctx.actor?.type ?? 'system',
      reversed_by: lctx.actor?.id ?? null,
      reversal_date: date,
      reversal_reason: input.reason?.trim() || null,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', receiptId)
    .execute();
  // A cancelled order stays cancelled (the update still marks it changed for ETag and updatedSince).
  const updated =
    row.status === 'cancelled'
      ? await ctx.db
          .updateTable('purchase_orders')
          .set({ status: row.status })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await settle(ctx, row);
  return recordOf(ctx, updated);
}
