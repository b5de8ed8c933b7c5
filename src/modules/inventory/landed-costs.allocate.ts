// Spreading a landed cost over receipts: each receipt's basis (its value, quantity, or
// quantity × the product's weight), shares in cents by the largest remainder, so that the
// shares sum to the amount exactly (the cents left over by rounding down go, one each, to the
// receipts with the largest fractions; ties to the earlier receipt).
import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { money, sum, ZERO } from '../../platform/money/money.ts';

export function largestRemainder(total: Decimal, bases: Decimal[], field = 'receipts'): Decimal[] {
  const whole = sum(bases);
  if (!whole.greaterThan(0))
    throw badRequest(field, 'the receipts have nothing to spread over (their basis is zero)');
  const cents = total.times(100);
  const raw = bases.map((b) => cents.times(b).dividedBy(whole));
  const floors = raw.map((r) => r.floor());
  let left = cents.minus(sum(floors)).toNumber();
  const order = raw
    .map((r, i) => ({ i, frac: r.minus(r.floor()) }))
    .sort((x, y) => y.frac.comparedTo(x.frac) || x.i - y.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = floors[i]!.plus(1);
    left--;
  }
  return floors.map((f) => f.dividedBy(100));
}

export interface ReceiptBasis {
  value: string;
  quantity: string;
  weight: string | null;
}

/** A receipt's basis for the method; 400 naming the receipt when weight is asked and unknown. */
export function basisOf(method: 'value' | 'quantity' | 'weight', r: ReceiptBasis, field: string): Decimal {
  if (method === 'value') return money(r.value).abs();
  if (method === 'quantity') return money(r.quantity).abs();
  if (r.weight == null) throw badRequest(field, 'the product has no weight: spread by value or quantity');
  return money(r.quantity).abs().times(money(r.weight));
}

export { ZERO };
