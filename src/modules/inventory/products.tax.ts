// A product's VAT, by tax code as a document's lines take it (issue 34, item 19). A product held a
// free vatRate (7, 14: anything from 0 to 100) that no document read: an invoice line naming it
// charged 15% whatever it said. It now carries a sales tax code (the codes of a sales line,
// invoices/vat.ts SALES_TAX_CODES) and a purchase tax code (those of a bill line,
// bills/bills.vat.ts BILL_TAX_CODES; the lists are repeated here because invoices and bills import
// inventory, and products.tax.test.ts holds them equal). The rate follows from the code and the
// document's date (15%, 14% before 2018-04-01, VAT Act s7(1)(a); 0 for the others).
//
// vatRate is still accepted, as a sales line takes it: 0 means zero, the standard rate of today
// standard, null standard (what null always meant: the standard rate of the document's date); a
// rate that is not the code's, or no code's, is a 400 naming vatRate. The answer's vatRate is the
// code's: null for a standard-rated code, else 0.
//
// A new product's purchase code is its sales code when that is zero or exempt (they follow the
// goods or services, VAT Act s11(1), s12), else standard, unless given (products.service.ts).
// A document line naming a product and neither taxCode nor vatRate takes the product's code
// (withProductTaxCodes); a line's own code or rate wins.
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, Money, money } from '../../platform/money/money.ts';
import { PURCHASE_TAX_CODES, SALES_TAX_CODES, standardRate } from '../../platform/money/vat-rate.ts';

// A product's codes are those of the lines it names (one list each: platform/money/vat-rate.ts).
export const PRODUCT_SALES_TAX_CODES = SALES_TAX_CODES;
export type ProductSalesTaxCode = (typeof PRODUCT_SALES_TAX_CODES)[number];

export const PRODUCT_PURCHASE_TAX_CODES = PURCHASE_TAX_CODES;
export type ProductPurchaseTaxCode = (typeof PRODUCT_PURCHASE_TAX_CODES)[number];

const STANDARD_RATED = new Set<string>([
  'standard',
  'standard_capital',
  'accommodation_short',
  'accommodation_long',
]);

/** The rate (percent) a code charges on `date`. */
function rateOf(code: string, date: string) {
  return STANDARD_RATED.has(code) ? standardRate(date) : new Money(0);
}

/** The answer's vatRate: null (the standard rate of the document's date) for a standard-rated code, else 0. */
export function vatRateOf(code: string): number | null {
  return STANDARD_RATED.has(code) ? null : 0;
}

/**
 * The sales code an input sets (undefined: it sets none), given the product's code now (none on a
 * create) and today's date: salesTaxCode as sent, checked against vatRate when both are sent;
 * vatRate alone names the code with that rate today (the current code when it has it); null, or
 * neither on a create, is standard.
 */
export function salesTaxCodeOf(
  input: { salesTaxCode?: ProductSalesTaxCode | undefined; vatRate?: number | null | undefined },
  current: ProductSalesTaxCode | undefined,
  today: string,
): ProductSalesTaxCode | undefined {
  const { salesTaxCode: code, vatRate } = input;
  if (vatRate === undefined || vatRate === null)
    return code ?? (vatRate === null || current === undefined ? 'standard' : undefined);
  if (!hasAtMostDecimals(vatRate, 3)) throw badRequest('vatRate', 'at most three decimals');
  const rate = money(vatRate);
  if (code) {
    if (!rateOf(code, today).equals(rate))
      throw badRequest(
        'vatRate',
        `${rate.toString()}% is not the rate of salesTaxCode ${code} (${rateOf(code, today).toString()}% on ${today})`,
      );
    return code;
  }
  if (current && rateOf(current, today).equals(rate)) return current;
  if (rate.isZero()) return 'zero';
  const standard = standardRate(today);
  if (rate.equals(standard)) return 'standard';
  throw badRequest(
    'vatRate',
    `${rate.toString()}% is not the rate of any tax code on ${today}: 0 (zero-rated) or ${standard.toString()} ` +
      '(standard), or give salesTaxCode',
  );
}

interface TaxedLine {
  productId?: string | null | undefined;
  taxCode?: string | null | undefined;
  vatRate?: number | null | undefined;
}

/**
 * The lines, each naming a product and neither taxCode nor vatRate given its product's sales or
 * purchase code. One query for all the lines; a product not found is left to the caller's check.
 */
export async function withProductTaxCodes<L extends TaxedLine>(
  ctx: { db: Tx; tenantId: string },
  lines: L[],
  side: 'sales' | 'purchase',
): Promise<L[]> {
  const takes = (l: L) =>
    Boolean(l.productId && !l.taxCode && (l.vatRate === undefined || l.vatRate === null));
  const wanted = [...new Set(lines.flatMap((l) => (takes(l) ? [l.productId!] : [])))];
  if (!wanted.length) return lines;
  const rows = await ctx.db
    .selectFrom('products')
    .select(['id', 'sales_tax_code', 'purchase_tax_code'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', 'in', wanted)
    .execute();
  const codes = new Map(rows.map((r) => [r.id, side === 'sales' ? r.sales_tax_code : r.purchase_tax_code]));
  return lines.map((l) => {
    const code = takes(l) ? codes.get(l.productId!) : undefined;
    return code ? { ...l, taxCode: code } : l;
  });
}
