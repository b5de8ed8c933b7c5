// UIF: 1% + 1% up to the ceiling (R17 712 a month from 1 June 2021), worked by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UIF_2021 } from './test-tables.ts';
import { uif, uifCeiling } from './uif.ts';

const eq = (actual: { toFixed(n: number): string }, expected: string) =>
  assert.equal(actual.toFixed(2), expected);

test('monthly, at and below the ceiling', () => {
  // R25 000 > R17 712: 1% × 17 712 = 177.12 each (the most a month)
  const top = uif(UIF_2021, { frequency: 'monthly', remuneration: 25000, applies: true });
  eq(top.base, '17712.00');
  eq(top.employee, '177.12');
  eq(top.employer, '177.12');
  // exactly the ceiling: the same
  eq(uif(UIF_2021, { frequency: 'monthly', remuneration: 17712, applies: true }).employee, '177.12');
  // R10 000: 100.00 each; R4 567.89: 45.6789 → 45.68
  eq(uif(UIF_2021, { frequency: 'monthly', remuneration: 10000, applies: true }).employee, '100.00');
  eq(uif(UIF_2021, { frequency: 'monthly', remuneration: 4567.89, applies: true }).employer, '45.68');
});

test('weekly and fortnightly ceilings: the monthly one × 12 ÷ 52 (× 2)', () => {
  // 17 712 × 12 = 212 544 a year; ÷ 52 = 4 087.3846… → 4 087.38; × 2 ÷ 52 = 8 174.769… → 8 174.77
  eq(uifCeiling(UIF_2021, 'weekly'), '4087.38');
  eq(uifCeiling(UIF_2021, 'fortnightly'), '8174.77');
  // R5 000 a week: 1% × 4 087.38 = 40.8738 → 40.87; R9 000 a fortnight: 81.7477 → 81.75
  eq(uif(UIF_2021, { frequency: 'weekly', remuneration: 5000, applies: true }).employee, '40.87');
  eq(uif(UIF_2021, { frequency: 'fortnightly', remuneration: 9000, applies: true }).employee, '81.75');
});

test('none when UIF does not apply', () => {
  const r = uif(UIF_2021, { frequency: 'monthly', remuneration: 25000, applies: false });
  eq(r.employee, '0.00');
  eq(r.employer, '0.00');
});
