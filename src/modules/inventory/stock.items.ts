// What moving stock needs to know before it moves: the item (a product, or one variant of it),
// the company's default location, the accounts a product's value posts to, and batches and
// serials by their codes. Shared by every module that moves stock (sales, purchases, counts).
import { sql } from 'kysely';
import { badRequest } from '../../platform/http/problem.ts';
import { type LedgerCtx, systemAccount } from '../ledger/index.ts';
import type { CostMethod, Tracking } from './stock.tables.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'>;

export interface StockItem {
  productId: string;
  variantId: string | null;
  /** The variant's id, else the product's: what balances and cost pools are keyed by. */
  itemId: string;
  name: string;
  tracking: Tracking;
  costMethod: CostMethod;
  allowNegative: boolean;
  isTracked: boolean;
  inventoryAccountCode: string | null;
  costAccountCode: string | null;
}

/**
 * The live product (and variant) a line names; 400 naming `field` (e.g. `lines[2].productId`)
 * when either is unknown, deleted or the variant is not the product's. A product with variants
 * may be moved without one only when it has none live.
 */
export async function stockItem(
  ctx: Ctx,
  productId: string,
  variantId: string | null | undefined,
  field = 'productId',
): Promise<StockItem> {
  const p = await ctx.db
    .selectFrom('products')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', productId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!p) throw badRequest(field, 'no such product');
  let name = p.name;
  if (variantId) {
    const v = await ctx.db
      .selectFrom('product_variants')
      .select(['id', 'name'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', variantId)
      .where('product_id', '=', productId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!v) throw badRequest(field.replace(/productId$/, 'variantId'), 'no such variant of the product');
    name = `${p.name} (${v.name})`;
  }
  return {
    productId,
    variantId: variantId ?? null,
    itemId: variantId ?? productId,
    name,
    tracking: p.tracking,
    costMethod: p.cost_method,
    allowNegative: p.allow_negative,
    isTracked: p.is_tracked,
    inventoryAccountCode: p.inventory_account_code,
    costAccountCode: p.cost_account_code,
  };
}

/** An account of the company by code (a product's own), else the system account `key`. */
async function accountByCode(ctx: Ctx, companyId: string, code: string | null, key: string, field: string) {
  if (!code) return systemAccount(ctx, companyId, key);
  const a = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where(sql<string>`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
  if (!a) throw badRequest(field, `the company has no account ${code}`);
  return a.id;
}

/** The inventory account the item's value sits in, in this company (default 1200 Inventory). */
export function inventoryAccount(ctx: Ctx, companyId: string, item: StockItem, field = 'productId') {
  return accountByCode(ctx, companyId, item.inventoryAccountCode, 'inventory', field);
}

/** The account the item's cost of sales posts to, in this company (default 5000 Cost of sales). */
export function costOfSalesAccount(ctx: Ctx, companyId: string, item: StockItem, field = 'productId') {
  return accountByCode(ctx, companyId, item.costAccountCode, 'cost_of_sales', field);
}

/**
 * The company's default location: made on first use (code MAIN, "Main warehouse"), with the
 * company's transit location (TRANSIT) that transfers pass through.
 */
export async function defaultLocation(ctx: Ctx, companyId: string): Promise<string> {
  const find = () =>
    ctx.db
      .selectFrom('stock_locations')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyId)
      .where('is_default', '=', true)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await ctx.db
    .insertInto('stock_locations')
    .values([
      {
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        company_id: companyId,
        code: 'MAIN',
        name: 'Main warehouse',
        kind: 'warehouse',
        is_default: true,
      },
    ])
    .onConflict((oc) => oc.doNothing())
    .execute();
  await transitLocation(ctx, companyId);
  const made = await find();
  if (!made) throw badRequest('locationId', 'the company has no default location: name one');
  return made.id;
}

/** The company's transit location (goods between locations), made on first use. */
export async function transitLocation(ctx: Ctx, companyId: string): Promise<string> {
  const find = () =>
    ctx.db
      .selectFrom('stock_locations')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyId)
      .where('kind', '=', 'transit')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await ctx.db
    .insertInto('stock_locations')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      company_id: companyId,
      code: 'TRANSIT',
      name: 'In transit',
      kind: 'transit',
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const made = await find();
  if (!made) throw badRequest('locationId', 'the company has no transit location');
  return made.id;
}

/** A live location of the company; 400 naming `field` otherwise. */
export async function assertLocation(ctx: Ctx, companyId: string, locationId: string, field = 'locationId') {
  const l = await ctx.db
    .selectFrom('stock_locations')
    .select(['id', 'kind'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', locationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!l) throw badRequest(field, 'no such location in this company');
  return l;
}

/** The item's batch of this code, made (with its expiry) when new. */
export async function batchOf(
  ctx: Ctx,
  item: StockItem,
  code: string,
  expiryDate?: string | null,
): Promise<{ id: string; expiryDate: string | null }> {
  const find = () =>
    ctx.db
      .selectFrom('stock_batches')
      .select(['id', 'expiry_date'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('item_id', '=', item.itemId)
      .where(sql<string>`lower(code)`, '=', code.trim().toLowerCase())
      .executeTakeFirst();
  let b = await find();
  if (!b) {
    await ctx.db
      .insertInto('stock_batches')
      .values({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        product_id: item.productId,
        item_id: item.itemId,
        code: code.trim(),
        expiry_date: expiryDate ?? null,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    b = await find();
  }
  return { id: b!.id, expiryDate: b!.expiry_date };
}

/** The item's serial record of this number, made (out of stock) when new. */
export async function serialOf(ctx: Ctx, item: StockItem, serial: string): Promise<string> {
  const find = () =>
    ctx.db
      .selectFrom('stock_serials')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('item_id', '=', item.itemId)
      .where('serial', '=', serial.trim())
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await ctx.db
    .insertInto('stock_serials')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      product_id: item.productId,
      item_id: item.itemId,
      serial: serial.trim(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await find())!.id;
}
