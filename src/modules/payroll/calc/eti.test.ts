// The ETI a month, each band in the first and second twelve months, worked by hand from the
// amounts in force from 1 April 2025 (R2 500 / R5 500 / R7 500) and, for March 2025, the earlier
// ones (R2 000 / R4 500 / R6 500); the wage test of s4(1) by the minimum wage an hour, and the
// part-time rule of s7(5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { money } from '../../../platform/money/money.ts';
import { type EtiInput, eti, etiMonth } from './eti.ts';
import { ETI_2022, ETI_2025 } from './test-tables.ts';

// born 10 May 2002: 24 in June 2026. ETI start 15 January 2026: June 2026 is month 6 (first
// twelve); starting 1 June 2025 makes June 2026 month 13 (the second twelve).
const base = { dateOfBirth: '2002-05-10', etiStartDate: '2026-01-15', monthEnd: '2026-06-30' };
const second = { ...base, etiStartDate: '2025-06-01' };
const amount = (input: Partial<EtiInput> & { remuneration: number }, rules = ETI_2025) =>
  eti(rules, { ...base, ...input }).amount.toFixed(2);

test('the month of the 24, counted in calendar months from the ETI start', () => {
  assert.equal(etiMonth('2026-01-15', '2026-06-30'), 6);
  assert.equal(etiMonth('2025-06-01', '2026-06-30'), 13);
  assert.equal(eti(ETI_2025, { ...base, remuneration: 4000 }).period, 'first');
  assert.equal(eti(ETI_2025, { ...second, remuneration: 4000 }).period, 'second');
  // counted by qualifying months instead: 11 before → month 12, still the first twelve
  const counted = eti(ETI_2025, { ...second, remuneration: 4000, qualifyingMonthsBefore: 11 });
  assert.equal(counted.month, 12);
  assert.equal(counted.amount.toFixed(2), '1500.00');
});

test('under R2 500: 60% / 30% of remuneration (a wage-regulating measure of R2 000 for 160 hours)', () => {
  // R2 200 ≥ the measure's R2 000: 60% × 2 200 = 1 320.00; second twelve 30% × 2 200 = 660.00
  assert.equal(amount({ remuneration: 2200, minimumWage: 2000 }), '1320.00');
  assert.equal(amount({ ...second, remuneration: 2200, minimumWage: 2000 }), '660.00');
  // without a measure the R2 500 floor applies: R2 200 for a full month is below it → none
  const r = eti(ETI_2025, { ...base, remuneration: 2200 });
  assert.equal(r.reason, 'below_minimum_wage');
  assert.equal(r.amount.toFixed(2), '0.00');
});

test('R2 500 to R5 499.99: R1 500 / R750', () => {
  assert.equal(amount({ remuneration: 2500 }), '1500.00');
  assert.equal(amount({ remuneration: 4000 }), '1500.00');
  assert.equal(amount({ remuneration: 5499.99 }), '1500.00');
  assert.equal(amount({ ...second, remuneration: 4000 }), '750.00');
});

test('R5 500 to R7 499.99: the taper', () => {
  // first: 1 500 − 75% × (6 500 − 5 500) = 1 500 − 750 = 750.00; second: 750 − 37.5% × 1 000 = 375.00
  assert.equal(amount({ remuneration: 6500 }), '750.00');
  assert.equal(amount({ ...second, remuneration: 6500 }), '375.00');
  // R7 000: 1 500 − 75% × 1 500 = 375.00; 750 − 37.5% × 1 500 = 187.50
  assert.equal(amount({ remuneration: 7000 }), '375.00');
  assert.equal(amount({ ...second, remuneration: 7000 }), '187.50');
  // R7 499.99: 1 500 − 0.75 × 1 999.99 = 0.0075 → 0.01
  assert.equal(amount({ remuneration: 7499.99 }), '0.01');
});

test('fewer than 160 hours: grossed up for the band, grossed down by the same ratio', () => {
  // 80 hours at R1 500: × 160 ÷ 80 = R3 000 (≥ the R2 500 floor, band 2) → 1 500 × 80 ÷ 160 = 750.00
  assert.equal(amount({ remuneration: 1500, hours: 80 }), '750.00');
  // 80 hours at R1 200: grossed R2 400 < R2 500 (pro rata R1 250 for 80 hours) → below the minimum wage
  assert.equal(eti(ETI_2025, { ...base, remuneration: 1200, hours: 80 }).reason, 'below_minimum_wage');
  // 120 hours at R4 500: grossed 6 000 → 1 500 − 0.75 × 500 = 1 125 × 120 ÷ 160 = 843.75
  assert.equal(amount({ remuneration: 4500, hours: 120 }), '843.75');
  // 80 hours at R3 900: grossed R7 800 ≥ R7 500 → none
  assert.equal(eti(ETI_2025, { ...base, remuneration: 3900, hours: 80 }).reason, 'remuneration_too_high');
});

