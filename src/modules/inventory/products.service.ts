// Business rules of the products book: one book per tenant; SKU unique in any case among live
// products; exact prices; soft delete.
import type { Static } from 'typebox';
import { dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { hasAtMostDecimals, money } from '../../platform/money/money.ts';
import {
  anyProduct,
  findProduct,
  hasMovements,
  insertProduct,
  listProductRows,
  onHandOf,
  type ProductSortKey,
  type ProductValues,
  productWithSku,
  toProduct,
  updateProductRow,
  variantWithSku,
} from './products.queries.ts';
import type { ProductCreate, ProductListQuery, ProductUpdate } from './products.schemas.ts';
import { type ProductSalesTaxCode, salesTaxCodeOf } from './products.tax.ts';

export type Product = ReturnType<typeof toProduct>;

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(field, 'must not be blank');
  return trimmed;
}

function skuTaken(sku: string) {
  return conflict(`sku: ${sku} is already the SKU of another product`, { field: 'sku', code: 'SKU_TAKEN' });
}

/** Postgres refused the write on the live-SKU index: a concurrent write took the SKU first. */
function isSkuViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && (e.constraint === 'products_sku' || /products_sku/.test(e.message ?? ''));
}

type Input = Static<typeof ProductCreate> | Static<typeof ProductUpdate>;

/** The columns an input sets: only the fields it carries (PATCH semantics; null clears). */
function columnsOf(input: Input): ProductValues {
  const set: ProductValues = {};
  if (input.sku !== undefined) set.sku = required(input.sku, 'sku');
  if (input.name !== undefined) set.name = required(input.name, 'name');
  if (input.description !== undefined) {
    const d = input.description?.trim() ?? '';
    set.description = d === '' ? null : d;
  }
  if (input.unitPrice !== undefined) {
    if (!hasAtMostDecimals(input.unitPrice, 4)) throw badRequest('unitPrice', 'at most four decimals');
    set.unit_price = money(input.unitPrice).toFixed(4);
  }
  if (input.isTracked !== undefined) set.is_tracked = input.isTracked;
  if (input.isActive !== undefined) set.is_active = input.isActive;
  if (input.costMethod !== undefined) set.cost_method = input.costMethod;
  if (input.tracking !== undefined) set.tracking = input.tracking;
  if (input.allowNegative !== undefined) set.allow_negative = input.allowNegative;
  if (input.reorderPoint !== undefined) set.reorder_point = quantity(input.reorderPoint, 'reorderPoint');
  if (input.reorderQuantity !== undefined)
    set.reorder_quantity = quantity(input.reorderQuantity, 'reorderQuantity');
  if (input.barcode !== undefined)
    set.barcode = input.barcode === null ? null : required(input.barcode, 'barcode');
  if (input.baseUnit !== undefined) set.base_unit = required(input.baseUnit, 'baseUnit');
  if (input.weight !== undefined) {
    if (input.weight !== null && !hasAtMostDecimals(input.weight, 6))
      throw badRequest('weight', 'at most six decimals');
    set.weight = input.weight === null ? null : money(input.weight).toFixed(6);
  }
  for (const [field, column] of [
    ['incomeAccountCode', 'income_account_code'],
    ['costAccountCode', 'cost_account_code'],
    ['inventoryAccountCode', 'inventory_account_code'],
  ] as const) {
    const code = input[field];
    if (code !== undefined) set[column] = code === null ? null : required(code, field);
  }
  return set;
}

/**
 * The tax code columns an input sets (products.tax.ts), given the product's sales code now (none
 * on a create): a code set by hand clears the note migration 0076 left.
 */
function taxColumnsOf(ctx: TenantCtx, input: Input, current: ProductSalesTaxCode | undefined): ProductValues {
  const set: ProductValues = {};
  const sales = salesTaxCodeOf(input, current, dayOf(ctx.deps.now()));
  if (sales !== undefined) set.sales_tax_code = sales;
  if (input.purchaseTaxCode !== undefined) set.purchase_tax_code = input.purchaseTaxCode;
  // A new product zero-rated or exempt is so when bought too (zero rating and exemption follow
  // the goods or services, VAT Act s11(1), s12; an export is zero-rated only on its way out).
  else if (current === undefined && (sales === 'zero' || sales === 'exempt')) set.purchase_tax_code = sales;
  if (input.salesTaxCode !== undefined || input.vatRate !== undefined) set.tax_note = null;
  return set;
}

/** A quantity in base units: numeric(20,4), so at most four decimals. */
function quantity(value: number | null, field: string): string | null {
  if (value === null) return null;
  if (!hasAtMostDecimals(value, 4)) throw badRequest(field, 'at most four decimals');
  return money(value).toFixed(4);
}

function productHasStock(field: string) {
  return conflict(`${field}: the product has stock movements; its ${field} can no longer change`, {
    field,
    code: 'PRODUCT_HAS_STOCK',
  });
}

