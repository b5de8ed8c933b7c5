// A document line's quantity split into the movements it makes: one per batch and one per
// serial (a serial moves one unit). Going out, a batch product with no batch named is picked
// first expiry first out (expired batches never, undated ones last), over several batches when
// one is not enough. Coming back against the document it credits, each piece names the out
// movement it returns (so it comes back at the cost, batch and serial it left with). Coming in,
// a batch product needs its batch and a serial product its serials (400 naming the field).
import type { Decimal } from 'decimal.js';
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { cents, money } from '../../platform/money/money.ts';
import type { LedgerCtx } from '../ledger/index.ts';
import { batchRows } from './batches.service.ts';
import { assertSerialCount, type LineStock } from './lines.ts';
import { batchOf, defaultLocation, type StockItem, serialOf } from './stock.items.ts';
import type { MovementType } from './stock.tables.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'>;

export interface Piece {
  /** Signed, base units. */
  quantity: Decimal;
  batchId: string | null;
  serialId: string | null;
  /** In: the value of this piece, when the line's value is split (serials). */
  value?: Decimal;
  reversesMovementId?: string | null;
}

/** `total` over `n` pieces in cents, the remainder spread so they add up exactly. */
export function splitValue(total: Decimal, n: number): Decimal[] {
  const out: Decimal[] = [];
  for (let k = 0; k < n; k++)
    out.push(cents(total.times(k + 1).dividedBy(n)).minus(cents(total.times(k).dividedBy(n))));
  return out;
}

/** Goods coming in (a purchase, a receipt, a return not against a sale): `base` > 0. */
export async function piecesIn(
  ctx: Ctx,
  item: StockItem,
  base: Decimal,
  s: LineStock | null,
  field: string,
  value?: Decimal | null,
): Promise<Piece[]> {
  if (s?.batchCode && item.tracking !== 'batch')
    throw badRequest(`${field}.batchCode`, `${item.name} is not batch-tracked`);
  if (s?.serials && item.tracking !== 'serial')
    throw badRequest(`${field}.serials`, `${item.name} is not serial-tracked`);
  let batchId: string | null = null;
  if (item.tracking === 'batch') {
    if (!s?.batchCode)
      throw badRequest(`${field}.batchCode`, `${item.name} is batch-tracked: name the batch`);
    batchId = (await batchOf(ctx, item, s.batchCode, s.batchExpiry ?? null)).id;
  }
  if (item.tracking !== 'serial')
    return [{ quantity: base, batchId, serialId: null, ...(value != null ? { value } : {}) }];
  if (!s?.serials) throw badRequest(`${field}.serials`, `${item.name} is serial-tracked: give its serials`);
  assertSerialCount(s.serials, base, field);
  const values = value != null ? splitValue(value, s.serials.length) : null;
  const out: Piece[] = [];
  for (const [k, serial] of s.serials.entries())
    out.push({
      quantity: money(1),
      batchId,
      serialId: await serialOf(ctx, item, serial),
      ...(values ? { value: values[k]! } : {}),
    });
  return out;
}

