// One check for every document or list whose lines name a product (and a variant): each must
// be live in the tenant's book, and a variant must be of the product named beside it. Two
// queries for all the lines, whatever their number.
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';

interface NamesProduct {
  productId?: string | null | undefined;
  variantId?: string | null | undefined;
}

/** 400 naming `${field}[i].productId` or `.variantId` for the first line that fails. */
export async function assertLiveProducts(
  ctx: { db: Tx; tenantId: string },
  lines: NamesProduct[],
  field: string,
): Promise<void> {
  const products = [...new Set(lines.flatMap((l) => (l.productId ? [l.productId] : [])))];
  const variants = [...new Set(lines.flatMap((l) => (l.variantId ? [l.variantId] : [])))];
  const live = products.length
    ? await ctx.db
        .selectFrom('products')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', 'in', products)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  const liveVariants = variants.length
    ? await ctx.db
        .selectFrom('product_variants')
        .select(['id', 'product_id'])
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', 'in', variants)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  for (const [i, l] of lines.entries()) {
    if (l.productId && !live.some((p) => p.id === l.productId))
      throw badRequest(`${field}[${i}].productId`, 'no such product');
    if (l.variantId && !l.productId)
      throw badRequest(`${field}[${i}].variantId`, 'a variant goes with its productId');
    if (l.variantId && !liveVariants.some((v) => v.id === l.variantId && v.product_id === l.productId))
      throw badRequest(`${field}[${i}].variantId`, 'no such variant of the product');
  }
}
