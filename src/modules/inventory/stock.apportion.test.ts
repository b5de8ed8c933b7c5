// The value of an item's locations shared by the units each holds (stock.apportion.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apportionByQuantity } from './stock.apportion.ts';

const strings = (ds: { toFixed(n: number): string }[]) => ds.map((d) => d.toFixed(2));

test('a location emptied by a write-off keeps no value; the units left hold the item value', () => {
  // The outside audit's case (issue 34): FIFO 10 @ R10 and 10 @ R20, 10 moved to B, the 10 at B
  // written off at the company's FIFO cost R100 (the oldest layer). The item is worth R200 (the
  // 10 @ R20 left), all at MAIN; the movements had left MAIN R150 and B R50 with no units.
  assert.deepEqual(
    strings(
      apportionByQuantity([
        { itemId: 'a', quantity: 10, value: 150 },
        { itemId: 'a', quantity: 0, value: 50 },
      ]),
    ),
    ['200.00', '0.00'],
  );
});

test('an average item: each location at the company average, to the cent', () => {
  // 10 @ R10, 5 moved to B, 10 more @ R40 at MAIN: 20 units worth R500, R25 each (the company's
  // weighted average). MAIN 15 × 25 = R375, B 5 × 25 = R125; the movements had left B at R50.
  assert.deepEqual(
    strings(
      apportionByQuantity([
        { itemId: 'a', quantity: 15, value: 450 },
        { itemId: 'a', quantity: 5, value: 50 },
      ]),
    ),
    ['375.00', '125.00'],
  );
});

test('the cent left by rounding goes to the location holding most; items apart', () => {
  // R10.00 over 3 units at three locations: 3.33 each is 9.99, the cent left goes to the first of
  // the largest (all equal: the first). Item b (R7.00 over 2 + 1): 4.666… → 4.67 and 2.333… → 2.33,
  // 7.00 exactly, nothing left.
  assert.deepEqual(
    strings(
      apportionByQuantity([
        { itemId: 'a', quantity: 1, value: 4 },
        { itemId: 'b', quantity: 2, value: 7 },
        { itemId: 'a', quantity: 1, value: 3 },
        { itemId: 'a', quantity: 1, value: 3 },
        { itemId: 'b', quantity: 1, value: 0 },
      ]),
    ),
    ['3.34', '4.67', '3.33', '3.33', '2.33'],
  );
});

test('no units in all, or a location below zero: left as the movements put it', () => {
  assert.deepEqual(
    strings(
      apportionByQuantity([
        { itemId: 'a', quantity: 0, value: 0.01 },
        { itemId: 'b', quantity: -2, value: -20 },
        { itemId: 'b', quantity: 5, value: 50 },
      ]),
    ),
    ['0.01', '-20.00', '50.00'],
  );
});
