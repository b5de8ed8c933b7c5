// Sales move stock. A released invoice or cash sale takes each line's tracked
// product out of the company's default location (type 'sale', the document and line as its
// source); a released credit note brings it back (type 'return_in'). The value moveStock answers
// posts in THE SAME entry the document posts (releaseInvoice passes its entryId):
//   sale       Dr cost of sales   Cr inventory   (at the cost method's value)
//   return in  Dr inventory       Cr cost of sales
// A credit note that names the invoice it credits brings each product back at the cost it left
// with, pro rata (reversesMovementId: the invoice's sale movements of the same item not yet
// returned, oldest first); otherwise at the current average. A
// negative line (goods returned on an invoice, or taken back on a credit note) moves the other way.
// The credit note a void issues brings back exactly what the voided document moved; a credit
// note against a debit note moves nothing.
//
// Delivery notes (the sales-order path): a released delivery note moves the stock itself, in an
// entry of its own (it posts nothing else). An invoice converted from a sales order then moves,
// per item, only what the order's released delivery notes have not already covered: the
// quantity delivered less what the order's earlier invoices took as delivered (their line
// quantity less what they moved themselves). So goods leave once, whichever comes first.
//
// A line's quantity is in its `unit` (default the base unit): what moves is quantity × the unit's
// factor. A line moves one movement per batch and per serial (flows.pieces.ts): a sale of a batch
// product names its batch or is picked first expiry first out; a serial product's line names one
// serial per base unit (400 naming lines[i].serials otherwise). A credit note brings back the
// batch and serials of the invoice's movements (those it names, else the first not yet returned).

