// PAYE a period, worked by hand from SARS's 2026/27 tables (2027 tax year) and 2025/26 for the
// boundary. Cross-check: SARS's monthly tax deduction tables for the 2027 tax year were not found
// through the search available here, so no figure below is copied from them; each is worked from
// the brackets and rebates, whose internal consistency tax.test.ts proves (every base tax
// re-derived from the bands below it, every threshold = the rebates ÷ 18%).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { medicalCreditMonthly, paye } from './paye.ts';
import { Y2026, Y2027 } from './test-tables.ts';

const eq = (actual: { toFixed(n: number): string }, expected: string) =>
  assert.equal(actual.toFixed(2), expected);
const monthly = (regular: number, extra: Partial<Parameters<typeof paye>[1]> = {}) =>
  paye(Y2027, { frequency: 'monthly', regular, age: 40, ...extra });

test('a monthly salary in each bracket of 2026/27 (annual tax in tax.test.ts ÷ 12)', () => {
  eq(monthly(20000).paye, '2115.00'); // 240 000: 43 200 − 17 820 = 25 380 ÷ 12
  eq(monthly(15000).paye, '1215.00'); // 180 000: 14 580 ÷ 12
  eq(monthly(25000).paye, '3381.00'); // 300 000: 40 572 ÷ 12
  eq(monthly(40000).paye, '7684.75'); // 480 000: 92 217 ÷ 12
  eq(monthly(50000).paye, '11075.58'); // 600 000: 132 907 ÷ 12 = 11 075.583… → 11 075.58
  eq(monthly(65000).paye, '16686.08'); // 780 000: 200 233 ÷ 12 = 16 686.083… → 16 686.08
  eq(monthly(100000).paye, '30857.75'); // 1 200 000: 370 293 ÷ 12
  eq(monthly(200000).paye, '73595.75'); // 2 400 000: 883 149 ÷ 12
  eq(monthly(8000).paye, '0.00'); // 96 000: below the R99 000 threshold
});

test('an employee aged 65 and one aged 75 (at 28 February 2027)', () => {
  // R25 000: 58 392 − (17 820 + 9 765) = 30 807 ÷ 12 = 2 567.25
  eq(monthly(25000, { age: 65 }).paye, '2567.25');
  // R25 000: 58 392 − (17 820 + 9 765 + 3 249) = 27 558 ÷ 12 = 2 296.50
  eq(monthly(25000, { age: 75 }).paye, '2296.50');
  // R12 000 at 65: 144 000 < 153 250 → 0
  eq(monthly(12000, { age: 65 }).paye, '0.00');
});

test('medical credits: the member and 3 dependants', () => {
  // 376 (member) + 376 (first dependant) + 2 × 254 = 1 260 a month
  eq(medicalCreditMonthly(Y2027, { member: true, dependants: 3 }), '1260.00');
  eq(medicalCreditMonthly(Y2027, { member: true, dependants: 0 }), '376.00');
  eq(medicalCreditMonthly(Y2027, { member: false, dependants: 3 }), '0.00');
  // R40 000: 7 684.75 − 1 260 = 6 424.75
  const r = monthly(40000, { medical: { member: true, dependants: 3 } });
  eq(r.paye, '6424.75');
  eq(r.medicalCredit, '1260.00');
  // R12 000: 144 000 × 18% = 25 920 − 17 820 = 8 100 ÷ 12 = 675 < 1 260: the credit stops at 675, PAYE 0
  const low = monthly(12000, { medical: { member: true, dependants: 3 } });
  eq(low.paye, '0.00');
  eq(low.medicalCredit, '675.00');
  // fortnightly: 1 260 × 12 ÷ 26 = 581.538…; R20 000 a fortnight → 520 000:
  // 79 998 + 31% × 136 900 (42 439) = 122 437 − 17 820 = 104 617 ÷ 26 = 4 023.730… − 581.538… = 3 442.19
  eq(
    paye(Y2027, {
      frequency: 'fortnightly',
      regular: 20000,
      age: 40,
      medical: { member: true, dependants: 3 },
    }).paye,
    '3442.19',
  );
});

