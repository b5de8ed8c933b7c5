// The VAT and rounding rules of a sales document (DECISIONS.md, "Money and VAT"):
//   * a line carries a tax code; the rate follows from the code and the issue date:
//     standard 15% (14% before 2018-04-01, VAT Act s7(1)(a)); zero (s11(1)), zero_export
//     (s11(1)(a)), exempt (s12) and out_of_scope carry no VAT;
//   * a line may give vatRate instead: 0 means zero, the standard rate of the date means
//     standard, any other rate is refused; neither given: standard;
//   * a company not VAT-registered on the issue date charges no VAT, whatever a line says;
//   * each line's net and VAT are rounded half-up to cents; totals are sums of rounded lines.
import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, Money, type MoneyInput, money, sum } from '../../platform/money/money.ts';

/** The day the standard rate went from 14% to 15%. */
export const RATE_CHANGE_DATE = '2018-04-01';

export function standardRate(issueDate: string): Decimal {
  return new Money(issueDate < RATE_CHANGE_DATE ? 14 : 15);
}

/** The tax codes of a sales document's line. */
export const SALES_TAX_CODES = ['standard', 'zero', 'zero_export', 'exempt', 'out_of_scope'] as const;
export type SalesTaxCode = (typeof SALES_TAX_CODES)[number];

export interface LineInput {
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
  line: Pick<LineInput, 'taxCode' | 'vatRate'>,
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

/** The rate a code charges on the date: the standard rate for standard, else 0; 0 when not registered. */
export function rateOfCode(code: SalesTaxCode, ctx: { vatRegistered: boolean; issueDate: string }): Decimal {
  return ctx.vatRegistered && code === 'standard' ? standardRate(ctx.issueDate) : new Money(0);
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
  line: LineInput,
  ctx: { vatRegistered: boolean; issueDate: string },
): LineAmounts {
  const taxCode = lineTaxCode(line, ctx.issueDate);
  const gross = money(line.quantity).times(money(line.unitPrice));
  const net = cents(gross.times(new Money(100).minus(money(line.discountRate))).dividedBy(100));
  const rate = rateOfCode(taxCode, ctx);
  const vat = cents(net.times(rate).dividedBy(100));
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
