// A bill against a purchase order: the order must be the company's, from the same supplier and
// sent (not a draft, not cancelled); and a bill that bills more than was received is held for
// approval with the reason (three-way match: order, receipt, bill). Read here with plain SQL on
// the purchase orders' tables rather than through that module, which itself makes bills through
// this one (the modules would import each other).
import { sql } from 'kysely';
import { formatAmount } from '../../platform/files/table.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { money, sum } from '../../platform/money/money.ts';
import type { BillsCtx } from './bills.service.ts';

/** The order a bill names: its number; 400 naming purchaseOrderId when it cannot be billed. */
export async function orderForBill(
  ctx: BillsCtx,
  companyId: string,
  contactId: string,
  orderId: string,
  /** The field the 400 names: purchaseOrderId, or the line whose order line named the order. */
  field = 'purchaseOrderId',
): Promise<{ number: string }> {
  const o = await ctx.db
    .selectFrom('purchase_orders')
    .select(['number', 'contact_id', 'status'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', orderId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!o) throw badRequest(field, 'no such purchase order in this company');
  if (o.contact_id !== contactId)
    throw badRequest(field, `purchase order ${o.number} is from another supplier`);
  if (o.status === 'draft' || o.status === 'cancelled')
    throw badRequest(field, `purchase order ${o.number} is ${o.status}: it is not billed`);
  return { number: o.number };
}

const qty = (v: string) => money(v).toString();

/**
 * Why bill `billId` bills more than was received on order `orderId`, or null. Per order line:
 * the quantities of the live bills (not void, rejected or deleted) that name the line against
 * what was received of it. When the bill has lines that name no order line, in value too: the
 * net of every live bill against the order against the value received (received × the order's
 * price, half-up to the cent per line).
 */
export async function receiptMismatch(
  ctx: BillsCtx,
  orderId: string,
  billId: string,
): Promise<string | null> {
  const live = sql`b.deleted_at is null and b.status not in ('void', 'rejected')`;
  const lines = await sql<{
    line_no: number;
    description: string;
    unit_price: string;
    received: string;
    billed: string;
  }>`
    select l.line_no, l.description, l.unit_price,
           coalesce((select sum(r.quantity) from purchase_order_receipt_lines r
                       join purchase_order_receipts pr on pr.tenant_id = r.tenant_id and pr.id = r.receipt_id
                      where r.tenant_id = l.tenant_id and r.purchase_order_line_id = l.id
                        and pr.reversed_at is null), 0)::text as received,
           coalesce((select sum(bl.quantity) from bill_lines bl
                       join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
                      where bl.tenant_id = l.tenant_id and bl.purchase_order_line_id = l.id
                        and bl.retired_at is null and ${live}), 0)::text as billed
      from purchase_order_lines l
     where l.tenant_id = ${ctx.tenantId} and l.purchase_order_id = ${orderId} and l.retired_at is null
     order by l.line_no`.execute(ctx.db);
  const reasons: string[] = [];
  for (const l of lines.rows) {
    if (money(l.billed).greaterThan(money(l.received)))
      reasons.push(
        `line ${l.line_no} (${l.description}): ${qty(l.billed)} billed, ${qty(l.received)} received`,
      );
  }
  const unlinked = await sql<{ n: string }>`
    select count(*)::text as n from bill_lines
     where tenant_id = ${ctx.tenantId} and bill_id = ${billId} and retired_at is null
       and purchase_order_line_id is null`.execute(ctx.db);
  if (unlinked.rows[0]!.n !== '0') {
    const billed = await sql<{ net: string | null }>`
      select sum(bl.net_amount)::text as net from bill_lines bl
        join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
       where bl.tenant_id = ${ctx.tenantId} and b.purchase_order_id = ${orderId}
         and bl.retired_at is null and ${live}`.execute(ctx.db);
    const billedValue = money(billed.rows[0]?.net ?? '0');
    const receivedValue = sum(
      lines.rows.map((l) => money(l.received).times(money(l.unit_price)).toDecimalPlaces(2)),
    );
    if (billedValue.greaterThan(receivedValue))
      reasons.push(
        `${formatAmount(billedValue, 'ZAR')} billed (excl. VAT) against ${formatAmount(receivedValue, 'ZAR')} received`,
      );
  }
  if (!reasons.length) return null;
  const number = await ctx.db
    .selectFrom('purchase_orders')
    .select('number')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return `This bill bills more than was received on purchase order ${number.number}: ${reasons.join('; ')}`;
}

/**
 * A live line of order `o` received beyond what live bills bill of it: the one test of whether
 * an order is billed, read by reopenOrder and closeOrder.
 */
const UNBILLED_RECEIVED_LINE = sql`
  select 1 from purchase_order_lines l
   where l.tenant_id = o.tenant_id and l.purchase_order_id = o.id and l.retired_at is null
     and coalesce((select sum(bl.quantity) from bill_lines bl
                     join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
                    where bl.tenant_id = l.tenant_id and bl.purchase_order_line_id = l.id
                      and bl.retired_at is null and b.deleted_at is null
                      and b.status not in ('void', 'rejected')), 0)
       < coalesce((select sum(r.quantity) from purchase_order_receipt_lines r
                     join purchase_order_receipts pr on pr.tenant_id = r.tenant_id and pr.id = r.receipt_id
                    where r.tenant_id = l.tenant_id and r.purchase_order_line_id = l.id
                      and pr.reversed_at is null), 0)`;

/**
 * A bill against order `orderId` stopped counting (void, rejected, deleted): a billed order of
 * which some received quantity is no longer on a live bill is received again, to be billed anew.
 * (Receipts only add up, so a billed order goes back no further than received.)
 */
export async function reopenOrder(ctx: BillsCtx, orderId: string | null): Promise<void> {
  if (!orderId) return;
  await sql`
    update purchase_orders o set status = 'received'
     where o.tenant_id = ${ctx.tenantId} and o.id = ${orderId} and o.status = 'billed'
       and exists (${UNBILLED_RECEIVED_LINE})`.execute(ctx.db);
}

/**
 * A bill against order `orderId` now bills everything received (its lines linked, or replaced): a
 * received order of which every line is received in full and billed for all of it is billed.
 */
export async function closeOrder(ctx: BillsCtx, orderId: string | null): Promise<void> {
  if (!orderId) return;
  await sql`
    update purchase_orders o set status = 'billed'
     where o.tenant_id = ${ctx.tenantId} and o.id = ${orderId} and o.status = 'received'
       and not exists (${UNBILLED_RECEIVED_LINE})`.execute(ctx.db);
}

/** Takes the order's row lock (receipts take it too): a void and a receipt take turns. */
export async function lockOrderRow(ctx: BillsCtx, orderId: string | null): Promise<void> {
  if (!orderId) return;
  await sql`select id from purchase_orders where tenant_id = ${ctx.tenantId} and id = ${orderId} for update`.execute(
    ctx.db,
  );
}
