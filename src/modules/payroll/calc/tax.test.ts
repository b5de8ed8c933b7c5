// The year's tax from the published 2026/27 table (SARS, 2027 tax year): one income in each
// bracket, worked by hand, and the rebates by age on the last day of the tax year.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ageAtYearEnd, ageOn, annualTax, rebatesFor, taxBeforeRebates } from './tax.ts';
import { Y2026, Y2027 } from './test-tables.ts';

const eq = (actual: { toFixed(n: number): string }, expected: string) =>
  assert.equal(actual.toFixed(2), expected);

test("each base tax in SARS's table is the tax on the bands below it", () => {
  // 18% × 245 100 = 44 118; + 26% × 138 000 = 79 998; + 31% × 147 100 = 125 599;
  // + 36% × 165 600 = 185 215; + 39% × 191 200 = 259 783; + 41% × 991 600 = 666 339.
  for (const year of [Y2027, Y2026])
    for (const b of year.brackets.slice(1)) eq(taxBeforeRebates(year.brackets, b.from), b.baseTax.toFixed(2));
});

test('the thresholds are where the tax meets the rebates', () => {
  // 99 000 × 18% = 17 820 (primary); 153 250 × 18% = 27 585 (+ 9 765); 171 300 × 18% = 30 834 (+ 3 249)
  eq(annualTax(Y2027, 99000, 40), '0.00');
  eq(annualTax(Y2027, 99001, 40), '0.18');
  eq(annualTax(Y2027, 153250, 65), '0.00');
  eq(annualTax(Y2027, 171300, 75), '0.00');
  eq(rebatesFor(Y2027, 64), '17820.00');
  eq(rebatesFor(Y2027, 65), '27585.00');
  eq(rebatesFor(Y2027, 75), '30834.00');
});

test('an income in each bracket of 2026/27, under 65', () => {
  // 180 000 × 18% = 32 400 − 17 820 = 14 580
  eq(annualTax(Y2027, 180000, 40), '14580.00');
  // 44 118 + 26% × 54 900 (14 274) = 58 392 − 17 820 = 40 572
  eq(annualTax(Y2027, 300000, 40), '40572.00');
  // 79 998 + 31% × 96 900 (30 039) = 110 037 − 17 820 = 92 217
  eq(annualTax(Y2027, 480000, 40), '92217.00');
  // 125 599 + 36% × 69 800 (25 128) = 150 727 − 17 820 = 132 907
  eq(annualTax(Y2027, 600000, 40), '132907.00');
  // 185 215 + 39% × 84 200 (32 838) = 218 053 − 17 820 = 200 233
  eq(annualTax(Y2027, 780000, 40), '200233.00');
  // 259 783 + 41% × 313 000 (128 330) = 388 113 − 17 820 = 370 293
  eq(annualTax(Y2027, 1200000, 40), '370293.00');
  // 666 339 + 45% × 521 400 (234 630) = 900 969 − 17 820 = 883 149
  eq(annualTax(Y2027, 2400000, 40), '883149.00');
  // below the threshold: 96 000 × 18% = 17 280 < 17 820 → 0, never negative
  eq(annualTax(Y2027, 96000, 40), '0.00');
});

test('age is taken on the last day of the tax year (28 February 2027)', () => {
  assert.equal(ageOn('1961-12-01', '2026-03-31'), 64);
  // turns 65 in December 2026: 65 on 28 February 2027, so the secondary rebate from March 2026
  assert.equal(ageAtYearEnd(Y2027, '1961-12-01'), 65);
  // turns 65 on 1 March 2027, the next tax year's first day: 64 for all of 2026/27
  assert.equal(ageAtYearEnd(Y2027, '1962-03-01'), 64);
  // a birthday on the last day counts
  assert.equal(ageAtYearEnd(Y2027, '1952-02-28'), 75);
  // born on 29 February: 28 February 2027 is before the birthday (none that year) → still 74
  assert.equal(ageAtYearEnd(Y2027, '1952-02-29'), 74);
});
