// Pay for part of a period, by calendar days or working days, worked by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { periodFraction, proRata } from './prorata.ts';

const june = { start: '2026-06-01', end: '2026-06-30' };
const eq = (actual: { toFixed(n: number): string }, expected: string) =>
  assert.equal(actual.toFixed(2), expected);

test('a mid-month starter by calendar days', () => {
  // starts Friday 19 June 2026: the 19th to the 30th, 12 of 30 days = 0.4; R27 000 × 0.4 = R10 800.00
  assert.equal(periodFraction(june, '2026-06-19').toString(), '0.4');
  eq(proRata(27000, june, '2026-06-19'), '10800.00');
  // starting on the 1st (or before): the whole month
  eq(proRata(27000, june, '2026-06-01'), '27000.00');
  eq(proRata(27000, june, '2025-01-10'), '27000.00');
  // leaving on 10 June: 10 of 30 days = R9 000.00
  eq(proRata(27000, june, '2025-01-10', '2026-06-10'), '9000.00');
  // not employed in the period at all
  eq(proRata(27000, june, '2026-07-01'), '0.00');
});

test('a mid-month starter by working days (Monday to Friday)', () => {
  // June 2026 starts on a Monday: 22 working days (1–5, 8–12, 15–19, 22–26, 29–30); from Friday
  // the 19th: the 19th, 22–26 and 29–30 = 8; R27 000 × 8 ÷ 22 = 9 818.1818… → R9 818.18
  eq(proRata(27000, june, '2026-06-19', null, 'working'), '9818.18');
  // starting on Saturday the 20th: 7 of 22 → 27 000 × 7 ÷ 22 = 8 590.909… → R8 590.91
  eq(proRata(27000, june, '2026-06-20', null, 'working'), '8590.91');
  // a six-day week (Monday to Saturday): 26 days in June, from the 19th: 19, 20, 22–27, 29, 30 = 10;
  // 27 000 × 10 ÷ 26 = 10 384.615… → R10 384.62
  eq(proRata(27000, june, '2026-06-19', null, 'working', [1, 2, 3, 4, 5, 6]), '10384.62');
});
