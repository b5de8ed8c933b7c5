// Stock transfers between two locations of a company, through its transit location. Sending
// moves each line out of `from` (transfer_out) and into transit (transfer_in); receiving moves it
// out of transit into `to`; cancelling, out of transit back into `from`. A transfer never posts:
// stock stays in the same company and on the same inventory account, and it leaves the company's
// cost alone (the average pool, the FIFO layers with their dates and costs: stock.transfer.ts).
// Each pair of movements carries equal and opposite values: the units leave `from` at what they
// stood at there, and the leg out of transit carries exactly what the leg into it carried, so
// transit ends at 0 units and R0.00 (issue 34).

import type { Decimal } from 'decimal.js';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertLocation, batchOf, serialOf, stockItem, transitLocation } from './stock.items.ts';
import type { StockTransferLinesTable, StockTransfersTable } from './stock.tables.ts';
import { transferStock } from './stock.transfer.ts';
import type { Transfer, TransferCreate, TransferListQuery } from './transfers.schemas.ts';

type TransferRecord = Static<typeof Transfer>;
type Row = Selectable<StockTransfersTable>;
type LineRow = Selectable<StockTransferLinesTable>;

function record(row: Row, lines: LineRow[]): TransferRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    fromLocationId: row.from_location_id,
    toLocationId: row.to_location_id,
    status: row.status,
    sentDate: row.sent_date,
    receivedDate: row.received_date,
    reference: row.reference,
    lines: lines.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      productId: l.product_id,
      variantId: l.variant_id,
      batchId: l.batch_id,
      serialId: l.serial_id,
      quantity: toQuantity(l.quantity),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function linesOf(ctx: TenantCtx, ids: string[]) {
  if (!ids.length) return [];
  return ctx.db
    .selectFrom('stock_transfer_lines')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('transfer_id', 'in', ids)
    .orderBy('transfer_id')
    .orderBy('line_no')
    .execute();
}

async function findRow(ctx: TenantCtx, id: string, lock = false) {
  let q = ctx.db
    .selectFrom('stock_transfers')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Stock transfer');
  return row;
}

export async function getTransfer(ctx: TenantCtx, id: string): Promise<TransferRecord> {
  const row = await findRow(ctx, id);
  return record(row, await linesOf(ctx, [id]));
}

/**
 * One leg of line `l`: out of `from` and into `to`. Out of transit it carries the value the line
 * took into transit when it was sent (to the cent); out of a warehouse, what it stood at there.
 */
async function leg(
  ctx: TenantCtx,
  l: LineRow,
  from: string,
  to: string,
  date: string,
  transferId: string,
  fromTransit: boolean,
  field: string,
) {
  const companyId = companyOf(ctx);
  let value: Decimal | undefined;
  if (fromTransit) {
    const sent = await ctx.db
      .selectFrom('stock_movements')
      .select('value')
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyId)
      .where('source_type', '=', 'stock_transfer')
      .where('source_id', '=', transferId)
      .where('source_line_id', '=', l.id)
      .where('type', '=', 'transfer_in')
      .where('location_id', '=', from)
      .executeTakeFirstOrThrow();
    value = money(sent.value);
  }
  await transferStock(ctx, {
    companyId,
    from,
    to,
    productId: l.product_id,
    variantId: l.variant_id,
    batchId: l.batch_id,
    serialId: l.serial_id,
    date,
    quantity: money(l.quantity),
    ...(value ? { value } : {}),
    fromTransit,
    source: { type: 'stock_transfer', id: transferId, lineId: l.id },
    field,
  });
}

