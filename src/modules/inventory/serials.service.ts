// Serial numbers of the company: each serial is in one place at most (moveStock keeps that:
// a serial comes in only when out of stock, goes out only from where it is). A serial out of
// stock belongs to no company; it is listed in a company that has moved it.

import { type Selectable, sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { Serial, SerialListQuery } from './batches.schemas.ts';
import type { StockSerialsTable } from './stock.tables.ts';

type Rec = Static<typeof Serial>;

const SORT_COLUMNS = { createdAt: ['created_at'], updatedAt: ['updated_at'] } as const;

export async function listSerials(ctx: TenantCtx, query: Static<typeof SerialListQuery>): Promise<Page<Rec>> {
  const companyId = companyOf(ctx);
  const p = paging(query);
  const order = sortOrder<keyof typeof SORT_COLUMNS>(query.sort, 'createdAt');
  const inStock = sql<boolean>`company_id = ${companyId}`;
  const movedHere = sql<boolean>`company_id is null and exists (select 1 from stock_movements m
    where m.tenant_id = stock_serials.tenant_id and m.company_id = ${companyId} and m.serial_id = stock_serials.id)`;
  let q = ctx.db.selectFrom('stock_serials').where('tenant_id', '=', ctx.tenantId);
  if (query.status === 'in_stock') q = q.where(inStock);
  else if (query.status === 'out_of_stock') q = q.where(movedHere);
  else q = q.where(sql<boolean>`(${inStock} or ${movedHere})`);
  if (query.productId) q = q.where('product_id', '=', query.productId);
  if (query.serial) q = q.where('serial', '=', query.serial.trim());
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  const history = query.history && rows.length ? await historyOf(ctx, companyId, rows) : null;
  return pageOf(
    rows.map((r) => ({
      id: r.id,
      productId: r.product_id,
      variantId: r.item_id === r.product_id ? null : r.item_id,
      serial: r.serial,
      batchId: r.batch_id,
      status: r.company_id ? ('in_stock' as const) : ('out_of_stock' as const),
      locationId: r.location_id,
      ...(history
        ? { history: history.filter((h) => h.serialId === r.id).map(({ serialId: _, ...h }) => h) }
        : {}),
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    })),
    total,
    p,
  );
}

async function historyOf(ctx: TenantCtx, companyId: string, rows: Selectable<StockSerialsTable>[]) {
  const moves = await ctx.db
    .selectFrom('stock_movements')
    .select(['id', 'serial_id', 'date', 'type', 'location_id', 'quantity'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where(
      'serial_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('date')
    .orderBy('seq')
    .execute();
  return moves.map((m) => ({
    serialId: m.serial_id!,
    movementId: m.id,
    date: m.date,
    type: m.type,
    locationId: m.location_id,
    quantity: toQuantity(m.quantity),
  }));
}
