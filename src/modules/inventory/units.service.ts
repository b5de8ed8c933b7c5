// A product's units of measure besides its base unit ({name: 'box', factor: 12}: one box is 12
// base units), and the conversion every stock route uses: toBaseUnits.
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, type Money, money } from '../../platform/money/money.ts';
import type { LedgerCtx } from '../ledger/index.ts';
import { findProduct } from './products.queries.ts';
import type { ProductUnitsTable } from './stock.tables.ts';
import type { UnitCreate } from './units.schemas.ts';

type Row = Selectable<ProductUnitsTable>;

function toUnit(r: Row) {
  return {
    id: r.id,
    productId: r.product_id,
    name: r.name,
    factor: Number(r.factor),
    createdAt: r.created_at.toISOString(),
  };
}
export type Unit = ReturnType<typeof toUnit>;

async function liveProduct(ctx: TenantCtx, productId: string) {
  const p = await findProduct(ctx.db, ctx.tenantId, productId);
  if (!p) throw notFound('Product');
  return p;
}

function liveUnits(ctx: Pick<LedgerCtx, 'db' | 'tenantId'>, productId: string) {
  return ctx.db
    .selectFrom('product_units')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('product_id', '=', productId)
    .where('retired_at', 'is', null);
}

export async function listUnits(ctx: TenantCtx, productId: string): Promise<Unit[]> {
  await liveProduct(ctx, productId);
  const rows = await liveUnits(ctx, productId).orderBy(sql`lower(name)`).orderBy('id').execute();
  return rows.map(toUnit);
}

export async function getUnit(ctx: TenantCtx, productId: string, id: string): Promise<Unit> {
  await liveProduct(ctx, productId);
  const row = await liveUnits(ctx, productId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Unit');
  return toUnit(row);
}

/** A unit's name is unique among the product's live units and is not its base unit's. */
export async function createUnit(
  ctx: TenantCtx,
  productId: string,
  input: Static<typeof UnitCreate>,
): Promise<Unit> {
  const product = await liveProduct(ctx, productId);
  const name = input.name.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  if (!hasAtMostDecimals(input.factor, 6)) throw badRequest('factor', 'at most six decimals');
  if (name.toLowerCase() === product.base_unit.toLowerCase())
    throw conflict(`name: ${name} is the product's base unit`, { field: 'name' });
  const id = crypto.randomUUID();
  const r = await ctx.db
    .insertInto('product_units')
    .values({
      tenant_id: ctx.tenantId,
      id,
      product_id: productId,
      name,
      factor: money(input.factor).toFixed(6),
      created_at: ctx.deps.now(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows) !== 1)
    throw conflict(`name: the product has a unit ${name} already`, { field: 'name' });
  ctx.reply.code(201);
  return getUnit(ctx, productId, id);
}

/** Retires the unit: no new quantity may be given in it; what was converted stays converted. */
export async function retireUnit(ctx: TenantCtx, productId: string, id: string): Promise<void> {
  await liveProduct(ctx, productId);
  const r = await ctx.db
    .updateTable('product_units')
    .set({ retired_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('product_id', '=', productId)
    .where('id', '=', id)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound('Unit');
}

/**
 * A quantity given in `unitName` (absent or the base unit: as is) in the product's base units:
 * 3 boxes of 12 → 36. An unknown or retired unit is a 400 naming `field`.
 */
export async function toBaseUnits(
  ctx: Pick<LedgerCtx, 'db' | 'tenantId'>,
  productId: string,
  unitName: string | undefined | null,
  quantity: number | string | Money,
  field = 'unit',
): Promise<Money> {
  const q = money(quantity);
  const name = unitName?.trim();
  if (!name) return q;
  const p = await ctx.db
    .selectFrom('products')
    .select('base_unit')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', productId)
    .executeTakeFirst();
  if (p && p.base_unit.toLowerCase() === name.toLowerCase()) return q;
  const u = await liveUnits(ctx, productId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  if (!u) throw badRequest(field, `the product has no unit ${name}`);
  return q.times(u.factor);
}
