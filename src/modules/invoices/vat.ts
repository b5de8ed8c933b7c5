// The VAT and rounding rules of a sales document (DECISIONS.md, "Money and VAT"):
//   * the South African standard rate is 15%, 14% before 2018-04-01, by the issue date;
//   * a company not VAT-registered on the issue date charges no VAT, whatever a line says;
//   * a line without vatRate takes the standard rate; vatRate 0 is zero-rated;
//   * each line's net and VAT are rounded half-up to cents; totals are sums of rounded lines.
import type { Decimal } from 'decimal.js';
import { cents, Money, type MoneyInput, money, sum } from '../../platform/money/money.ts';

/** The day the standard rate went from 14% to 15%. */
export const RATE_CHANGE_DATE = '2018-04-01';

export function standardRate(issueDate: string): Decimal {
  return new Money(issueDate < RATE_CHANGE_DATE ? 14 : 15);
}

export interface LineInput {
  quantity: MoneyInput;
  unitPrice: MoneyInput;
  /** Percent off (10 = 10%); none by default. */
  discountRate?: MoneyInput | null;
  /** The rate the line asks for; absent: the standard rate. */
  vatRate?: MoneyInput | null;
}

export interface LineAmounts {
  /** The rate applied. */
  vatRate: Decimal;
  /** quantity × unit price, before the discount, rounded to cents. */
  gross: Decimal;
  discount: Decimal;
  /** After the discount, rounded half-up to cents. */
  net: Decimal;
  vat: Decimal;
  total: Decimal;
  /** How the VAT report classifies it: standard (any non-zero rate), zero, or none (not registered). */
  taxCode: 'standard' | 'zero' | null;
}

export function lineAmounts(
  line: LineInput,
  ctx: { vatRegistered: boolean; issueDate: string },
): LineAmounts {
  const gross = money(line.quantity).times(money(line.unitPrice));
  const net = cents(gross.times(new Money(100).minus(money(line.discountRate))).dividedBy(100));
  const rate = !ctx.vatRegistered
    ? new Money(0)
    : line.vatRate === undefined || line.vatRate === null
      ? standardRate(ctx.issueDate)
      : money(line.vatRate);
  const vat = cents(net.times(rate).dividedBy(100));
  const grossCents = cents(gross);
  return {
    vatRate: rate,
    gross: grossCents,
    discount: grossCents.minus(net),
    net,
    vat,
    total: net.plus(vat),
    taxCode: !ctx.vatRegistered ? null : rate.isZero() ? 'zero' : 'standard',
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
