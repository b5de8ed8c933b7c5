// An opportunity's lines as stored: a product of the tenant's (its name and price by default) or
// free text; amount = quantity × unitPrice × (1 − discountPercent/100), rounded half-up to cents,
// the formula the invoices module prices a line's net with, so the quote made from it agrees.
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, Money, money, sum, toSql } from '../../platform/money/money.ts';
import type { OpportunityLineInput } from './opportunities.schemas.ts';

type LineInput = Static<typeof OpportunityLineInput>;

export interface PricedLine {
  line_no: number;
  product_id: string | null;
  description: string;
  quantity: string;
  unit_price: string;
  discount_percent: string;
  amount: string;
}

/**
 * quantity × unitPrice of one line stays below this: 200 such lines with VAT still fit the quote's
 * NUMERIC(18,2) totals (and its discount column, which holds the gross less the net).
 */
const MAX_LINE_GROSS = new Money('1e13');

/** The lines priced, products checked (400 naming the line's field), and their total. */
export async function pricedLines(
  tx: Tx,
  tenantId: string,
  lines: LineInput[],
): Promise<{ rows: PricedLine[]; total: string }> {
  const productIds = [...new Set(lines.map((l) => l.productId).filter((p): p is string => Boolean(p)))];
  const products = productIds.length
    ? await tx
        .selectFrom('products')
        .select(['id', 'name', 'unit_price'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', productIds)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  const rows: PricedLine[] = [];
  for (const [i, l] of lines.entries()) {
    const wanted = l.productId?.toLowerCase();
    const product = wanted ? products.find((p) => p.id === wanted) : undefined;
    if (l.productId && !product) throw badRequest(`lines[${i}].productId`, 'no such product');
    const description = (l.description ?? product?.name ?? '').trim();
    if (!description) throw badRequest(`lines[${i}].description`, 'required without a productId');
    if (l.unitPrice === undefined && !product)
      throw badRequest(`lines[${i}].unitPrice`, 'required without a productId');
    if (!hasAtMostDecimals(l.quantity, 4)) throw badRequest(`lines[${i}].quantity`, 'at most four decimals');
    if (l.unitPrice !== undefined && !hasAtMostDecimals(l.unitPrice, 2))
      throw badRequest(`lines[${i}].unitPrice`, 'at most two decimals');
    const discount = money(l.discountPercent ?? 0);
    if (!hasAtMostDecimals(discount, 2))
      throw badRequest(`lines[${i}].discountPercent`, 'at most two decimals');
    // A product's price may carry more decimals than a quote line shows: its cents, half-up.
    const unitPrice = l.unitPrice === undefined ? cents(product!.unit_price) : money(l.unitPrice);
    const gross = money(l.quantity).times(unitPrice);
    if (gross.greaterThanOrEqualTo(MAX_LINE_GROSS))
      throw badRequest(`lines[${i}].quantity`, 'quantity × unitPrice is too large');
    const amount = cents(gross.times(new Money(100).minus(discount)).dividedBy(100));
    rows.push({
      line_no: i + 1,
      product_id: product?.id ?? null,
      description,
      quantity: money(l.quantity).toString(),
      unit_price: toSql(unitPrice),
      discount_percent: discount.toFixed(2),
      amount: toSql(amount),
    });
  }
  return { rows, total: toSql(sum(rows.map((r) => r.amount))) };
}

/** Replaces the opportunity's lines with these: the old ones are retired (bp_app deletes nothing). */
export async function writeLines(
  tx: Tx,
  tenantId: string,
  opportunityId: string,
  rows: PricedLine[],
  now: Date,
) {
  await tx
    .updateTable('crm_opportunity_lines')
    .set({ retired_at: now })
    .where('tenant_id', '=', tenantId)
    .where('opportunity_id', '=', opportunityId)
    .where('retired_at', 'is', null)
    .execute();
  if (rows.length === 0) return;
  await tx
    .insertInto('crm_opportunity_lines')
    .values(rows.map((r) => ({ ...r, tenant_id: tenantId, opportunity_id: opportunityId })))
    .execute();
}
