// Quantities are kept to four decimals (NUMERIC(20,4) and (18,4) columns: 3.7035 kg of a product
// sold by weight) and answered as stored, a JSON number with up to those four decimals, never
// rounded to cents as money is (issue 34: 3.7035 was answered 3.7). The OpenAPI types quantities
// as numbers, as the spec does; no unit declares a precision of its own, so the columns' four
// decimals are the precision. A double carries the 15 significant digits a quantity below
// 10^11 with four decimals needs, and the shortest double reads back as the same decimal.
import { Money, type MoneyInput } from './money.ts';

const FOUR = /^-?\d{1,15}(\.\d{1,4})?$/;

/** A quantity for the API: the exact decimal as a JSON number, at most four decimals. */
export function toQuantity(value: MoneyInput | null | undefined): number {
  // What the database answers ('3.7035', '-2.5000', '0') needs no decimal.js.
  if (typeof value === 'string' && FOUR.test(value)) return Number(value) + 0; // + 0: no -0
  return Number(new Money(value ?? 0).toDecimalPlaces(4, Money.ROUND_HALF_UP).toFixed(4)) + 0;
}

/**
 * A unit price for the API, as stored: lines take a unit price with up to four decimals (R3.3333
 * a unit) and keep it so, as invoices answer it; only amounts are cents.
 */
export const toUnitPrice = toQuantity;
