// Reading stock movements: the paged list (newest first) and one by id.

import type { Selectable } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { MovementType, StockMovementsTable } from './stock.tables.ts';

type Row = Selectable<StockMovementsTable>;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function movementOut(r: Row) {
  return {
    id: r.id,
    companyId: r.company_id,
    date: r.date,
    type: r.type,
    productId: r.product_id,
    variantId: r.variant_id,
    locationId: r.location_id,
    batchId: r.batch_id,
    serialId: r.serial_id,
    quantity: toQuantity(r.quantity),
    unitCost: toNumber(r.unit_cost),
    value: toNumber(r.value),
    sourceType: r.source_type,
    sourceId: r.source_id,
    sourceLineId: r.source_line_id,
    entryId: r.entry_id,
    reversesMovementId: r.reverses_movement_id,
    createdAt: iso(r.created_at),
  };
}

export interface MovementQuery {
  page?: number;
  limit?: number;
  productId?: string;
  variantId?: string;
  locationId?: string;
  type?: MovementType;
  from?: string;
  to?: string;
}

export async function listMovements(ctx: TenantCtx, q: MovementQuery) {
  if (q.from && q.to && q.from > q.to) throw badRequest('to', 'must not be before from');
  let query = ctx.db
    .selectFrom('stock_movements')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (q.productId) query = query.where('product_id', '=', q.productId);
  if (q.variantId) query = query.where('variant_id', '=', q.variantId);
  if (q.locationId) query = query.where('location_id', '=', q.locationId);
  if (q.type) query = query.where('type', '=', q.type);
  if (q.from) query = query.where('date', '>=', q.from);
  if (q.to) query = query.where('date', '<=', q.to);
  const p = paging(q);
  const { rows, total } = await pageOfQuery(query, { columns: ['date', 'created_at'], direction: 'desc' }, p);
  return pageOf(rows.map(movementOut), total, p);
}

export async function getMovement(ctx: TenantCtx, id: string) {
  const r = await ctx.db
    .selectFrom('stock_movements')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!r) throw notFound('Stock movement');
  return movementOut(r);
}