/** POST /api/inventory/transfers: each line leaves `from` for transit now (status in_transit). */
export async function createTransfer(
  ctx: TenantCtx,
  input: Static<typeof TransferCreate>,
): Promise<TransferRecord> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'stock_transfers',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    return getTransfer(ctx, id);
  }
  if (input.fromLocationId === input.toLocationId)
    throw badRequest('toLocationId', 'must differ from fromLocationId');
  const from = await assertLocation(ctx, companyId, input.fromLocationId, 'fromLocationId');
  const to = await assertLocation(ctx, companyId, input.toLocationId, 'toLocationId');
  if (from.kind === 'transit')
    throw badRequest('fromLocationId', 'goods leave a warehouse or bin, not transit');
  if (to.kind === 'transit')
    throw badRequest('toLocationId', 'goods arrive at a warehouse or bin, not transit');
  const transit = await transitLocation(ctx, companyId);
  const row = await ctx.db
    .insertInto('stock_transfers')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      from_location_id: input.fromLocationId,
      to_location_id: input.toLocationId,
      sent_date: input.date,
      reference: input.reference?.trim() || null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const rows: LineRow[] = [];
  let lineNo = 0;
  for (const [i, line] of input.lines.entries()) {
    const field = `lines[${i}]`;
    const item = await stockItem(ctx, line.productId, line.variantId, `${field}.productId`);
    if (!item.isTracked) throw badRequest(`${field}.productId`, `${item.name} is not tracked in stock`);
    if (money(line.quantity).decimalPlaces() > 4)
      throw badRequest(`${field}.quantity`, 'must have at most four decimals');
    let batchId: string | null = null;
    if (item.tracking === 'batch') {
      if (!line.batchCode)
        throw badRequest(`${field}.batchCode`, `${item.name} is batch-tracked: name the batch`);
      batchId = (await batchOf(ctx, item, line.batchCode)).id;
    } else if (line.batchCode) throw badRequest(`${field}.batchCode`, `${item.name} is not batch-tracked`);
    // A serial-tracked line becomes one line per serial (each moves one unit).
    let serials: (string | null)[] = [null];
    if (item.tracking === 'serial') {
      const given = line.serials ?? [];
      if (given.length !== line.quantity || new Set(given.map((s) => s.trim())).size !== given.length)
        throw badRequest(`${field}.serials`, `name ${line.quantity} different serial numbers, one per unit`);
      serials = [];
      for (const s of given) serials.push(await serialOf(ctx, item, s));
    } else if (line.serials?.length)
      throw badRequest(`${field}.serials`, `${item.name} is not serial-tracked`);
    for (const serialId of serials) {
      const l: LineRow = {
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        transfer_id: id,
        line_no: ++lineNo,
        product_id: line.productId,
        variant_id: line.variantId ?? null,
        item_id: item.itemId,
        batch_id: batchId,
        serial_id: serialId,
        quantity: serialId ? '1.0000' : money(line.quantity).toFixed(4),
      };
      await ctx.db.insertInto('stock_transfer_lines').values(l).execute();
      await leg(ctx, l, input.fromLocationId, transit, input.date, id, false, field);
      rows.push(l);
    }
  }
  ctx.reply.code(201);
  return record(row, rows);
}

async function close(
  ctx: TenantCtx,
  id: string,
  date: string,
  status: 'received' | 'cancelled',
): Promise<TransferRecord> {
  const row = await findRow(ctx, id, true);
  if (row.status !== 'in_transit')
    throw conflict(`The transfer is ${row.status.replace('_', ' ')} already`, { code: 'TRANSFER_CLOSED' });
  if (date < row.sent_date)
    throw badRequest('date', `must not be before the date it was sent (${row.sent_date})`);
  const transit = await transitLocation(ctx, companyOf(ctx));
  const dest = status === 'received' ? row.to_location_id : row.from_location_id;
  const lines = await linesOf(ctx, [id]);
  for (const [i, l] of lines.entries()) await leg(ctx, l, transit, dest, date, id, true, `lines[${i}]`);
  const updated = await ctx.db
    .updateTable('stock_transfers')
    .set({ status, received_date: date })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return record(updated, lines);
}

/** POST …/{id}/receive: out of transit into `to`. */
export const receiveTransfer = (ctx: TenantCtx, id: string, date: string) => close(ctx, id, date, 'received');

/** POST …/{id}/cancel: out of transit back into `from`, on the date given (default: the sent date). */
export async function cancelTransfer(ctx: TenantCtx, id: string, date: string | undefined) {
  const row = await findRow(ctx, id);
  return close(ctx, id, date ?? row.sent_date, 'cancelled');
}

const SORT_COLUMNS = {
  date: ['sent_date', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const;

export async function listTransfers(
  ctx: TenantCtx,
  query: Static<typeof TransferListQuery>,
): Promise<Page<TransferRecord>> {
  const p = paging(query);
  const order = sortOrder<keyof typeof SORT_COLUMNS>(query.sort, '-date');
  let q = ctx.db
    .selectFrom('stock_transfers')
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
        lines.filter((l) => l.transfer_id === r.id),
      ),
    ),
    total,
    p,
  );
}
