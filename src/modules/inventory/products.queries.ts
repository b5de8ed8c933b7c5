// SQL of the products book; every function takes the tenant transaction and the tenant id.
import { type Selectable, sql, type Updateable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { Paging } from '../../platform/http/paging.ts';
import type { SortOrder } from '../../platform/http/sync.ts';
import type { ProductsTable } from './products.tables.ts';
import { vatRateOf } from './products.tax.ts';

export type ProductRow = Selectable<ProductsTable>;

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** The answer of a product; `onHand` comes from stock_balances (see onHandOf). */
export function toProduct(row: ProductRow, onHand = '0') {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    // A decimal string to a JSON number: the shortest double that reads back as it.
    unitPrice: Number(row.unit_price),
    vatRate: vatRateOf(row.sales_tax_code),
    salesTaxCode: row.sales_tax_code,
    purchaseTaxCode: row.purchase_tax_code,
    taxNote: row.tax_note,
    isTracked: row.is_tracked,
    isActive: row.is_active,
    costMethod: row.cost_method,
    tracking: row.tracking,
    allowNegative: row.allow_negative,
    reorderPoint: num(row.reorder_point),
    reorderQuantity: num(row.reorder_quantity),
    barcode: row.barcode,
    baseUnit: row.base_unit,
    weight: num(row.weight),
    incomeAccountCode: row.income_account_code,
    costAccountCode: row.cost_account_code,
    inventoryAccountCode: row.inventory_account_code,
    onHand: Number(onHand),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at === null ? null : row.deleted_at.toISOString(),
  };
}

/** A live (not deleted) product. */
export function findProduct(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('products')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The product with this id, deleted or not. */
export function anyProduct(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('products')
    .select(['id', 'deleted_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A live product holding this SKU (any case), other than `exceptId`. */
export function productWithSku(tx: Tx, tenantId: string, sku: string, exceptId?: string) {
  let q = tx
    .selectFrom('products')
    .select(['id', 'sku'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(sku) = lower(${sku})`)
    .where('deleted_at', 'is', null);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** On hand per product over every company, location and variant: one grouped query for a page. */
export async function onHandOf(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .selectFrom('stock_balances')
    .select(['product_id', sql<string>`sum(quantity)`.as('q')])
    .where('tenant_id', '=', tenantId)
    .where('product_id', 'in', ids)
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, r.q]));
}

/** Whether any stock of the product has ever moved (its cost method and tracking are then fixed). */
export async function hasMovements(tx: Tx, tenantId: string, productId: string): Promise<boolean> {
  const r = await tx
    .selectFrom('stock_movements')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('product_id', '=', productId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(r);
}

/** A live variant (of a live product) holding this SKU in any case, other than `exceptId`. */
export function variantWithSku(tx: Tx, tenantId: string, sku: string, exceptId?: string) {
  let q = tx
    .selectFrom('product_variants as v')
    .innerJoin('products as p', (j) =>
      j.onRef('p.tenant_id', '=', 'v.tenant_id').onRef('p.id', '=', 'v.product_id'),
    )
    .select(['v.id', 'v.sku'])
    .where('v.tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(v.sku) = lower(${sku})`)
    .where('v.deleted_at', 'is', null)
    .where('p.deleted_at', 'is', null);
  if (exceptId) q = q.where('v.id', '<>', exceptId);
  return q.executeTakeFirst();
}

export type ProductValues = Omit<
  Updateable<ProductsTable>,
  'tenant_id' | 'id' | 'created_at' | 'updated_at' | 'deleted_at'
>;

/**
 * Inserts with ON CONFLICT DO NOTHING on any unique key (the id, or a live product's SKU);
 * true when the row is new. The caller tells the two conflicts apart.
 */
export async function insertProduct(
  tx: Tx,
  tenantId: string,
  id: string,
  values: ProductValues & { sku: string; name: string; unit_price: string },
  now: Date,
): Promise<boolean> {
  const r = await tx
    .insertInto('products')
    .values({ ...values, tenant_id: tenantId, id, created_at: now, updated_at: now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows) === 1;
}

export async function updateProductRow(
  tx: Tx,
  tenantId: string,
  ids: string[],
  set: ProductValues & { updated_at: Date; deleted_at?: Date },
): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await tx
    .updateTable('products')
    .set(set)
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export interface ProductFilter {
  q?: string | undefined;
  isActive?: boolean | undefined;
  barcode?: string | undefined;
  /** Only products with a reorder point and on hand at or below it. */
  belowReorder?: boolean | undefined;
  /** Changed at or after this instant; deleted products are then included. */
  updatedSince?: Date | undefined;
}

/** The list's orders: by name (the default), or by a timestamp; ties by id either way. */
export type ProductSortKey = 'name' | 'updatedAt' | 'createdAt';

const SORT_COLUMN = { updatedAt: 'updated_at', createdAt: 'created_at' } as const;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of products in the order asked (ties by id, in the same direction), and how many
 * match in all. Live products only, unless updatedSince asks for changes: a delete is a change.
 */
export async function listProductRows(
  tx: Tx,
  tenantId: string,
  filter: ProductFilter,
  order: SortOrder<ProductSortKey>,
  p: Paging,
): Promise<{ rows: ProductRow[]; total: number }> {
  let q = tx.selectFrom('products').where('tenant_id', '=', tenantId);
  if (filter.updatedSince) q = q.where('updated_at', '>=', filter.updatedSince);
  else q = q.where('deleted_at', 'is', null);
  if (filter.isActive !== undefined) q = q.where('is_active', '=', filter.isActive);
  if (filter.barcode) q = q.where('barcode', '=', filter.barcode);
  if (filter.belowReorder) {
    q = q.where('reorder_point', 'is not', null).where(
      sql<boolean>`coalesce((SELECT sum(b.quantity) FROM stock_balances b
          WHERE b.tenant_id = products.tenant_id AND b.product_id = products.id), 0) <= products.reorder_point`,
    );
  }
  if (filter.q) {
    const pattern = likePattern(filter.q);
    q = q.where((eb) =>
      eb.or([eb('sku', 'ilike', pattern), eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]),
    );
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const dir = order.direction;
  const sorted =
    order.key === 'name'
      ? q.selectAll().orderBy(sql`lower(name)`, dir)
      : q.selectAll().orderBy(SORT_COLUMN[order.key], dir);
  const rows = await sorted.orderBy('id', dir).limit(p.limit).offset(p.offset).execute();
  return { rows, total: Number(count.n) };
}
