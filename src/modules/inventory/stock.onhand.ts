// Stock on hand now, per product: a page of the tracked products, then their running balances
// (stock_balances, kept by the movements' trigger) in one query: never the movements.

import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { money, toNumber, ZERO } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import { apportionByQuantity } from './stock.apportion.ts';
import { assertLocation } from './stock.items.ts';

export interface OnHandQueryInput {
  page?: number;
  limit?: number;
  productId?: string;
  locationId?: string;
  belowReorder?: boolean;
}

export async function onHand(ctx: TenantCtx, q: OnHandQueryInput) {
  const companyId = companyOf(ctx);
  if (q.locationId) await assertLocation(ctx, companyId, q.locationId);
  const held = (productRef: string) =>
    sql<string>`coalesce((select sum(b.quantity) from stock_balances b
      where b.tenant_id = ${ctx.tenantId} and b.company_id = ${companyId} and b.product_id = ${sql.ref(productRef)}
      ${q.locationId ? sql`and b.location_id = ${q.locationId}` : sql``}), 0)`;
  let query = ctx.db
    .selectFrom('products')
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .where('is_tracked', '=', true);
  if (q.productId) query = query.where('id', '=', q.productId);
  if (q.locationId)
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('stock_balances as b')
          .select(sql`1`.as('one'))
          .where('b.tenant_id', '=', ctx.tenantId)
          .where('b.company_id', '=', companyId)
          .where('b.location_id', '=', q.locationId!)
          .whereRef('b.product_id', '=', 'products.id'),
      ),
    );
  if (q.belowReorder === true)
    query = query
      .where('reorder_point', 'is not', null)
      .where(sql<boolean>`${held('products.id')} <= products.reorder_point`);
  const p = paging(q);
  const { rows, total } = await pageOfQuery(query, { columns: ['name'], direction: 'asc' }, p);
  const ids = rows.map((r) => r.id);
  const balances = ids.length
    ? await ctx.db
        .selectFrom('stock_balances')
        .select((eb) => [
          'product_id',
          'item_id',
          'location_id',
          eb.fn.sum<string>('quantity').as('quantity'),
          eb.fn.sum<string>('value').as('value'),
        ])
        .where('tenant_id', '=', ctx.tenantId)
        .where('company_id', '=', companyId)
        .where('product_id', 'in', ids)
        .groupBy(['product_id', 'item_id', 'location_id'])
        .orderBy('product_id')
        .orderBy('item_id')
        .orderBy('location_id')
        .execute()
    : [];
  // A location's value is its share of the item's by units (stock.apportion.ts): every location is
  // read, then the locationId asked for kept.
  const shares = apportionByQuantity(
    balances.map((b) => ({ itemId: b.item_id, quantity: b.quantity, value: b.value })),
  );
  const valued = balances
    .map((b, i) => ({ ...b, value: shares[i]!.toString() }))
    .filter(
      (b) =>
        (!q.locationId || b.location_id === q.locationId) &&
        !(money(b.quantity).isZero() && money(b.value).isZero()),
    );
  const items = rows.map((r) => {
    const mine = valued.filter((b) => b.product_id === r.id);
    const quantity = mine.reduce((s, b) => s.plus(money(b.quantity)), ZERO);
    const value = mine.reduce((s, b) => s.plus(money(b.value)), ZERO);
    const reorderPoint = r.reorder_point == null ? null : money(r.reorder_point);
    return {
      productId: r.id,
      sku: r.sku,
      name: r.name,
      quantity: toQuantity(quantity),
      value: toNumber(value),
      reorderPoint: reorderPoint ? toQuantity(reorderPoint) : null,
      reorderQuantity: r.reorder_quantity == null ? null : toQuantity(r.reorder_quantity),
      belowReorder: reorderPoint != null && quantity.lessThanOrEqualTo(reorderPoint),
      lines: mine.map((b) => ({
        variantId: b.item_id === r.id ? null : b.item_id,
        locationId: b.location_id,
        quantity: toQuantity(b.quantity),
        value: toNumber(b.value),
      })),
    };
  });
  return pageOf(items, total, p);
}
