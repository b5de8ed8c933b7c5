// Goods received not invoiced (GRNI, 2160), matched per purchase-order line (issue 34). Every
// line posted to GRNI names its order line as its open item (journal_lines.open_item_id), so the
// ledger itself says what is owed for each line: a credit for goods received and not billed (at
// what they came in at), a debit for goods billed and not received (at the bill's price). The
// documents on a line keep it matched:
//   * a receipt of goods already billed brings them in at the bill's price: the debit of the
//     billed-not-received units, pro rata (all of it for the last of them); the rest at the
//     order's price; Cr GRNI what came in;
//   * a bill of goods already received clears their credit, pro rata (all of it for the last of
//     them), Dr GRNI; what the supplier charges for them beyond (or short of) that is the price
//     difference, spread over the receipts of those units and added to them (revalue.ts: units on
//     hand take it, units gone send it to cost of sales), Cr GRNI; goods billed beyond what was
//     received are billed ahead, Dr GRNI at the bill's price;
//   * a receipt reversed, a bill voided: their reversals name the same open items.
// So when an order line's received and billed quantities meet, its GRNI is nil, to the cent,
// whatever the order of receipts and bills, partial or not. Units are the order line's (a bill
// line billing it counts in the same unit); movements count base units.
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { cents, money, ZERO } from '../../platform/money/money.ts';
import { largestRemainder } from './landed-costs.allocate.ts';
import type { ReceiptShare } from './revalue.ts';

type Ctx = Pick<TenantCtx, 'db' | 'tenantId'>;

/** Received (receipts not reversed) and billed (bills posted, not void) of an order line. */
export async function matchedQuantities(ctx: Ctx, orderLineId: string) {
  const r = await sql<{ received: string; billed: string }>`
    select coalesce((select sum(r.quantity) from purchase_order_receipt_lines r
                       join purchase_order_receipts pr on pr.tenant_id = r.tenant_id and pr.id = r.receipt_id
                      where r.tenant_id = ${ctx.tenantId} and r.purchase_order_line_id = ${orderLineId}
                        and pr.reversed_at is null), 0)::text as received,
           coalesce((select sum(bl.quantity) from bill_lines bl
                       join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
                      where bl.tenant_id = ${ctx.tenantId} and bl.purchase_order_line_id = ${orderLineId}
                        and bl.retired_at is null and b.deleted_at is null
                        and b.status in ('approved', 'partially_paid', 'paid')), 0)::text as billed`.execute(
    ctx.db,
  );
  return { received: money(r.rows[0]!.received), billed: money(r.rows[0]!.billed) };
}

/** What GRNI owes on an order line: credit less debit of the lines naming it (a debit: < 0). */
export async function grniOwed(ctx: Ctx, companyId: string, grni: string, orderLineId: string) {
  const r = await sql<{ owed: string | null }>`
    select sum(credit - debit)::text as owed from journal_lines
     where tenant_id = ${ctx.tenantId} and company_id = ${companyId} and account_id = ${grni}
       and open_item_id = ${orderLineId}`.execute(ctx.db);
  return money(r.rows[0]?.owed ?? 0);
}

/** Takes the order's row lock: receipts take it too, so the quantities and GRNI hold still. */
export async function lockOrderOf(ctx: Ctx, orderLineId: string) {
  await sql`select o.id from purchase_orders o
              join purchase_order_lines l on l.tenant_id = o.tenant_id and l.purchase_order_id = o.id
             where o.tenant_id = ${ctx.tenantId} and l.id = ${orderLineId}
               for update of o`.execute(ctx.db);
}

const min = (a: Decimal, b: Decimal) => (a.lessThan(b) ? a : b);
const max = (a: Decimal, b: Decimal) => (a.greaterThan(b) ? a : b);

/** `part` of `whole` of an amount: all of it for the whole, else pro rata in cents. */
const proRata = (amount: Decimal, part: Decimal, whole: Decimal) =>
  part.equals(whole) ? amount : cents(amount.times(part).dividedBy(whole));

/**
 * The value of `quantity` received on an order line: units billed ahead (`billedAhead`, GRNI a
 * debit `owed` < 0 for them) at the bill's price, the rest at `orderValue`.
 */
export function receiptValue(
  quantity: Decimal,
  billedAhead: Decimal,
  owed: Decimal,
  orderValue: (q: Decimal) => Decimal,
): Decimal {
  const debit = owed.negated();
  if (!billedAhead.greaterThan(0) || !debit.greaterThan(0)) return orderValue(quantity);
  const m = min(quantity, billedAhead);
  const atBill = proRata(debit, m, billedAhead);
  const rest = quantity.minus(m);
  return rest.isZero() ? atBill : atBill.plus(orderValue(rest));
}

/**
 * A bill of `quantity` costing `cost` on an order line with `received` and `billed` before it and
 * GRNI owing `owed`: what it clears of the received units' credit and the price difference on
 * them (`matched` units), the rest billed ahead.
 */
export function billMatch(
  quantity: Decimal,
  cost: Decimal,
  received: Decimal,
  billed: Decimal,
  owed: Decimal,
) {
  const unbilled = received.minus(billed);
  const matched = unbilled.greaterThan(0) ? min(quantity, unbilled) : ZERO;
  if (matched.isZero()) return { matched, difference: ZERO };
  const cleared = proRata(owed, matched, unbilled);
  return { matched, difference: proRata(cost, matched, quantity).minus(cleared) };
}

/**
 * The price difference spread over the receipt movements of the units billed: the order line's
 * receipts in the order they came (receipts reversed left out), units `billed` to `billed +
 * matched` of them, in cents by the largest remainder. None when no receipt moved stock.
 */
export async function differenceShares(
  ctx: Ctx,
  orderLineId: string,
  received: Decimal,
  billed: Decimal,
  matched: Decimal,
  difference: Decimal,
): Promise<ReceiptShare[]> {
  const moves = await sql<{ id: string; quantity: string }>`
    select m.id, m.quantity::text as quantity from stock_movements m
      join purchase_order_receipts pr on pr.tenant_id = m.tenant_id and pr.id = m.source_id
     where m.tenant_id = ${ctx.tenantId} and m.type = 'receipt' and m.source_line_id = ${orderLineId}
       and m.quantity > 0 and pr.reversed_at is null
     order by m.date, m.seq`.execute(ctx.db);
  if (!moves.rows.length || !received.greaterThan(0)) return [];
  const base = moves.rows.reduce((s, m) => s.plus(money(m.quantity)), ZERO);
  // Base units per unit of the order line (a box of 12: 12).
  const factor = base.dividedBy(received);
  const from = billed.times(factor);
  const to = billed.plus(matched).times(factor);
  let at = ZERO;
  let weights = moves.rows.map((m) => {
    const q = money(m.quantity);
    const lo = max(at, from);
    const hi = min(at.plus(q), to);
    at = at.plus(q);
    return hi.greaterThan(lo) ? hi.minus(lo) : ZERO;
  });
  if (weights.every((w) => w.isZero())) weights = moves.rows.map((m) => money(m.quantity));
  const parts = largestRemainder(difference.abs(), weights);
  return moves.rows.map((m, i) => ({
    receiptMovementId: m.id,
    amount: difference.isNegative() ? parts[i]!.negated() : parts[i]!,
  }));
}
