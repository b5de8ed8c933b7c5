// The purchase-order line each bill line bills (issue 34). A bill line may name it
// (`purchaseOrderLineId`); a bill naming its order links a product line to the order's line of
// that product by itself when the order has exactly one, so that goods received on the order are
// never brought into stock a second time by the bill. A linked line:
//   * is a line of the bill's order (the bill's purchaseOrderId; a bill naming none takes the
//     order of its linked lines, which must then be one order);
//   * bills the order line's product (taken when the bill line names none) in the order line's
//     unit (the quantities received and billed of a line are counted in one unit);
//   * bills no more than was ordered, with what the other live bills (drafts included) bill of it:
//     400 naming lines[i].quantity. Billing more than was received, within what was ordered, is
//     billing ahead of the goods: allowed, and held for approval by the three-way match
//     (receiptMismatch, bills.orders.ts).
// Read with plain SQL on the purchase orders' tables, as bills.orders.ts does (that module makes
// bills through this one).
import { sql } from 'kysely';
import type { Static } from 'typebox';
import { badRequest } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import type { LineStock } from '../inventory/index.ts';
import type { BillLineInput } from './bills.schemas.ts';
import type { BillsCtx } from './bills.service.ts';

type LineIn = Static<typeof BillLineInput>;

interface OrderLine {
  id: string;
  purchase_order_id: string;
  number: string;
  line_no: number;
  description: string;
  product_id: string | null;
  variant_id: string | null;
  quantity: string;
  stock: LineStock | null;
  billed: string;
}

const qty = (v: string) => money(v).toString();

/** The order lines named or found, with what live bills other than `billId` bill of each. */
async function orderLinesOf(
  ctx: BillsCtx,
  companyId: string,
  where: { ids: string[] } | { orderId: string },
  billId: string,
): Promise<OrderLine[]> {
  const which =
    'ids' in where ? sql`l.id in (${sql.join(where.ids)})` : sql`l.purchase_order_id = ${where.orderId}`;
  const r = await sql<OrderLine>`
    select l.id, l.purchase_order_id, o.number, l.line_no, l.description, l.product_id, l.variant_id,
           l.quantity::text as quantity, l.stock,
           coalesce((select sum(bl.quantity) from bill_lines bl
                       join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
                      where bl.tenant_id = l.tenant_id and bl.purchase_order_line_id = l.id
                        and bl.retired_at is null and b.id <> ${billId}
                        and b.deleted_at is null and b.status not in ('void', 'rejected')), 0)::text as billed
      from purchase_order_lines l
      join purchase_orders o on o.tenant_id = l.tenant_id and o.id = l.purchase_order_id
     where l.tenant_id = ${ctx.tenantId} and ${which} and l.retired_at is null
       and o.company_id = ${companyId} and o.deleted_at is null
     order by l.line_no`.execute(ctx.db);
  return r.rows;
}

/**
 * The bill's lines with their order lines resolved (product and unit taken from the order line
 * when not given), the order line each bills (null: none), and the bill's order (the one it
 * names, or the one its linked lines name). 400 naming the line's field for what cannot be.
 */
export async function linkOrderLines<L extends LineIn>(
  ctx: BillsCtx,
  companyId: string,
  bill: { id: string; purchaseOrderId?: string | null | undefined },
  lines: L[],
): Promise<{
  lines: L[];
  orderLineIds: Array<string | null>;
  orderId: string | null;
  /** The field that named the order: purchaseOrderId, or the first line naming one of its lines. */
  orderField: string;
}> {
  const named = [...new Set(lines.flatMap((l) => (l.purchaseOrderLineId ? [l.purchaseOrderLineId] : [])))];
  const found = named.length ? await orderLinesOf(ctx, companyId, { ids: named }, bill.id) : [];
  let orderId = bill.purchaseOrderId ?? null;
  let orderField = 'purchaseOrderId';
  for (const [i, l] of lines.entries()) {
    if (!l.purchaseOrderLineId) continue;
    const field = `lines[${i}].purchaseOrderLineId`;
    const o = found.find((x) => x.id === l.purchaseOrderLineId);
    if (!o) throw badRequest(field, 'no such line of a purchase order of this company');
    if (!orderId) {
      orderId = o.purchase_order_id;
      orderField = field;
    }
    if (o.purchase_order_id !== orderId)
      throw badRequest(field, `a line of purchase order ${o.number}, not of the order this bill bills`);
  }
  // A bill naming its order: a product line names the order's line of that product when it has one.
  const ofOrder = orderId ? await orderLinesOf(ctx, companyId, { orderId }, bill.id) : [];
  const all = new Map([...found, ...ofOrder].map((o) => [o.id, o]));
  const ids: Array<string | null> = [];
  const out = lines.map((l, i) => {
    let id = l.purchaseOrderLineId ?? null;
    if (!id && l.productId) {
      const same = ofOrder.filter((o) => o.product_id === l.productId);
      if (same.length > 1)
        throw badRequest(
          `lines[${i}].purchaseOrderLineId`,
          `purchase order ${same[0]!.number} has ${same.length} lines of this product (lines ` +
            `${same.map((o) => o.line_no).join(', ')}): name the one this line bills`,
        );
      id = same[0]?.id ?? null;
    }
    ids.push(id);
    if (!id) return l;
    const o = all.get(id)!;
    if (l.productId && l.productId !== o.product_id)
      throw badRequest(
        `lines[${i}].productId`,
        `line ${o.line_no} of purchase order ${o.number} (${o.description}) is ${o.product_id ? 'another product' : 'no product'}`,
      );
    if (l.variantId && l.variantId !== o.variant_id)
      throw badRequest(
        `lines[${i}].variantId`,
        `line ${o.line_no} of purchase order ${o.number} orders ${o.variant_id ? 'another variant' : 'no variant'}`,
      );
    const unit = o.stock?.unit;
    if (l.unit != null && l.unit.trim() !== (unit ?? ''))
      throw badRequest(
        `lines[${i}].unit`,
        `line ${o.line_no} of purchase order ${o.number} counts in ${unit ? `"${unit}"` : 'the base unit'}: ` +
          'a line billing it counts in the same',
      );
    return {
      ...l,
      purchaseOrderLineId: id,
      ...(o.product_id && !l.productId ? { productId: o.product_id } : {}),
      ...(unit && l.unit == null ? { unit } : {}),
    };
  });
  // Never more billed than ordered: this bill's lines of each order line with the other live bills.
  const billing = new Map<string, ReturnType<typeof money>>();
  for (const [i, l] of out.entries()) {
    const id = ids[i];
    if (!id) continue;
    const o = all.get(id)!;
    const now = (billing.get(id) ?? money(0)).plus(money(l.quantity));
    billing.set(id, now);
    const left = money(o.quantity).minus(money(o.billed));
    if (now.greaterThan(left))
      throw badRequest(
        `lines[${i}].quantity`,
        `at most ${left.toString()} of line ${o.line_no} of purchase order ${o.number} (${o.description}) is ` +
          `left to bill: ${qty(o.quantity)} ordered, ${qty(o.billed)} on other bills; a delivery beyond the ` +
          'order is ordered first',
      );
  }
  return { lines: out, orderLineIds: ids, orderId, orderField };
}
