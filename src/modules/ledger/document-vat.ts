// The VAT and rounding rules of a document's lines (DECISIONS.md, "Money and VAT"), the ledger's
// so that every module that prices lines (sales documents, bills) uses them without importing
// another module:
//   * a line carries a tax code; the rate follows from the code and the issue date:
//     standard 15% (14% before 2018-04-01, VAT Act s7(1)(a)); zero (s11(1)), zero_export
//     (s11(1)(a)), exempt (s12) and out_of_scope carry no VAT; commercial accommodation is
//     standard-rated, accommodation_short (28 days or less) on its whole value and
//     accommodation_long (more than 28 days, s10(10)) on 60% of it: its VAT is the standard rate
//     × 60% × net, rounded half-up per line (VAT201 fields 5-9);
//   * a line may give vatRate instead: 0 means zero, the standard rate of the date means
//     standard, any other rate is refused; neither given: standard;
//   * a company not VAT-registered on the issue date charges no VAT, whatever a line says;
//   * each line's net and VAT are rounded half-up to cents; totals are sums of rounded lines.
import type { Decimal } from 'decimal.js';
import { badRequest, HttpError } from '../../platform/http/problem.ts';
import { cents, Money, type MoneyInput, money, sum } from '../../platform/money/money.ts';
import { LONG_STAY_SHARE, SALES_TAX_CODES, standardRate } from '../../platform/money/vat-rate.ts';

// The rate rule has one home (platform/money/vat-rate.ts); re-exported for this file's callers.
export { RATE_CHANGE_DATE, standardRate } from '../../platform/money/vat-rate.ts';

/** The tax codes of a sales document's line (their one list: platform/money/vat-rate.ts). */
export { SALES_TAX_CODES };
export type SalesTaxCode = (typeof SALES_TAX_CODES)[number];

/** The codes charged at the standard rate of the date (accommodation_long on 60% of its value). */
const STANDARD_RATED: readonly SalesTaxCode[] = ['standard', 'accommodation_short', 'accommodation_long'];

export interface VatLineInput {
  quantity: MoneyInput;
  unitPrice: MoneyInput;
  /** Percent off (10 = 10%); none by default. */
  discountRate?: MoneyInput | null;
  /** The line's tax code; absent: from vatRate, or standard. */
  taxCode?: SalesTaxCode | null;
  /** The rate the line asks for (0 or the standard rate of the date); absent: from taxCode. */
  vatRate?: MoneyInput | null;
}

/**
 * The line's tax code: the one it names, else the one its vatRate means on the issue date
 * (0 → zero, the standard rate → standard), else standard. A rate that is neither, or that
 * disagrees with the code given, is a 400 naming `field` (the line's vatRate).
 */
export function lineTaxCode(
  line: Pick<VatLineInput, 'taxCode' | 'vatRate'>,
  issueDate: string,
  field = 'vatRate',
): SalesTaxCode {
  if (line.vatRate === undefined || line.vatRate === null) return line.taxCode ?? 'standard';
  const rate = money(line.vatRate);
  const standard = standardRate(issueDate);
  const meant: SalesTaxCode | undefined = rate.isZero()
    ? 'zero'
    : rate.equals(standard)
      ? 'standard'
      : undefined;
  if (!line.taxCode) {
    if (!meant)
      throw badRequest(
        field,
        `${rate.toString()}% is not a South African VAT rate on ${issueDate}: use 0 (zero-rated) or ` +
          `${standard.toString()} (standard), or give taxCode`,
      );
    return meant;
  }
  if (!rateOfCode(line.taxCode, { vatRegistered: true, issueDate }).equals(rate))
    throw badRequest(field, `${rate.toString()}% disagrees with taxCode ${line.taxCode} on ${issueDate}`);
  return line.taxCode;
}

/**
 * The rate a code charges on the date: the standard rate for standard and the accommodation
 * codes, else 0; 0 when not registered.
 */