/** Goods going out (a sale, a delivery, a return to the supplier): `base` > 0 leaves. */
export async function piecesOut(
  ctx: Ctx,
  companyId: string,
  item: StockItem,
  base: Decimal,
  s: LineStock | null,
  date: string,
  field: string,
): Promise<Piece[]> {
  if (item.tracking === 'serial') {
    if (!s?.serials) throw badRequest(`${field}.serials`, `${item.name} is serial-tracked: name the serials`);
    assertSerialCount(s.serials, base, field);
    const out: Piece[] = [];
    for (const serial of s.serials) {
      const id = await serialOf(ctx, item, serial);
      const row = await ctx.db
        .selectFrom('stock_serials')
        .select('batch_id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      out.push({ quantity: money(-1), batchId: row.batch_id, serialId: id });
    }
    return out;
  }
  if (item.tracking !== 'batch') return [{ quantity: base.negated(), batchId: null, serialId: null }];
  if (s?.batchCode) {
    const b = await ctx.db
      .selectFrom('stock_batches')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('item_id', '=', item.itemId)
      .where((eb) => eb(eb.fn('lower', ['code']), '=', s.batchCode!.trim().toLowerCase()))
      .executeTakeFirst();
    if (!b) throw badRequest(`${field}.batchCode`, `${item.name} has no batch ${s.batchCode}`);
    return [{ quantity: base.negated(), batchId: b.id, serialId: null }];
  }
  // First expiry first out, at the company's default location (where documents move stock).
  const location = await defaultLocation(ctx, companyId);
  const rows = await batchRows(ctx, companyId, item.productId, item.itemId, location);
  let left = base;
  const out: Piece[] = [];
  for (const r of rows) {
    if (left.isZero()) break;
    if (!r.quantity || money(r.quantity).lessThanOrEqualTo(0)) continue;
    if (r.expiry_date && r.expiry_date < date) continue;
    const here = money(r.quantity);
    const take = here.lessThan(left) ? here : left;
    out.push({ quantity: take.negated(), batchId: r.id, serialId: null });
    left = left.minus(take);
  }
  if (left.greaterThan(0))
    throw conflict(
      `${item.name}: ${base.minus(left).toString()} in batches not expired on ${date}, ${base.toString()} asked`,
      { code: 'INSUFFICIENT_STOCK', field: `${field}.quantity` },
    );
  return out;
}

/** The ids of the item's batches a line's batch code names (any case), or null when it names none. */
export async function batchIdsNamed(
  ctx: LedgerCtx,
  item: StockItem,
  code: string | null | undefined,
): Promise<string[] | null> {
  const batch = code?.trim().toLowerCase();
  if (!batch) return null;
  const rows = await ctx.db
    .selectFrom('stock_batches')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('item_id', '=', item.itemId)
    .where((eb) => eb(eb.fn('lower', ['code']), '=', batch))
    .execute();
  return rows.map((b) => b.id);
}

/** Selects, for movement `m`, the sum of the movements that undo it (reverses_movement_id), as `reversed`. */
export const reversedSoFar =
  (tenantId: string) => (eb: ExpressionBuilder<DB & { m: DB['stock_movements'] }, 'm'>) =>
    eb
      .selectFrom('stock_movements as r')
      .select((e) => e.fn.coalesce(e.fn.sum<string>('r.quantity'), e.val('0')).as('q'))
      .where('r.tenant_id', '=', tenantId)
      .whereRef('r.reverses_movement_id', '=', 'm.id')
      .as('reversed');

/** A movement a document made, with how much of it later movements undid (`reversed`, signed). */
export interface MovedRow {
  id: string;
  quantity: string;
  batch_id: string | null;
  serial_id: string | null;
  reversed: string | null;
}

/** What of a movement is not yet undone: its quantity less what later movements undid. */
export const openOf = (m: MovedRow) =>
  money(m.quantity)
    .abs()
    .minus(money(m.reversed ?? 0).abs());

/**
 * `base` units taken back from the movements a document made (oldest first), each as far as it
 * is not undone yet and only those of the serials and batch the line names: the pieces (positive,
 * each naming the movement it undoes), what is left to find elsewhere, and the line's stock less
 * the serials taken (for the rest). Shared by a credit note bringing back what a sale took out
 * (piecesBack) and a supplier return sending back what a bill brought in (flows.returns.ts).
 */
export async function undoMoved(
  ctx: Ctx,
  item: StockItem,
  moved: MovedRow[],
  base: Decimal,
  s: LineStock | null,
  field: string,
): Promise<{ taken: Piece[]; left: Decimal; rest: LineStock | null }> {
  let serialIds: string[] | null = null;
  if (s?.serials) {
    assertSerialCount(s.serials, base, field);
    serialIds = [];
    // One after another: the transaction is one connection.
    for (const x of s.serials) serialIds.push(await serialOf(ctx, item, x));
  }
  const batchIds = await batchIdsNamed(ctx, item, s?.batchCode);
  let left = base;
  const taken: Piece[] = [];
  for (const m of moved) {
    if (left.isZero()) break;
    if (serialIds && !(m.serial_id && serialIds.includes(m.serial_id))) continue;
    if (batchIds && !(m.batch_id && batchIds.includes(m.batch_id))) continue;
    const open = openOf(m);
    if (open.lessThanOrEqualTo(0)) continue;
    const take = open.lessThan(left) ? open : left;
    taken.push({ quantity: take, batchId: m.batch_id, serialId: m.serial_id, reversesMovementId: m.id });
    left = left.minus(take);
  }
  const rest: LineStock | null = s?.serials
    ? { ...s, serials: s.serials.filter((_, k) => !taken.some((p) => p.serialId === serialIds![k])) }
    : s;
  return { taken, left, rest };
}

/**
 * Goods coming back against the out movements of `sourceId` (the document credited) of this
 * item: each piece names the movement it returns, taking only the batch or serials named when
 * given, never more than is left unreturned. What no movement covers comes in as piecesIn does;
 * an untracked product's rest comes in at the current cost.
 */
export async function piecesBack(
  ctx: Ctx,
  sourceId: string,
  outTypes: MovementType[],
  item: StockItem,
  base: Decimal,
  s: LineStock | null,
  field: string,
): Promise<Piece[]> {
  const moved = await ctx.db
    .selectFrom('stock_movements as m')
    .select(['m.id', 'm.quantity', 'm.batch_id', 'm.serial_id'])
    .select(reversedSoFar(ctx.tenantId))
    .where('m.tenant_id', '=', ctx.tenantId)
    .where('m.source_id', '=', sourceId)
    .where('m.item_id', '=', item.itemId)
    .where('m.type', 'in', outTypes)
    .where('m.quantity', '<', '0')
    .orderBy('m.seq')
    .execute();
  const { taken, left, rest } = await undoMoved(ctx, item, moved, base, s, field);
  if (left.isZero()) return taken;
  if (item.tracking === 'none') return [...taken, { quantity: left, batchId: null, serialId: null }];
  // The rest is not of the credited document: it must name its own batch or serials.
  return [...taken, ...(await piecesIn(ctx, item, left, rest, field))];
}
