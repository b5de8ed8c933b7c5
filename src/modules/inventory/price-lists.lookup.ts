// Which price list a contact takes, and the price it gives a product: the contact's own list
// (when live, active and of the company or every company), else the first such list by name
// whose contactTags meet the contact's tags. Sales lines naming a product without a unitPrice
// take contactPrice (invoices.service.ts priced()).
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { notFound } from '../../platform/http/problem.ts';
import { type Money, money } from '../../platform/money/money.ts';
import type { LedgerCtx } from '../ledger/index.ts';
import { pricesOf } from './price-lists.service.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'>;

/** The list the contact takes (on the company's documents when companyId is given); null: none. */
export async function contactList(ctx: Ctx, contactId: string, companyId?: string | null) {
  const contact = await ctx.db
    .selectFrom('contacts')
    .select(['id', 'tags', 'price_list_id'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!contact) return undefined;
  const usable = () => {
    let q = ctx.db
      .selectFrom('price_lists')
      .select(['id', 'name', 'company_id'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true);
    if (companyId)
      q = q.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
    return q;
  };
  if (contact.price_list_id) {
    const own = await usable().where('id', '=', contact.price_list_id).executeTakeFirst();
    if (own) return own;
  }
  const tags = contact.tags ?? [];
  if (tags.length === 0) return null;
  const byTag = await usable()
    .where(sql<boolean>`contact_tags && ${sql.val(tags)}::text[]`)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .executeTakeFirst();
  return byTag ?? null;
}

/** GET /api/contacts/{id}/price-list: the spec's shape; 404 for no such live contact. */
export async function contactPriceList(ctx: TenantCtx, contactId: string, companyId: string | undefined) {
  const list = await contactList(ctx, contactId, companyId);
  if (list === undefined) throw notFound('Contact');
  if (list === null) return { contactId, priceList: null };
  const prices = (await pricesOf(ctx, [list.id])).get(list.id) ?? [];
  return { contactId, priceList: { id: list.id, name: list.name, companyId: list.company_id, prices } };
}

/**
 * The contact's list price of a product (or a variant: its own item, else the product-level
 * item) on the company's documents; null when the contact takes no list or it prices neither.
 */
export async function contactPrice(
  ctx: Ctx,
  q: { contactId: string; companyId: string; productId: string; variantId?: string | null | undefined },
): Promise<Money | null> {
  const list = await contactList(ctx, q.contactId, q.companyId);
  if (!list) return null;
  const items = await ctx.db
    .selectFrom('price_list_items')
    .select(['variant_id', 'unit_price'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('price_list_id', '=', list.id)
    .where('product_id', '=', q.productId)
    .where('retired_at', 'is', null)
    .execute();
  const own = q.variantId ? items.find((i) => i.variant_id === q.variantId) : undefined;
  const item = own ?? items.find((i) => i.variant_id === null);
  return item ? money(item.unit_price) : null;
}

/**
 * The price a sales line naming a product takes when it is sent without one: the contact's list
 * price, else the variant's own unitPrice, else the product's. The product (and variant) were
 * checked live by the caller.
 */
export async function salesUnitPrice(
  ctx: Ctx,
  q: {
    contactId?: string | undefined;
    companyId: string;
    productId: string;
    variantId?: string | null | undefined;
  },
): Promise<Money> {
  if (q.contactId) {
    const listed = await contactPrice(ctx, { ...q, contactId: q.contactId });
    if (listed) return listed;
  }
  if (q.variantId) {
    const v = await ctx.db
      .selectFrom('product_variants')
      .select('unit_price')
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', q.variantId)
      .executeTakeFirst();
    if (v?.unit_price != null) return money(v.unit_price);
  }
  const p = await ctx.db
    .selectFrom('products')
    .select('unit_price')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', q.productId)
    .executeTakeFirstOrThrow();
  return money(p.unit_price);
}