test('a bonus month: the difference method, all in the month', () => {
  // regular R25 000 → 300 000: 40 572 a year, 3 381.00 a month
  // with the R30 000 bonus: 330 000 → 44 118 + 26% × 84 900 (22 074) = 66 192 − 17 820 = 48 372
  // the bonus's tax: 48 372 − 40 572 = 7 800 (= 30 000 × 26%, all in the 26% band)
  const r = monthly(25000, { annualPayments: 30000 });
  eq(r.taxOnRegular, '3381.00');
  eq(r.taxOnAnnualPayments, '7800.00');
  eq(r.paye, '11181.00'); // 3 381 + 7 800
  // a bonus crossing a bracket: R30 000 a month (360 000: 44 118 + 26% × 114 900 = 73 992 − 17 820 = 56 172)
  // + R50 000 → 410 000: 79 998 + 31% × 26 900 (8 339) = 88 337 − 17 820 = 70 517; bonus tax 14 345
  // (= 23 100 × 26% + 26 900 × 31% = 6 006 + 8 339); month 56 172 ÷ 12 = 4 681 + 14 345 = 19 026.00
  eq(monthly(30000, { annualPayments: 50000 }).paye, '19026.00');
});

test('retirement fund contributions: 27.5% of remuneration, capped at R430 000 a year', () => {
  // R50 000 with R5 000 contributed: 60 000 a year < 27.5% × 600 000 (165 000) → all deductible;
  // 540 000: 125 599 + 36% × 9 800 (3 528) = 129 127 − 17 820 = 111 307 ÷ 12 = 9 275.583… → 9 275.58
  const r = monthly(50000, { retirementContributions: 5000 });
  eq(r.retirementDeduction, '60000.00');
  eq(r.paye, '9275.58');
  // R200 000 with R40 000: 480 000 a year; 27.5% × 2 400 000 = 660 000; the cap 430 000 binds;
  // 1 970 000: 666 339 + 45% × 91 400 (41 130) = 707 469 − 17 820 = 689 649 ÷ 12 = 57 470.75
  const capped = monthly(200000, { retirementContributions: 40000 });
  eq(capped.retirementDeduction, '430000.00');
  eq(capped.paye, '57470.75');
  // the 27.5% binds: R10 000 with R4 000 → 48 000 a year > 27.5% × 120 000 = 33 000;
  // 87 000 × 18% = 15 660 < 17 820 → 0
  eq(monthly(10000, { retirementContributions: 4000 }).retirementDeduction, '33000.00');
});

test('a mid-month starter: the part of the month grossed up to its annual equivalent', () => {
  // R27 000 a month, starting 19 June 2026: 12 of June's 30 days, fraction 0.4, paid R10 800.00
  // (prorata.test.ts). Annual equivalent 10 800 × 12 ÷ 0.4 = 324 000:
  // 44 118 + 26% × 78 900 (20 514) = 64 632 − 17 820 = 46 812; the month's share × 0.4 ÷ 12 = 1 560.40
  const r = monthly(10800, { periodFraction: 0.4 });
  eq(r.annualEquivalent, '324000.00');
  eq(r.paye, '1560.40');
  // not the naive 10 800 × 12 = 129 600: 23 328 − 17 820 = 5 508 ÷ 12 = 459.00 (under-deducted)
  eq(monthly(10800).paye, '459.00');
  assert.throws(() => monthly(10800, { periodFraction: 0 }), RangeError);
});

test('February 2026 (2025/26) against March 2026 (2026/27): the same R25 000', () => {
  // 2025/26: 42 678 + 26% × 62 900 (16 354) = 59 032 − 17 235 = 41 797 ÷ 12 = 3 483.083… → 3 483.08
  eq(paye(Y2026, { frequency: 'monthly', regular: 25000, age: 40 }).paye, '3483.08');
  // 2026/27: 3 381.00 (above): R102.08 less
  eq(monthly(25000).paye, '3381.00');
});

test('weekly: annualised by 52', () => {
  // R5 000 a week → 260 000: 44 118 + 26% × 14 900 (3 874) = 47 992 − 17 820 = 30 172 ÷ 52 = 580.230… → 580.23
  eq(paye(Y2027, { frequency: 'weekly', regular: 5000, age: 40 }).paye, '580.23');
});
