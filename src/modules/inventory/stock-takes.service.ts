// Stock takes: a count sheet for one location with the quantities expected there, the counts
// entered as they come in, and an approval that books each difference. The variance is the
// count less what is on hand at the location AT APPROVAL (not the sheet's expected figure), so
// stock that moved while the count ran (a sale, a receipt) is not lost nor booked twice:
// `expected` is for the counter's eye only. A count in progress freezes nothing.
//
// Approval moves each variance through moveStock (type count): found stock comes in at the
// pool's current unit cost, missing stock goes out as the cost method takes it; all of them in
// ONE journal entry, inventory against 5200 Stock adjustments. Serial-tracked products are not
// counted on a sheet (each unit is found by its serial: GET /api/inventory/serials).

import { type Selectable, sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import { ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import { assertLocation, defaultLocation, stockItem } from './stock.items.ts';
import { moveStock, NIL, onHandAt } from './stock.move.ts';
import type { StockTakeLinesTable, StockTakesTable } from './stock.tables.ts';
import type {
  StockTake,
  StockTakeCounts,
  StockTakeCreate,
  StockTakeListQuery,
} from './stock-takes.schemas.ts';

type Rec = Static<typeof StockTake>;
type Row = Selectable<StockTakesTable>;
type LineRow = Selectable<StockTakeLinesTable>;

function record(row: Row, lines: LineRow[]): Rec {
  return {
    id: row.id,
    companyId: row.company_id,
    locationId: row.location_id,
    date: row.date,
    status: row.status,
    notes: row.notes,
    entryId: row.entry_id,
    approvedAt: row.approved_at?.toISOString() ?? null,
    lines: lines.map((l) => ({
      id: l.id,
      productId: l.product_id,
      variantId: l.variant_id,
      batchId: l.batch_id,
      expected: toQuantity(l.expected),
      counted: l.counted == null ? null : toQuantity(l.counted),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function linesOf(ctx: TenantCtx, ids: string[]) {
  if (!ids.length) return [];
  return ctx.db
    .selectFrom('stock_take_lines')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('stock_take_id', 'in', ids)
    .orderBy('stock_take_id')
    .orderBy('product_id')
    .orderBy('item_id')
    .orderBy('batch_id')
    .execute();
}

async function findRow(ctx: TenantCtx, id: string, lock = false) {
  let q = ctx.db
    .selectFrom('stock_takes')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Stock take');
  return row;
}

function assertCounting(row: Row) {
  if (row.status !== 'counting')
    throw conflict(`The stock take is ${row.status}: it no longer changes`, { code: 'STOCK_TAKE_CLOSED' });
}

export async function getStockTake(ctx: TenantCtx, id: string): Promise<Rec> {
  return record(await findRow(ctx, id), await linesOf(ctx, [id]));
}

interface Balance {
  product_id: string;
  item_id: string;
  batch_key: string;
  quantity: string;
}

/** POST /api/inventory/stock-takes: the sheet, expected = on hand at the location now. */
export async function createStockTake(ctx: TenantCtx, input: Static<typeof StockTakeCreate>): Promise<Rec> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'stock_takes',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    return getStockTake(ctx, id);
  }
  const locationId = input.locationId ?? (await defaultLocation(ctx, companyId));
  if (input.locationId) await assertLocation(ctx, companyId, input.locationId);
  const products = input.productIds ?? null;
  if (products) {
    for (const [i, productId] of products.entries()) {
      const item = await stockItem(ctx, productId, null, `productIds[${i}]`);
      if (!item.isTracked) throw badRequest(`productIds[${i}]`, `${item.name} is not tracked in stock`);
      if (item.tracking === 'serial')
        throw badRequest(
          `productIds[${i}]`,
          `${item.name} is serial-tracked: find its units by serial instead`,
        );
    }
  }
  const balances = await sql<Balance>`
    select b.product_id, b.item_id, b.batch_key, b.quantity::text as quantity
      from stock_balances b join products p on p.tenant_id = b.tenant_id and p.id = b.product_id
     where b.tenant_id = ${ctx.tenantId} and b.company_id = ${companyId} and b.location_id = ${locationId}
       and p.tracking <> 'serial' and p.deleted_at is null
       and ${products ? sql`b.product_id in (${sql.join(products)})` : sql`b.quantity <> 0`}
     order by b.product_id, b.item_id, b.batch_key`.execute(ctx.db);
  const row = await ctx.db
    .insertInto('stock_takes')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      location_id: locationId,
      date: input.date,
      notes: input.notes?.trim() || null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const lines: LineRow[] = balances.rows.map((b) => ({
    tenant_id: ctx.tenantId,
    id: crypto.randomUUID(),
    stock_take_id: id,
    product_id: b.product_id,
    variant_id: b.item_id === b.product_id ? null : b.item_id,
    item_id: b.item_id,
    batch_id: b.batch_key === NIL ? null : b.batch_key,
    expected: money(b.quantity).toFixed(4),
    counted: null,
  }));
  // A product named but never stocked there is still counted: one line expecting 0 (a batch
  // product's found stock needs its batch, so it gets no such line).
  for (const productId of products ?? []) {
    if (lines.some((l) => l.product_id === productId)) continue;
    const item = await stockItem(ctx, productId, null);
    if (item.tracking !== 'none') continue;
    lines.push({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      stock_take_id: id,
      product_id: productId,
      variant_id: null,
      item_id: productId,
      batch_id: null,
      expected: '0.0000',
      counted: null,
    });
  }
  if (lines.length) await ctx.db.insertInto('stock_take_lines').values(lines).execute();
  ctx.reply.code(201);
  return record(row, await linesOf(ctx, [id]));
}

/** PUT …/{id}/counts: the counts of the lines named (null clears one); others keep theirs. */
export async function putCounts(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof StockTakeCounts>,
): Promise<Rec> {
  const row = await findRow(ctx, id, true);
  assertCounting(row);
  const lines = await linesOf(ctx, [id]);
  const known = new Set(lines.map((l) => l.id));
  for (const [i, c] of input.lines.entries()) {
    if (!known.has(c.lineId)) throw badRequest(`lines[${i}].lineId`, 'no such line on this stock take');
    if (c.counted != null && money(c.counted).decimalPlaces() > 4)
      throw badRequest(`lines[${i}].counted`, 'must have at most four decimals');
    await ctx.db
      .updateTable('stock_take_lines')
      .set({ counted: c.counted == null ? null : money(c.counted).toFixed(4) })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', c.lineId)
      .execute();
  }
  const touched = await ctx.db
    .updateTable('stock_takes')
    .set({ updated_at: new Date() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return record(touched, await linesOf(ctx, [id]));
}

/** Moves each counted line's variance; answers the ledger lines. */
async function moveVariances(ctx: TenantCtx, row: Row, lines: LineRow[], entryId: string | null) {
  const companyId = row.company_id;
  const counter = await systemAccount(ctx, companyId, 'stock_adjustments');
  const out: PostingLine[] = [];
  for (const [i, l] of lines.entries()) {
    if (l.counted == null) continue;
    const here = await onHandAt(ctx, companyId, row.location_id, l.item_id, l.batch_id);
    const variance = money(l.counted).minus(here);
    if (variance.isZero()) continue;
    const moved = await moveStock(ctx, {
      companyId,
      locationId: row.location_id,
      productId: l.product_id,
      variantId: l.variant_id,
      batchId: l.batch_id,
      date: row.date,
      type: 'count',
      quantity: variance,
      source: { type: 'stock_take', id: row.id, lineId: l.id },
      entryId,
      counterAccountId: counter,
      field: `lines[${i}].counted`,
    });
    out.push(...moved.lines);
  }
  return out;
}

/**
 * POST …/{id}/approve: every counted line's variance in one entry. Should no variance carry
 * value (items at zero cost), the movements are made again without an entry (a savepoint),
 * since an entry needs lines with amounts and a movement's entry must exist.
 */
export async function approveStockTake(ctx: TenantCtx, id: string): Promise<Rec> {
  const row = await findRow(ctx, id, true);
  assertCounting(row);
  const lines = await linesOf(ctx, [id]);
  const entryId = crypto.randomUUID();
  await sql`savepoint stock_take_approve`.execute(ctx.db);
  let posting = await moveVariances(ctx, row, lines, entryId);
  let entry: string | null = entryId;
  if (posting.length) {
    await post(ledgerCtxOf(ctx), {
      companyId: row.company_id,
      date: row.date,
      description: 'Stock take: count variances',
      source: { type: 'stock_take', id },
      entryId,
      lines: posting,
    });
  } else {
    await sql`rollback to savepoint stock_take_approve`.execute(ctx.db);
    posting = await moveVariances(ctx, row, lines, null);
    entry = null;
  }
  await sql`release savepoint stock_take_approve`.execute(ctx.db);
  const approvedBy = ctx.principal.userId ?? null;
  const updated = await ctx.db
    .updateTable('stock_takes')
    .set({ status: 'approved', entry_id: entry, approved_at: new Date(), approved_by: approvedBy })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return record(updated, lines);
}

/** POST …/{id}/cancel: the sheet is dropped; nothing moves. */
export async function cancelStockTake(ctx: TenantCtx, id: string): Promise<Rec> {
  const row = await findRow(ctx, id, true);
  assertCounting(row);
  const updated = await ctx.db
    .updateTable('stock_takes')
    .set({ status: 'cancelled' })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return record(updated, await linesOf(ctx, [id]));
}

const SORT_COLUMNS = {
  date: ['date', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const;

export async function listStockTakes(
  ctx: TenantCtx,
  query: Static<typeof StockTakeListQuery>,
): Promise<Page<Rec>> {
  const p = paging(query);
  const order = sortOrder<keyof typeof SORT_COLUMNS>(query.sort, '-date');
  let q = ctx.db
    .selectFrom('stock_takes')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  if (query.status) q = q.where('status', '=', query.status);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  const lines = await linesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) =>
      record(
        r,
        lines.filter((l) => l.stock_take_id === r.id),
      ),
    ),
    total,
    p,
  );
}
