// Batches: each batch of an item with what is on hand of it per location, and FEFO picking
// (first expiry, first out). Expired batches (an expiry before the date asked) are never
// picked: selling them is a decision a person takes, not a default. Batches without an expiry
// are picked after every dated one.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { money, ZERO } from '../../platform/money/money.ts';
import { toQuantity } from '../../platform/money/quantity.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { Batch, BatchListQuery, FefoPick, FefoQuery } from './batches.schemas.ts';
import { assertLocation } from './stock.items.ts';

interface BatchRow {
  id: string;
  product_id: string;
  item_id: string;
  code: string;
  expiry_date: string | null;
  location_id: string | null;
  quantity: string | null;
}

/** The item's batches with their balances in the company (one row per batch and location). */
export async function batchRows(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  companyId: string,
  productId: string,
  itemId: string,
  locationId: string | null,
) {
  const rows = await sql<BatchRow>`
    select s.id, s.product_id, s.item_id, s.code, to_char(s.expiry_date, 'YYYY-MM-DD') as expiry_date,
           b.location_id, b.quantity::text as quantity
      from stock_batches s
      left join stock_balances b on b.tenant_id = s.tenant_id and b.company_id = ${companyId}
           and b.item_id = s.item_id and b.batch_key = s.id and b.quantity <> 0
           ${locationId ? sql`and b.location_id = ${locationId}` : sql``}
     where s.tenant_id = ${ctx.tenantId} and s.product_id = ${productId} and s.item_id = ${itemId}
     order by s.expiry_date nulls last, lower(s.code), s.id, b.location_id`.execute(ctx.db);
  return rows.rows;
}

export async function listBatches(
  ctx: TenantCtx,
  query: Static<typeof BatchListQuery>,
): Promise<Static<typeof Batch>[]> {
  const rows = await batchRows(
    ctx,
    companyOf(ctx),
    query.productId,
    query.variantId ?? query.productId,
    null,
  );
  const out = new Map<string, Static<typeof Batch>>();
  for (const r of rows) {
    let b = out.get(r.id);
    if (!b) {
      b = {
        id: r.id,
        productId: r.product_id,
        variantId: r.item_id === r.product_id ? null : r.item_id,
        code: r.code,
        expiryDate: r.expiry_date,
        onHand: 0,
        locations: [],
      };
      out.set(r.id, b);
    }
    if (r.location_id && r.quantity) {
      b.locations.push({ locationId: r.location_id, quantity: toQuantity(r.quantity) });
      b.onHand = toQuantity(money(b.onHand).plus(money(r.quantity)));
    }
  }
  return [...out.values()];
}

async function existingDefault(ctx: TenantCtx, companyId: string): Promise<string | null> {
  const l = await ctx.db
    .selectFrom('stock_locations')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('is_default', '=', true)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return l?.id ?? null;
}

const today = () => new Date().toISOString().slice(0, 10);

export async function pickFefo(
  ctx: TenantCtx,
  query: Static<typeof FefoQuery>,
): Promise<Static<typeof FefoPick>> {
  const companyId = companyOf(ctx);
  // A read: the default location is looked up, never made here (the transaction is read-only).
  const locationId = query.locationId ?? (await existingDefault(ctx, companyId));
  if (query.locationId) await assertLocation(ctx, companyId, query.locationId);
  const date = query.date ?? today();
  const rows = locationId
    ? await batchRows(ctx, companyId, query.productId, query.variantId ?? query.productId, locationId)
    : [];
  // Without a quantity, everything there is listed: an amount no stock reaches.
  let left = query.quantity == null ? money('1e30') : money(query.quantity);
  const picks: Static<typeof FefoPick>['picks'] = [];
  for (const r of rows) {
    if (left.lessThanOrEqualTo(ZERO)) break;
    if (!r.quantity || money(r.quantity).lessThanOrEqualTo(0)) continue;
    if (r.expiry_date && r.expiry_date < date) continue;
    const here = money(r.quantity);
    const take = here.lessThan(left) ? here : left;
    picks.push({ batchId: r.id, code: r.code, expiryDate: r.expiry_date, quantity: toQuantity(take) });
    left = left.minus(take);
  }
  return {
    productId: query.productId,
    variantId: query.variantId ?? null,
    locationId,
    quantity: query.quantity ?? null,
    date,
    picks,
    short: query.quantity == null ? 0 : toQuantity(left),
  };
}
