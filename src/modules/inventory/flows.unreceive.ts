// A purchase-order receipt reversed (purchase-orders/purchase-orders.reversal.ts): the goods it
// brought in go out again, dated the reversal, as goods sent back to the supplier go (type
// 'return_out', flows.returns.ts): each movement names the receipt movement it undoes
// (undoMoved), so moveStock takes it out at the value it came in with (FIFO: from that movement's
// own layer first; average: its value pro rata), with its batch and serial. One entry:
//   Dr GRNI 2160 (what the receipt credited it, for what goes back)   Cr inventory (the value out)
// The two are equal unless the goods' value moved since (a landed cost added to the layer, FIFO
// taking part from other layers once the receipt's own was partly sold): that difference goes to
// cost of sales, so inventory still equals the valuation and GRNI is back to what it was.
//
// Goods gone (sold, transferred, a serial no longer at its location) are refused before anything
// moves: 409 INSUFFICIENT_STOCK, even for a product that allows negative stock (a reversal puts
// back what was, it does not oversell).
import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { cents, money } from '../../platform/money/money.ts';
import { ledgerCtxOf, type PostingLine, post, reversalOf, systemAccount } from '../ledger/index.ts';
import { type MovedRow, openOf, reversedSoFar, undoMoved } from './flows.pieces.ts';
import { costOfSalesAccount, type StockItem, stockItem } from './stock.items.ts';
import { moveStock, NIL, onHandAt } from './stock.move.ts';

interface ReceiptMove extends MovedRow {
  item_id: string;
  product_id: string;
  variant_id: string | null;
  location_id: string;
  value: string;
  entry_id: string | null;
  source_line_id: string | null;
}