/** 409 SKU_TAKEN when a live variant holds the SKU (the index keeps products apart among themselves). */
async function assertNoVariantSku(ctx: TenantCtx, sku: string | undefined) {
  if (sku && (await variantWithSku(ctx.db, ctx.tenantId, sku))) throw skuTaken(sku);
}

export async function getProduct(ctx: TenantCtx, id: string): Promise<Product> {
  const row = await findProduct(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Product');
  return toProduct(row, (await onHandOf(ctx.db, ctx.tenantId, [id])).get(id));
}

/** 201 with the new product, 200 with the existing one for a clientId already used. */
export async function createProduct(ctx: TenantCtx, input: Static<typeof ProductCreate>): Promise<Product> {
  const columns = { ...columnsOf(input), ...taxColumnsOf(ctx, input, undefined) };
  const sku = columns.sku as string;
  // Batch and serial stock is counted unit by unit: it may not go negative unless asked.
  columns.allow_negative ??= (input.tracking ?? 'none') === 'none';
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      if (!(await anyProduct(ctx.db, ctx.tenantId, id))) await assertNoVariantSku(ctx, sku);
      const created = await insertProduct(
        ctx.db,
        ctx.tenantId,
        id,
        { ...columns, sku, name: columns.name as string, unit_price: columns.unit_price as string },
        ctx.deps.now(),
      );
      if (created) return true;
      // Nothing inserted: the id was taken (a replay, or a deleted product's) or the SKU was.
      const existing = await anyProduct(ctx.db, ctx.tenantId, id);
      if (existing && !existing.deleted_at) return false;
      if (existing) {
        throw conflict('clientId: was the id of a product that has since been deleted', {
          field: 'clientId',
        });
      }
      throw skuTaken(sku);
    },
    load: (id) => getProduct(ctx, id),
  });
}

export async function updateProduct(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof ProductUpdate>,
): Promise<Product> {
  const current = await findProduct(ctx.db, ctx.tenantId, id);
  if (!current) throw notFound('Product');
  const columns = { ...columnsOf(input), ...taxColumnsOf(ctx, input, current.sales_tax_code) };
  if (columns.sku && (await productWithSku(ctx.db, ctx.tenantId, columns.sku as string, id))) {
    throw skuTaken(columns.sku as string);
  }
  await assertNoVariantSku(ctx, columns.sku as string | undefined);
  // Stock already moved at one cost method and tracking: changing either would orphan its
  // layers or batches, so both are fixed from the first movement.
  const changes = (['costMethod', 'tracking'] as const).filter(
    (f) =>
      input[f] !== undefined && input[f] !== (f === 'costMethod' ? current.cost_method : current.tracking),
  );
  if (changes.length && (await hasMovements(ctx.db, ctx.tenantId, id))) throw productHasStock(changes[0]!);
  if (
    input.tracking &&
    input.tracking !== 'none' &&
    current.tracking === 'none' &&
    input.allowNegative === undefined
  )
    columns.allow_negative = false;
  try {
    await updateProductRow(ctx.db, ctx.tenantId, [id], { ...columns, updated_at: ctx.deps.now() });
  } catch (err) {
    // Two changes racing to one SKU: the database's index refuses the second.
    if (isSkuViolation(err)) throw skuTaken(columns.sku as string);
    throw err;
  }
  return getProduct(ctx, id);
}

/** Soft delete: the product leaves the book and answers 404; its SKU is free again. */
export async function deleteProduct(ctx: TenantCtx, id: string): Promise<void> {
  const now = ctx.deps.now();
  const n = await updateProductRow(ctx.db, ctx.tenantId, [id], { deleted_at: now, updated_at: now });
  if (n === 0) throw notFound('Product');
}

/** Marks these products deleted (those not deleted already); the sandbox's delete uses it. */
export async function retireProducts(ctx: TenantCtx, ids: string[]): Promise<number> {
  const now = ctx.deps.now();
  return updateProductRow(ctx.db, ctx.tenantId, ids, { deleted_at: now, updated_at: now });
}

export async function listProducts(
  ctx: TenantCtx,
  query: Static<typeof ProductListQuery>,
): Promise<Page<Product>> {
  const p = paging(query);
  const q = query.q?.trim();
  const { rows, total } = await listProductRows(
    ctx.db,
    ctx.tenantId,
    {
      q: q || undefined,
      isActive: query.isActive,
      barcode: query.barcode?.trim() || undefined,
      belowReorder: query.belowReorder,
      updatedSince: query.updatedSince === undefined ? undefined : new Date(query.updatedSince),
    },
    sortOrder<ProductSortKey>(query.sort, 'name'),
    p,
  );
  const onHand = await onHandOf(
    ctx.db,
    ctx.tenantId,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => toProduct(r, onHand.get(r.id))),
    total,
    p,
  );
}
