// A product's variants: tenant-wide like the products book; each has its own SKU (unique among
// live products AND variants), barcode and price (null: the product's). Soft delete.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money } from '../../platform/money/money.ts';
import { findProduct, productWithSku, variantWithSku } from './products.queries.ts';
import type { ProductVariantsTable } from './stock.tables.ts';
import type { VariantCreate, VariantUpdate } from './variants.schemas.ts';

type Row = Selectable<ProductVariantsTable>;

function toVariant(r: Row) {
  return {
    id: r.id,
    productId: r.product_id,
    sku: r.sku,
    name: r.name,
    attributes: (r.attributes ?? {}) as Record<string, string>,
    barcode: r.barcode,
    unitPrice: r.unit_price === null ? null : Number(r.unit_price),
    weight: r.weight === null ? null : Number(r.weight),
    isActive: r.is_active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
export type Variant = ReturnType<typeof toVariant>;

function trimmed(value: string, field: string): string {
  const t = value.trim();
  if (!t) throw badRequest(field, 'must not be blank');
  return t;
}

function skuTaken(sku: string) {
  return conflict(`sku: ${sku} is already the SKU of another product or variant`, {
    field: 'sku',
    code: 'SKU_TAKEN',
  });
}

type Input = Static<typeof VariantCreate> | Static<typeof VariantUpdate>;

function columnsOf(input: Input) {
  const set: Partial<Omit<Row, 'attributes'>> & { attributes?: string } = {};
  if (input.sku !== undefined) set.sku = trimmed(input.sku, 'sku');
  if (input.name !== undefined) set.name = trimmed(input.name, 'name');
  if (input.attributes !== undefined) {
    for (const k of Object.keys(input.attributes)) trimmed(k, `attributes.${k}`);
    set.attributes = JSON.stringify(input.attributes);
  }
  if (input.barcode !== undefined)
    set.barcode = input.barcode === null ? null : trimmed(input.barcode, 'barcode');
  if (input.unitPrice !== undefined) {
    if (input.unitPrice !== null && !hasAtMostDecimals(input.unitPrice, 4))
      throw badRequest('unitPrice', 'at most four decimals');
    set.unit_price = input.unitPrice === null ? null : money(input.unitPrice).toFixed(4);
  }
  if (input.weight !== undefined) {
    if (input.weight !== null && !hasAtMostDecimals(input.weight, 6))
      throw badRequest('weight', 'at most six decimals');
    set.weight = input.weight === null ? null : money(input.weight).toFixed(6);
  }
  if (input.isActive !== undefined) set.is_active = input.isActive;
  return set;
}

/** 409 SKU_TAKEN when a live product or another live variant holds the SKU. */
async function assertSkuFree(ctx: TenantCtx, sku: string | undefined, exceptVariant?: string) {
  if (!sku) return;
  if (
    (await productWithSku(ctx.db, ctx.tenantId, sku)) ||
    (await variantWithSku(ctx.db, ctx.tenantId, sku, exceptVariant))
  )
    throw skuTaken(sku);
}

/** The index on live variants' SKUs refused a racing write. */
function isSkuViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && /product_variants_sku/.test(`${e.constraint ?? ''} ${e.message ?? ''}`);
}

async function liveProduct(ctx: TenantCtx, productId: string) {
  const p = await findProduct(ctx.db, ctx.tenantId, productId);
  if (!p) throw notFound('Product');
  return p;
}

function findVariant(ctx: TenantCtx, productId: string, id: string) {
  return ctx.db
    .selectFrom('product_variants')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('product_id', '=', productId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listVariants(ctx: TenantCtx, productId: string): Promise<Variant[]> {
  await liveProduct(ctx, productId);
  const rows = await ctx.db
    .selectFrom('product_variants')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('product_id', '=', productId)
    .where('deleted_at', 'is', null)
    .orderBy('sku')
    .orderBy('id')
    .execute();
  return rows.map(toVariant);
}

export async function getVariant(ctx: TenantCtx, productId: string, id: string): Promise<Variant> {
  await liveProduct(ctx, productId);
  const row = await findVariant(ctx, productId, id);
  if (!row) throw notFound('Variant');
  return toVariant(row);
}

export async function createVariant(
  ctx: TenantCtx,
  productId: string,
  input: Static<typeof VariantCreate>,
): Promise<Variant> {
  await liveProduct(ctx, productId);
  const set = columnsOf(input);
  const sku = set.sku as string;
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      const existing = await ctx.db
        .selectFrom('product_variants')
        .select(['product_id', 'deleted_at'])
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (existing) {
        if (existing.product_id !== productId || existing.deleted_at)
          throw conflict('clientId: already the id of another variant', { field: 'clientId' });
        return false;
      }
      await assertSkuFree(ctx, sku);
      try {
        await ctx.db
          .insertInto('product_variants')
          .values({
            ...set,
            tenant_id: ctx.tenantId,
            id,
            product_id: productId,
            sku,
            name: set.name as string,
            created_at: ctx.deps.now(),
            updated_at: ctx.deps.now(),
          })
          .execute();
      } catch (err) {
        if (isSkuViolation(err)) throw skuTaken(sku);
        throw err;
      }
      return true;
    },
    load: (id) => getVariant(ctx, productId, id),
  });
}

export async function updateVariant(
  ctx: TenantCtx,
  productId: string,
  id: string,
  input: Static<typeof VariantUpdate>,
): Promise<Variant> {
  await liveProduct(ctx, productId);
  if (!(await findVariant(ctx, productId, id))) throw notFound('Variant');
  const set = columnsOf(input);
  await assertSkuFree(ctx, set.sku ?? undefined, id);
  try {
    await ctx.db
      .updateTable('product_variants')
      .set({ ...set, updated_at: ctx.deps.now() })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  } catch (err) {
    if (isSkuViolation(err)) throw skuTaken(set.sku as string);
    throw err;
  }
  return getVariant(ctx, productId, id);
}

/** Soft delete: the variant leaves the product; its movements and its SKU's history stay. */
export async function deleteVariant(ctx: TenantCtx, productId: string, id: string): Promise<void> {
  await liveProduct(ctx, productId);
  const now = ctx.deps.now();
  const r = await ctx.db
    .updateTable('product_variants')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('product_id', '=', productId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound('Variant');
}