export function rateOfCode(code: SalesTaxCode, ctx: { vatRegistered: boolean; issueDate: string }): Decimal {
  return ctx.vatRegistered && STANDARD_RATED.includes(code) ? standardRate(ctx.issueDate) : new Money(0);
}

/** The VAT of a line's net at `rate`: on 60% of it for accommodation_long (s10(10)), half-up to cents. */
export function lineVat(code: SalesTaxCode, net: Decimal, rate: Decimal): Decimal {
  const taxed = code === 'accommodation_long' ? net.times(LONG_STAY_SHARE) : net;
  return cents(taxed.times(rate).dividedBy(100));
}

export interface LineAmounts {
  /** The line's tax code (stored whatever the registration: then it charges no VAT). */
  taxCode: SalesTaxCode;
  /** The rate applied. */
  vatRate: Decimal;
  /** quantity × unit price, before the discount, rounded to cents. */
  gross: Decimal;
  discount: Decimal;
  /** After the discount, rounded half-up to cents (negative on a discount or returns line). */
  net: Decimal;
  vat: Decimal;
  total: Decimal;
}

export function lineAmounts(
  line: VatLineInput,
  ctx: { vatRegistered: boolean; issueDate: string },
): LineAmounts {
  const taxCode = lineTaxCode(line, ctx.issueDate);
  const gross = money(line.quantity).times(money(line.unitPrice));
  const net = cents(gross.times(new Money(100).minus(money(line.discountRate))).dividedBy(100));
  const rate = rateOfCode(taxCode, ctx);
  const vat = lineVat(taxCode, net, rate);
  const grossCents = cents(gross);
  return {
    taxCode,
    vatRate: rate,
    gross: grossCents,
    discount: grossCents.minus(net),
    net,
    vat,
    total: net.plus(vat),
  };
}

export interface DocumentTotals {
  subtotal: Decimal;
  discountTotal: Decimal;
  vatTotal: Decimal;
  total: Decimal;
}

/** Sums of the rounded lines. `subtotal` is the sum of the nets (after discounts). */
export function documentTotals(lines: LineAmounts[]): DocumentTotals {
  const subtotal = sum(lines.map((l) => l.net));
  const vatTotal = sum(lines.map((l) => l.vat));
  return {
    subtotal,
    discountTotal: sum(lines.map((l) => l.discount)),
    vatTotal,
    total: subtotal.plus(vatTotal),
  };
}

/**
 * A document that is not a credit note may not come to less than nothing (issue 34, item 18).
 * Negative lines net against the others (a discount, an item returned on the same sale), but a
 * tax invoice whose VAT is negative reduces output tax (a supplier's bill: input tax) without a
 * credit note, and one whose total is negative gives money back: both are a credit note's work
 * (VAT Act s21: it is the credit note that adjusts the tax of a supply, names what it adjusts and
 * reaches the VAT201 as a decrease). 422 CREDIT_NOTE_REQUIRED naming the document's total or VAT
 * total as its answer calls them (`names`): the request is well formed, what it adds up to is not
 * a tax invoice.
 */
export function assertNotBelowZero(
  totals: Pick<DocumentTotals, 'vatTotal' | 'total'>,
  what: string,
  names: { total: string; vatTotal: string } = { total: 'total', vatTotal: 'vatTotal' },
): void {
  const refuse = (field: string, text: string) =>
    new HttpError(422, `${field}: ${text}`, { code: 'CREDIT_NOTE_REQUIRED', field });
  if (totals.total.isNegative())
    throw refuse(
      names.total,
      `the ${what} comes to ${totals.total.toFixed(2)}: money given back is a credit note (s21), not a ${what}`,
    );
  if (totals.vatTotal.isNegative())
    throw refuse(
      names.vatTotal,
      `the ${what}'s VAT comes to ${totals.vatTotal.toFixed(2)}: a reduction of VAT is a credit note's work ` +
        `(VAT Act s21), not a ${what}'s; issue a credit note for the lines that reduce it`,
    );
}