test('none outside the rules, naming the rule that stops it', () => {
  const why = (input: Partial<EtiInput>) => eti(ETI_2025, { ...base, remuneration: 4000, ...input }).reason;
  assert.equal(why({ remuneration: 7500 }), 'remuneration_too_high'); // at R7 500: no longer under it
  assert.equal(why({ dateOfBirth: '1996-06-15' }), 'age'); // turns 30 on 15 June 2026: 30 at the month's end
  assert.equal(why({ dateOfBirth: '1996-07-01' }), null); // still 29 on 30 June 2026
  assert.equal(why({ dateOfBirth: '2008-07-01' }), 'age'); // 17 on 30 June 2026
  assert.equal(why({ etiStartDate: '2024-06-01' }), 'months_used'); // June 2026 is month 25
  assert.equal(why({ etiStartDate: '2026-07-01' }), 'not_started');
  assert.equal(eti(null, { ...base, remuneration: 4000 }).reason, 'no_rules');
  // after the scheme's end (28 February 2029) the rules no longer apply
  assert.equal(
    why({ monthEnd: '2029-03-31', etiStartDate: '2028-01-01', dateOfBirth: '2005-01-01' }),
    'no_rules',
  );
});

test('March 2025: the earlier amounts (R2 000 / R4 500 / R6 500)', () => {
  const march = { dateOfBirth: '2002-05-10', etiStartDate: '2025-01-01', monthEnd: '2025-03-31' };
  // R5 000: 1 500 − 75% × (5 000 − 4 500) = 1 125.00 (from April 2025 it is R1 500)
  assert.equal(amount({ ...march, remuneration: 5000 }, ETI_2022), '1125.00');
  // R1 900 with a wage-regulating measure of R1 800: 75% × 1 900 = 1 425.00
  assert.equal(amount({ ...march, remuneration: 1900, minimumWage: 1800 }, ETI_2022), '1425.00');
  // R6 500 was the limit then: none
  assert.equal(eti(ETI_2022, { ...march, remuneration: 6500 }).reason, 'remuneration_too_high');
});

test('the wage test: the higher of the NMW and a measure an hour, for the ordinary hours (s4(1))', () => {
  // 40 hours a week: 40 × 52 ÷ 12 = 520/3 = 173.33… hours in a month.
  const month = money(520).dividedBy(3);
  const full = { remuneration: 5000, wage: 5000, hours: month, ordinaryHours: month };
  // NMW R30.23 (from 1 March 2026): 30.23 × 520/3 = 15 719.60 ÷ 3 = 5 239.866… > R5 000 → none.
  const below = eti(ETI_2025, { ...base, ...full, hourlyMinimum: 30.23 });
  assert.equal(below.reason, 'below_minimum_wage');
  assert.equal(below.wageTest?.minimum.toFixed(2), '5239.87');
  // R5 240.00 reaches it: the R2 500–R5 499.99 band → 1 500.00.
  assert.equal(amount({ ...full, remuneration: 5240, wage: 5240, hourlyMinimum: 30.23 }), '1500.00');
  // A wage-regulating measure of R32.00 an hour binds above the NMW: 32 × 520/3 = 5 546.67 > R5 400.
  assert.equal(
    eti(ETI_2025, { ...base, ...full, remuneration: 5400, wage: 5400, hourlyMinimum: 32 }).reason,
    'below_minimum_wage',
  );
  // Exempt from the NMW (NMW Act s15), no measure: the fixed R2 500 for 160 hours (s4(1)(b)):
  // R3 000 passes → 1 500.00; with a measure of R32 it is still held to 32 × 520/3.
  assert.equal(amount({ ...full, remuneration: 3000, wage: 3000, exemptFromMinimumWage: true }), '1500.00');
  assert.equal(
    eti(ETI_2025, {
      ...base,
      ...full,
      remuneration: 3000,
      wage: 3000,
      hourlyMinimum: 32,
      exemptFromMinimumWage: true,
    }).reason,
    'below_minimum_wage',
  );
  // The fixed floor pro rata: 80 hours, exempt → R2 500 × 80 ÷ 160 = R1 250; R1 200 is below it.
  assert.equal(
    eti(ETI_2025, { ...base, remuneration: 1200, hours: 80, exemptFromMinimumWage: true }).reason,
    'below_minimum_wage',
  );
});

test('a part-timer: the NMW for the contract’s hours, the band grossed up, the incentive scaled (s7(5))', () => {
  // 24 hours a week: 24 × 52 ÷ 12 = 104 hours. NMW 30.23 × 104 = R3 143.92 ≤ R3 250.
  // Grossed up: 3 250 × 160 ÷ 104 = R5 000 → R1 500; × 104 ÷ 160 = 0.65 → 975.00.
  const partTime = { remuneration: 3250, wage: 3250, hours: 104, ordinaryHours: 104, hourlyMinimum: 30.23 };
  assert.equal(amount(partTime), '975.00');
  // R3 100 is below R3 143.92 → none.
  assert.equal(
    eti(ETI_2025, { ...base, ...partTime, remuneration: 3100, wage: 3100 }).reason,
    'below_minimum_wage',
  );
});