/** 409 INSUFFICIENT_STOCK unless every location (and batch, and serial) still holds what came in. */
async function assertStillThere(
  ctx: TenantCtx,
  companyId: string,
  moves: ReceiptMove[],
  items: Map<string, StockItem>,
) {
  const need = new Map<string, { m: ReceiptMove; q: Decimal }>();
  for (const m of moves) {
    const key = `${m.location_id}|${m.item_id}|${m.batch_id ?? NIL}`;
    const was = need.get(key);
    need.set(key, { m, q: (was?.q ?? money(0)).plus(openOf(m)) });
    if (!m.serial_id || openOf(m).isZero()) continue;
    const s = await ctx.db
      .selectFrom('stock_serials')
      .select(['serial', 'location_id'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', m.serial_id)
      .executeTakeFirstOrThrow();
    if (s.location_id !== m.location_id)
      throw conflict(
        `${items.get(m.item_id)!.name}: serial ${s.serial} is no longer where the receipt put it (sold or moved)`,
        { code: 'INSUFFICIENT_STOCK' },
      );
  }
  for (const { m, q } of need.values()) {
    if (q.isZero()) continue;
    const here = await onHandAt(ctx, companyId, m.location_id, m.item_id, m.batch_id);
    if (here.lessThan(q))
      throw conflict(
        `${items.get(m.item_id)!.name}: ${here.toString()} on hand where the receipt put ${q.toString()}: ` +
          'the goods have gone (sold or transferred)',
        { code: 'INSUFFICIENT_STOCK' },
      );
  }
}

/**
 * Takes out again what receipt `receipt.id` brought in and posts the entry dated `date`; answers
 * the entry's id, or null when the receipt moved no stock (untracked goods).
 */
export async function unreceiveStock(
  ctx: TenantCtx,
  order: { id: string; company_id: string; number: string },
  receipt: { id: string },
  date: string,
): Promise<string | null> {
  const moves: ReceiptMove[] = await ctx.db
    .selectFrom('stock_movements as m')
    .select([
      'm.id',
      'm.quantity',
      'm.batch_id',
      'm.serial_id',
      'm.item_id',
      'm.product_id',
      'm.variant_id',
      'm.location_id',
      'm.value',
      'm.entry_id',
      'm.source_line_id',
    ])
    .select(reversedSoFar(ctx.tenantId))
    .where('m.tenant_id', '=', ctx.tenantId)
    .where('m.company_id', '=', order.company_id)
    .where('m.source_type', '=', 'purchase_order_receipt')
    .where('m.source_id', '=', receipt.id)
    .where('m.type', '=', 'receipt')
    .where('m.quantity', '>', '0')
    .orderBy('m.seq')
    .execute();
  if (!moves.length) return null;
  const items = new Map<string, StockItem>();
  for (const m of moves)
    if (!items.has(m.item_id))
      items.set(m.item_id, await stockItem(ctx, m.product_id, m.variant_id, 'receiptId'));
  await assertStillThere(ctx, order.company_id, moves, items);

  const lctx = ledgerCtxOf(ctx);
  const grni = await systemAccount(lctx, order.company_id, 'grni');
  const entryId = crypto.randomUUID();
  const lines: PostingLine[] = [];
  for (const item of items.values()) {
    const mine = moves.filter((m) => m.item_id === item.itemId);
    const base = mine.reduce((s, m) => s.plus(openOf(m)), money(0));
    if (base.isZero()) continue;
    // Each piece names the receipt movement it undoes, with that movement's batch and serial.
    const { taken } = await undoMoved(ctx, item, mine, base, null, 'receiptId');
    for (const p of taken) {
      const m = mine.find((x) => x.id === p.reversesMovementId)!;
      const moved = await moveStock(ctx, {
        companyId: order.company_id,
        locationId: m.location_id,
        productId: item.productId,
        variantId: item.variantId,
        batchId: p.batchId,
        serialId: p.serialId,
        item,
        date,
        type: 'return_out',
        quantity: p.quantity.negated(),
        reversesMovementId: m.id,
        source: { type: 'purchase_order_receipt_reversal', id: receipt.id, lineId: m.source_line_id },
        entryId,
        counterAccountId: grni,
        field: 'receiptId',
      });
      // GRNI's lines name the order line as their open item, as the receipt's did.
      const line = m.source_line_id;
      lines.push(...moved.lines.map((l) => (l.accountId === grni && line ? { ...l, openItemId: line } : l)));
      // GRNI gets back exactly what the receipt credited it for these goods; any other value
      // the goods left at is cost of sales.
      const q = money(m.quantity);
      const credited = p.quantity.equals(q)
        ? money(m.value)
        : cents(money(m.value).times(p.quantity).dividedBy(q));
      const out = await ctx.db
        .selectFrom('stock_movements')
        .select('value')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', moved.movementId)
        .executeTakeFirstOrThrow();
      const diff = credited.minus(money(out.value).abs());
      if (!diff.isZero()) {
        const cos = await costOfSalesAccount(ctx, order.company_id, item, 'receiptId');
        const description = `${item.name}: value moved since the receipt`;
        const more = diff.greaterThan(0);
        lines.push(
          {
            accountId: grni,
            ...(more ? { debit: diff } : { credit: diff.abs() }),
            description,
            openItemId: line,
          },
          { accountId: cos, ...(more ? { credit: diff } : { debit: diff.abs() }), description },
        );
      }
    }
  }
  if (!lines.length) return null;
  // The entry names the receipt's as the one it reverses (once: the ledger's unique index).
  const receiptEntry = moves.find((m) => m.entry_id)?.entry_id ?? null;
  const linked = receiptEntry && !(await reversalOf(lctx, receiptEntry)) ? receiptEntry : null;
  return post(lctx, {
    companyId: order.company_id,
    date,
    description: `Goods received on purchase order ${order.number} reversed`,
    reference: order.number,
    source: { type: 'purchase_order', id: order.id },
    entryId,
    ...(linked ? { reversesEntryId: linked } : {}),
    lines,
  });
}
