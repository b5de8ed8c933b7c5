// Money is exact: decimal.js in code, NUMERIC in SQL, JSON numbers on the wire. Amounts are
// rounded half-up to cents (DECISIONS.md, "Money and VAT").
import { Decimal } from 'decimal.js';

/** decimal.js with enough precision for any NUMERIC(20,2) sum and half-up rounding. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;
export type MoneyInput = Decimal.Value;

export const ZERO = new Money(0);

export function money(value: MoneyInput | null | undefined): Decimal {
  return new Money(value ?? 0);
}

/** Rounded half-up to two decimals. */
export function cents(value: MoneyInput): Decimal {
  return new Money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** For a NUMERIC column: the exact decimal string. */
export function toSql(value: MoneyInput): string {
  return new Money(value).toFixed(2);
}

/**
 * For the API: a JSON number. Two decimals print exactly as a double (the shortest
 * representation round-trips), so 1149.99 leaves as 1149.99.
 */
export function toNumber(value: MoneyInput | null | undefined): number {
  // NUMERIC(18,2) as the database answers it ('1149.99', '-0.50', '0'): already at most two
  // decimals, so Number() reads the very double toFixed(2) would print; no decimal.js needed
  // (a page of documents converts thousands of these).
  if (typeof value === 'string' && CENTS.test(value)) return Number(value) + 0; // + 0: no -0
  return Number(new Money(value ?? 0).toFixed(2));
}

const CENTS = /^-?\d{1,16}(\.\d{1,2})?$/;

/** Has at most `places` decimals (a JSON number like 10.005 has three). */
export function hasAtMostDecimals(value: MoneyInput, places: number): boolean {
  return new Money(value).decimalPlaces() <= places;
}

export function sum(values: Iterable<MoneyInput>): Decimal {
  let total = new Money(0);
  for (const v of values) total = total.plus(v);
  return total;
}