import { Decimal } from 'decimal.js';
import { money, ZERO } from '../../platform/money/money.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import { ledgerCtxOf, type PostingLine, post } from '../ledger/index.ts';
import { piecesBack, piecesIn, piecesOut } from './flows.pieces.ts';
import { costsNothing } from './flows.undo.ts';
import { baseQuantity, type LineStock } from './lines.ts';
import { costOfSalesAccount, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

/**
 * The sales document types whose release moves stock. Not a debit note: it charges more for a
 * supply made (a price put right), not goods of its own.
 */
const MOVING = new Set(['invoice', 'cash_sale', 'credit_note', 'delivery_note']);

interface DocRow {
  id: string;
  company_id: string;
  document_type: string;
  issue_date: string;
  credited_invoice_id: string | null;
  converted_from_id: string | null;
}

interface DocLine {
  id: string;
  product_id: string | null;
  variant_id: string | null;
  quantity: string | number;
  /** The unit, batch and serials the line names (lines.ts). */
  stock?: LineStock | null;
}

/**
 * Moves the stock of a document being released and answers the ledger lines that carry its
 * value, for the caller to post under `entryId` (in the document's own entry).
 */
export async function moveSalesStock(
  ctx: WorkCtx,
  row: DocRow,
  lines: DocLine[],
  entryId: string,
  opts: { ownEntry?: boolean; voiding?: boolean } = {},
): Promise<PostingLine[]> {
  if (!MOVING.has(row.document_type)) return [];
  if (row.document_type === 'credit_note' && row.credited_invoice_id) {
    // The credit note a void issues undoes exactly what the document moved (nothing for a debit
    // note, nor for an invoice whose goods left on a delivery note, which stands).
    if (opts.voiding) return returnAll(ctx, row, row.credited_invoice_id, entryId);
    if (await isDebitNote(ctx, row.credited_invoice_id)) return [];
  }
  const ownEntry = opts.ownEntry ?? false;
  const out: PostingLine[] = [];
  const covered = await coveredByDeliveries(ctx, row);
  for (const [i, l] of lines.entries()) {
    if (!l.product_id) continue;
    const field = `lines[${i}].productId`;
    const item = await stockItem(ctx, l.product_id, l.variant_id, field);
    if (!item.isTracked) continue;
    // Sold (or delivered) goes out; a credit note's line comes back. In base units.
    const base = await baseQuantity(ctx, item.productId, l.stock, l.quantity, `lines[${i}].unit`);
    let signed = row.document_type === 'credit_note' ? base : base.negated();
    if (signed.lessThan(0) && covered) {
      // Goods the order's delivery notes took out already: this invoice moves only the rest.
      const left = covered.get(item.itemId) ?? ZERO;
      // (Never below zero: a delivery note voided since leaves earlier invoices' use uncovered.)
      const use = Decimal.max(ZERO, Decimal.min(left, signed.abs()));
      covered.set(item.itemId, left.minus(use));
      signed = signed.plus(use);
    }
    if (signed.isZero()) continue;
    const incoming = signed.greaterThan(0);
    const at = `lines[${i}]`;
    const stock = l.stock ?? null;
    const pieces = !incoming
      ? await piecesOut(ctx, row.company_id, item, signed.abs(), stock, row.issue_date, at)
      : row.credited_invoice_id
        ? await piecesBack(ctx, row.credited_invoice_id, ['sale'], item, signed, stock, at)
        : await piecesIn(ctx, item, signed, stock, at);
    // In an entry of its own, goods of no cost move no value: the movement names no entry.
    const free = ownEntry && (await costsNothing(ctx, row.company_id, item.itemId));
    const counterAccountId = await costOfSalesAccount(ctx, row.company_id, item, field);
    for (const p of pieces) {
      const moved = await moveStock(ctx, {
        companyId: row.company_id,
        productId: item.productId,
        variantId: item.variantId,
        batchId: p.batchId,
        serialId: p.serialId,
        item,
        date: row.issue_date,
        type: incoming ? 'return_in' : 'sale',
        quantity: p.quantity,
        reversesMovementId: p.reversesMovementId ?? null,
        source: { type: row.document_type, id: row.id, lineId: l.id },
        entryId: free ? null : entryId,
        counterAccountId,
        field,
      });
      out.push(...moved.lines);
    }
  }
  return out;
}

/**
 * A released delivery note's stock, in an entry of its own (a delivery note posts nothing else);
 * answers the entry's id, or null when nothing tracked moved.
 */
export async function deliverStock(ctx: WorkCtx, row: DocRow & { number: string }, lines: DocLine[]) {
  const entryId = crypto.randomUUID();
  const moved = await moveSalesStock(ctx, row, lines, entryId, { ownEntry: true });
  if (!moved.length) return null;
  await post(ledgerCtxOf(ctx), {
    companyId: row.company_id,
    date: row.issue_date,
    description: `Delivery note ${row.number}: goods delivered`,
    reference: row.number,
    source: { type: 'delivery_note', id: row.id },
    entryId,
    lines: moved,
  });
  return entryId;
}

async function isDebitNote(ctx: WorkCtx, id: string) {
  const r = await ctx.db
    .selectFrom('invoices')
    .select('document_type')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r?.document_type === 'debit_note';
}

/** Every sale movement of `soldId` back in, at the cost it left with, under `entryId`. */
async function returnAll(ctx: WorkCtx, row: DocRow, soldId: string, entryId: string) {
  const sold = await ctx.db
    .selectFrom('stock_movements')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('source_id', '=', soldId)
    .where('type', '=', 'sale')
    .orderBy('seq')
    .execute();
  const out: PostingLine[] = [];
  for (const m of sold) {
    const item = await stockItem(ctx, m.product_id, m.variant_id);
    const moved = await moveStock(ctx, {
      companyId: row.company_id,
      locationId: m.location_id,
      productId: m.product_id,
      variantId: m.variant_id,
      batchId: m.batch_id,
      serialId: m.serial_id,
      item,
      date: row.issue_date,
      type: 'return_in',
      quantity: money(m.quantity).negated(),
      reversesMovementId: m.id,
      source: { type: row.document_type, id: row.id, lineId: null },
      entryId,
      counterAccountId: await costOfSalesAccount(ctx, row.company_id, item),
    });
    out.push(...moved.lines);
  }
  return out;
}

/**
 * For an invoice (or cash sale) converted from a sales order: per item, what the order's
 * released delivery notes took out that its earlier invoices have not yet used. Null when the
 * document is not an invoice from an order or the order has no delivery note.
 */
async function coveredByDeliveries(ctx: WorkCtx, row: DocRow): Promise<Map<string, Decimal> | null> {
  if (row.document_type === 'credit_note' || row.document_type === 'delivery_note') return null;
  if (!row.converted_from_id) return null;
  const siblings = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'document_type'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('converted_from_id', '=', row.converted_from_id)
    .where('id', '<>', row.id)
    .where('status', 'not in', ['draft', 'void'])
    .where('deleted_at', 'is', null)
    .execute();
  const notes = siblings.filter((s) => s.document_type === 'delivery_note').map((s) => s.id);
  if (!notes.length) return null;
  const invoices = siblings.filter((s) => s.document_type !== 'delivery_note').map((s) => s.id);
  const covered = new Map<string, Decimal>();
  const add = (item: string, q: Decimal) => covered.set(item, (covered.get(item) ?? ZERO).plus(q));
  // Out of stock by the delivery notes (their sale movements are negative).
  for (const m of await movementsOf(ctx, notes)) add(m.item_id, money(m.quantity).negated());
  if (invoices.length) {
    // What the earlier invoices sold, less what they moved themselves: used from the deliveries.
    const sold = await ctx.db
      .selectFrom('invoice_lines')
      .select(['product_id', 'variant_id', 'quantity', 'stock'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('invoice_id', 'in', invoices)
      .where('product_id', 'is not', null)
      .execute();
    for (const l of sold)
      add(
        l.variant_id ?? l.product_id!,
        (await baseQuantity(ctx, l.product_id!, l.stock, l.quantity, 'lines')).negated(),
      );
    for (const m of await movementsOf(ctx, invoices)) add(m.item_id, money(m.quantity).negated());
  }
  return covered;
}

async function movementsOf(ctx: WorkCtx, sourceIds: string[]) {
  return ctx.db
    .selectFrom('stock_movements')
    .select(['item_id', 'quantity'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('source_id', 'in', sourceIds)
    .where('type', '=', 'sale')
    .execute();
}
