// A company's stock locations: warehouses, bins within a warehouse, and the transit location
// transfers pass through (made with MAIN on first use, listed but fixed). One default per
// company; a location holding stock is not deleted. Soft delete.

import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { LocationCreate, LocationUpdate } from './locations.schemas.ts';
import { defaultLocation } from './stock.items.ts';
import type { StockLocationsTable } from './stock.tables.ts';

type Row = Selectable<StockLocationsTable>;

function toLocation(r: Row) {
  return {
    id: r.id,
    companyId: r.company_id,
    code: r.code,
    name: r.name,
    kind: r.kind,
    parentId: r.parent_id,
    isDefault: r.is_default,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
export type Location = ReturnType<typeof toLocation>;

function live(ctx: TenantCtx) {
  return ctx.db
    .selectFrom('stock_locations')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('deleted_at', 'is', null);
}

function trimmed(value: string, field: string): string {
  const t = value.trim();
  if (!t) throw badRequest(field, 'must not be blank');
  return t;
}

async function assertCodeFree(ctx: TenantCtx, code: string, exceptId?: string) {
  let q = live(ctx).where(sql<string>`lower(code)`, '=', code.toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst())
    throw conflict(`code: the company has a location ${code} already`, { field: 'code' });
}

/** A bin's parent: a live warehouse of the company. */
async function assertWarehouse(ctx: TenantCtx, id: string) {
  const w = await live(ctx).where('id', '=', id).executeTakeFirst();
  if (w?.kind !== 'warehouse') throw badRequest('parentId', 'must be a warehouse of this company');
}

/** Unsets the company's default (before another is set, in the same transaction). */
async function clearDefault(ctx: TenantCtx) {
  await ctx.db
    .updateTable('stock_locations')
    .set({ is_default: false, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('is_default', '=', true)
    .execute();
}

/**
 * Every live location of the company by code. MAIN and TRANSIT are made with the company (a
 * trigger of migration 0049): a read runs in a read-only transaction and could not make them.
 */
export async function listLocations(ctx: TenantCtx): Promise<Location[]> {
  const rows = await live(ctx).orderBy(sql`lower(code)`).orderBy('id').execute();
  return rows.map(toLocation);
}

export async function getLocation(ctx: TenantCtx, id: string): Promise<Location> {
  const row = await live(ctx).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Location');
  return toLocation(row);
}

export async function createLocation(
  ctx: TenantCtx,
  input: Static<typeof LocationCreate>,
): Promise<Location> {
  const code = trimmed(input.code, 'code');
  const name = trimmed(input.name, 'name');
  const kind = input.kind ?? 'warehouse';
  if (kind === 'bin' && !input.parentId) throw badRequest('parentId', 'a bin needs the warehouse it is in');
  if (kind === 'warehouse' && input.parentId) throw badRequest('parentId', 'only a bin has a parent');
  // MAIN and TRANSIT first, so that a company's first location never leaves it without them.
  await defaultLocation(ctx, companyOf(ctx));
  if (input.parentId) await assertWarehouse(ctx, input.parentId);
  await assertCodeFree(ctx, code);
  if (input.isDefault) await clearDefault(ctx);
  const id = crypto.randomUUID();
  const now = ctx.deps.now();
  const r = await ctx.db
    .insertInto('stock_locations')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyOf(ctx),
      parent_id: input.parentId ?? null,
      code,
      name,
      kind,
      is_default: input.isDefault ?? false,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  // A concurrent create took the code first (the unique index on live codes).
  if (Number(r.numInsertedOrUpdatedRows) !== 1)
    throw conflict(`code: the company has a location ${code} already`, { field: 'code' });
  ctx.reply.code(201);
  return getLocation(ctx, id);
}

async function changeable(ctx: TenantCtx, id: string): Promise<Row> {
  const row = await live(ctx).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Location');
  if (row.kind === 'transit')
    throw conflict('The transit location is kept by transfers: it cannot be changed or deleted');
  return row;
}

export async function updateLocation(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof LocationUpdate>,
): Promise<Location> {
  const row = await changeable(ctx, id);
  const set: Partial<Row> = {};
  if (input.code !== undefined) {
    set.code = trimmed(input.code, 'code');
    await assertCodeFree(ctx, set.code, id);
  }
  if (input.name !== undefined) set.name = trimmed(input.name, 'name');
  if (input.parentId !== undefined) {
    if (row.kind !== 'bin') throw badRequest('parentId', 'only a bin has a parent');
    await assertWarehouse(ctx, input.parentId);
    set.parent_id = input.parentId;
  }
  if (input.isDefault && !row.is_default) {
    await clearDefault(ctx);
    set.is_default = true;
  }
  await ctx.db
    .updateTable('stock_locations')
    .set({ ...set, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getLocation(ctx, id);
}

/**
 * Soft delete. Refused (409) for the transit location, the default (make another the default
 * first), a warehouse with live bins, and a location holding stock (LOCATION_HAS_STOCK).
 */
export async function deleteLocation(ctx: TenantCtx, id: string): Promise<void> {
  const row = await changeable(ctx, id);
  if (row.is_default) throw conflict('This is the default location: make another the default first');
  if (await live(ctx).where('parent_id', '=', id).executeTakeFirst())
    throw conflict('The warehouse has bins: delete them first');
  const stock = await ctx.db
    .selectFrom('stock_balances')
    .select('item_id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('location_id', '=', id)
    .where('quantity', '<>', '0')
    .limit(1)
    .executeTakeFirst();
  if (stock)
    throw conflict('The location holds stock: move it out (a transfer) before deleting it', {
      code: 'LOCATION_HAS_STOCK',
    });
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('stock_locations')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}
