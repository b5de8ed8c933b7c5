// Price lists: tenant-wide, for one company or every company, with a price per product or per
// variant. The items are replaced as a set (retired, never erased); a contact takes a list of
// its own (PUT .../contacts) or by its tags. Soft delete.
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { hasAtMostDecimals, money } from '../../platform/money/money.ts';
import type {
  ContactsPut,
  PriceInput,
  PriceListCreate,
  PriceListQuery,
  PriceListUpdate,
} from './price-lists.schemas.ts';
import { assertLiveProducts } from './products.live.ts';
import type { PriceListsTable } from './stock.tables.ts';

type Row = Selectable<PriceListsTable>;
export interface PriceOut {
  productId: string;
  variantId: string | null;
  unitPrice: number;
}

function toPriceList(r: Row, prices: PriceOut[]) {
  return {
    id: r.id,
    name: r.name,
    companyId: r.company_id,
    currency: r.currency,
    contactTags: r.contact_tags,
    isActive: r.is_active,
    prices,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    deletedAt: r.deleted_at === null ? null : r.deleted_at.toISOString(),
  };
}
export type PriceList = ReturnType<typeof toPriceList>;

/** The live prices of these lists, by list: one query for a page. */
export async function pricesOf(ctx: Pick<TenantCtx, 'db' | 'tenantId'>, ids: string[]) {
  const out = new Map<string, PriceOut[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await ctx.db
    .selectFrom('price_list_items')
    .select(['price_list_id', 'product_id', 'variant_id', 'unit_price'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('price_list_id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('product_id')
    .orderBy(sql`variant_id NULLS FIRST`)
    .execute();
  for (const r of rows)
    out.get(r.price_list_id)?.push({
      productId: r.product_id,
      variantId: r.variant_id,
      unitPrice: Number(r.unit_price),
    });
  return out;
}

function liveList(ctx: TenantCtx, id: string) {
  return ctx.db
    .selectFrom('price_lists')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function getPriceList(ctx: TenantCtx, id: string): Promise<PriceList> {
  const row = await liveList(ctx, id);
  if (!row) throw notFound('Price list');
  return toPriceList(row, (await pricesOf(ctx, [id])).get(id) ?? []);
}

function trimmedName(name: string): string {
  const t = name.trim();
  if (!t) throw badRequest('name', 'must not be blank');
  return t;
}

async function assertNameFree(ctx: TenantCtx, name: string, exceptId?: string) {
  let q = ctx.db
    .selectFrom('price_lists')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .where('deleted_at', 'is', null);
  if (exceptId) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) throw nameTaken(name);
}

const nameTaken = (name: string) =>
  conflict(`name: there is a price list ${name} already`, { field: 'name' });

async function assertCompany(ctx: TenantCtx, companyId: string | null | undefined) {
  if (!companyId) return;
  const c = await ctx.db
    .selectFrom('companies')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyId)
    .executeTakeFirst();
  if (!c) throw badRequest('companyId', 'no such company');
}

function tagsOf(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

/** The prices as rows: live products and variants of them, each once, four decimals at most. */
async function priceRows(
  ctx: TenantCtx,
  listId: string,
  prices: Array<Static<typeof PriceInput>>,
  field: string,
) {
  await assertLiveProducts(ctx, prices, field);
  const seen = new Set<string>();
  return prices.map((p, i) => {
    if (!hasAtMostDecimals(p.unitPrice, 4))
      throw badRequest(`${field}[${i}].unitPrice`, 'at most four decimals');
    const key = `${p.productId}/${p.variantId ?? ''}`;
    if (seen.has(key)) throw badRequest(`${field}[${i}]`, 'the same product (and variant) is priced twice');
    seen.add(key);
    return {
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      price_list_id: listId,
      product_id: p.productId,
      variant_id: p.variantId ?? null,
      unit_price: money(p.unitPrice).toFixed(4),
    };
  });
}

/** Retires the list's live items and writes the new set, in the request's transaction. */
async function replaceItems(ctx: TenantCtx, listId: string, rows: Awaited<ReturnType<typeof priceRows>>) {
  await ctx.db
    .updateTable('price_list_items')
    .set({ retired_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('price_list_id', '=', listId)
    .where('retired_at', 'is', null)
    .execute();
  if (rows.length) await ctx.db.insertInto('price_list_items').values(rows).execute();
}

export async function createPriceList(
  ctx: TenantCtx,
  input: Static<typeof PriceListCreate>,
): Promise<PriceList> {
  const name = trimmedName(input.name);
  await assertCompany(ctx, input.companyId);
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      const existing = await ctx.db
        .selectFrom('price_lists')
        .select('deleted_at')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (existing?.deleted_at)
        throw conflict('clientId: was the id of a price list that has since been deleted', {
          field: 'clientId',
        });
      if (existing) return false;
      await assertNameFree(ctx, name);
      const rows = await priceRows(ctx, id, input.prices ?? [], 'prices');
      const now = ctx.deps.now();
      const r = await ctx.db
        .insertInto('price_lists')
        .values({
          tenant_id: ctx.tenantId,
          id,
          name,
          company_id: input.companyId ?? null,
          currency: input.currency ?? 'ZAR',
          contact_tags: tagsOf(input.contactTags ?? []),
          is_active: input.isActive ?? true,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows) !== 1) throw nameTaken(name);
      if (rows.length) await ctx.db.insertInto('price_list_items').values(rows).execute();
      return true;
    },
    load: (id) => getPriceList(ctx, id),
  });
}

export async function updatePriceList(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof PriceListUpdate>,
): Promise<PriceList> {
  if (!(await liveList(ctx, id))) throw notFound('Price list');
  const set: Partial<Row> = {};
  if (input.name !== undefined) {
    set.name = trimmedName(input.name);
    await assertNameFree(ctx, set.name, id);
  }
  if (input.companyId !== undefined) {
    await assertCompany(ctx, input.companyId);
    set.company_id = input.companyId;
  }
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.contactTags !== undefined) set.contact_tags = tagsOf(input.contactTags);
  if (input.isActive !== undefined) set.is_active = input.isActive;
  await ctx.db
    .updateTable('price_lists')
    .set({ ...set, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getPriceList(ctx, id);
}

/** PUT of the prices: the whole set replaces the live one; the list's updatedAt moves. */
export async function putPrices(
  ctx: TenantCtx,
  id: string,
  prices: Array<Static<typeof PriceInput>>,
): Promise<PriceList> {
  if (!(await liveList(ctx, id))) throw notFound('Price list');
  await replaceItems(ctx, id, await priceRows(ctx, id, prices, 'prices'));
  await ctx.db
    .updateTable('price_lists')
    .set({ updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getPriceList(ctx, id);
}

/** Soft delete; contacts that had it as their own fall back to tags (or none). */
export async function deletePriceList(ctx: TenantCtx, id: string): Promise<void> {
  const now = ctx.deps.now();
  const r = await ctx.db
    .updateTable('price_lists')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound('Price list');
}

export async function listPriceLists(
  ctx: TenantCtx,
  query: Static<typeof PriceListQuery>,
): Promise<Page<PriceList>> {
  const p = paging(query);
  let q = ctx.db.selectFrom('price_lists').where('tenant_id', '=', ctx.tenantId);
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.isActive !== undefined) q = q.where('is_active', '=', query.isActive);
  if (query.companyId) {
    const companyId = query.companyId;
    q = q.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
  }
  const order = sortOrder<'name' | 'updatedAt' | 'createdAt'>(query.sort, 'name');
  const column = { name: 'name', updatedAt: 'updated_at', createdAt: 'created_at' }[order.key];
  const { rows, total } = await pageOfQuery(q, { columns: [column], direction: order.direction }, p);
  const prices = await pricesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => toPriceList(r, prices.get(r.id) ?? [])),
    total,
    p,
  );
}

/** The contacts whose own list this is, by id. */
export async function listContacts(ctx: TenantCtx, id: string) {
  if (!(await liveList(ctx, id))) throw notFound('Price list');
  const rows = await ctx.db
    .selectFrom('contacts')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('price_list_id', '=', id)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return { priceListId: id, contactIds: rows.map((r) => r.id) };
}

/**
 * PUT of the contacts: exactly these live contacts have the list as their own; any other that had
 * it loses it (a contact has one own list: naming it here moves it from another list).
 */
export async function putContacts(ctx: TenantCtx, id: string, input: Static<typeof ContactsPut>) {
  if (!(await liveList(ctx, id))) throw notFound('Price list');
  const ids = input.contactIds.map((c) => c.toLowerCase());
  if (ids.length) {
    const found = await ctx.db
      .selectFrom('contacts')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    const known = new Set(found.map((f) => f.id));
    const missing = ids.findIndex((c) => !known.has(c));
    if (missing >= 0) throw badRequest(`contactIds[${missing}]`, 'no such contact');
  }
  let clear = ctx.db
    .updateTable('contacts')
    .set({ price_list_id: null })
    .where('tenant_id', '=', ctx.tenantId)
    .where('price_list_id', '=', id);
  if (ids.length) clear = clear.where('id', 'not in', ids);
  await clear.execute();
  if (ids.length)
    await ctx.db
      .updateTable('contacts')
      .set({ price_list_id: id })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', 'in', ids)
      .execute();
  return listContacts(ctx, id);
}
