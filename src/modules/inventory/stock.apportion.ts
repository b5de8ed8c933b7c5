// What each location's units of an item are worth, for the valuation and the stock list.
//
// Cost is the company's, not a location's (IAS 2.25: one cost formula for items of a like nature;
// docs/decisions.md, issue 34): a sale or a write-off takes the company's cost from whichever
// location it leaves, and a transfer moves no layer. So the value the movements leave on each
// location drifts from its units (a location emptied by a write-off could keep R50 and no units).
// The item's value is therefore shared among its locations by the units each holds: every
// location's share to the cent, the cent left by rounding on the location holding most, so the
// locations still add up to the item's value, which is what ties to the ledger.
//
// Left as the movements put it: an item with no units in all (value without quantity, which only a
// rounding or a value-only movement can leave) or with a location below zero (a product allowed
// to go negative): there is no share by units to make.
import type { Decimal } from 'decimal.js';
import { cents, money, sum, ZERO } from '../../platform/money/money.ts';

export interface Holding {
  itemId: string;
  quantity: Decimal | string | number;
  value: Decimal | string | number;
}

/** The value of each holding, in the order given, shared within its item by quantity. */
export function apportionByQuantity(holdings: Holding[]): Decimal[] {
  const out = holdings.map((h) => money(h.value));
  const byItem = new Map<string, number[]>();
  for (const [i, h] of holdings.entries()) {
    const list = byItem.get(h.itemId) ?? [];
    list.push(i);
    byItem.set(h.itemId, list);
  }
  for (const indexes of byItem.values()) {
    const quantities = indexes.map((i) => money(holdings[i]!.quantity));
    const units = sum(quantities);
    if (!units.greaterThan(0) || quantities.some((q) => q.isNegative())) continue;
    const value = sum(indexes.map((i) => money(holdings[i]!.value)));
    let largest = 0;
    for (const [k, q] of quantities.entries()) if (q.greaterThan(quantities[largest]!)) largest = k;
    let shared = ZERO;
    for (const [k, i] of indexes.entries()) {
      out[i] = cents(value.times(quantities[k]!).dividedBy(units));
      shared = shared.plus(out[i]!);
    }
    const at = indexes[largest]!;
    out[at] = out[at]!.plus(value.minus(shared));
  }
  return out;
}
