// Money conversions: the fast path of toNumber agrees with decimal.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Money, toNumber } from './money.ts';

test('toNumber: a NUMERIC string of at most two decimals reads as decimal.js rounds it', () => {
  for (const s of ['0', '0.00', '-0.00', '1149.99', '-0.5', '12.3', '999999999999999.99', '0.01', '-1']) {
    assert.equal(Object.is(toNumber(s), Number(new Money(s).toFixed(2))), true, s);
  }
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }),
      fc.integer({ min: 0, max: 2 }),
      (n, places) => {
        const digits = (n < 0n ? -n : n).toString().padStart(places + 1, '0');
        const s = `${n < 0n ? '-' : ''}${places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits}`;
        assert.equal(Object.is(toNumber(s), Number(new Money(s).toFixed(2))), true, s);
      },
    ),
  );
});

test('toNumber: more decimals, numbers and null still round half-up to cents', () => {
  assert.equal(toNumber('10.005'), 10.01);
  assert.equal(toNumber('-10.005'), -10.01);
  assert.equal(toNumber(2.675), 2.68);
  assert.equal(toNumber(null), 0);
  assert.equal(toNumber('1e3'), 1000);
});
