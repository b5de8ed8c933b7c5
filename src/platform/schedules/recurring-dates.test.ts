// Run dates of a recurring schedule: each frequency, intervals, and the month-end rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addMonths, runAfter, runDate, runOnOrAfter, type Series } from './recurring-dates.ts';

const series = (anchor: string, frequency: Series['frequency'], interval = 1): Series => ({
  anchor,
  frequency,
  interval,
});
const first = (s: Series, n: number) => Array.from({ length: n }, (_, k) => runDate(s, k));

describe('run dates', () => {
  test('weekly, fortnightly, monthly, quarterly, yearly', () => {
    assert.deepEqual(first(series('2026-01-05', 'weekly'), 3), ['2026-01-05', '2026-01-12', '2026-01-19']);
    assert.deepEqual(first(series('2026-12-24', 'fortnightly'), 3), [
      '2026-12-24',
      '2027-01-07',
      '2027-01-21',
    ]);
    assert.deepEqual(first(series('2026-01-01', 'monthly'), 4), [
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
    ]);
    assert.deepEqual(first(series('2026-11-15', 'quarterly'), 3), ['2026-11-15', '2027-02-15', '2027-05-15']);
    assert.deepEqual(first(series('2026-03-01', 'yearly'), 2), ['2026-03-01', '2027-03-01']);
  });

  test('an interval multiplies the step: every 2 months, every 3 weeks', () => {
    assert.deepEqual(first(series('2026-01-10', 'monthly', 2), 3), [
      '2026-01-10',
      '2026-03-10',
      '2026-05-10',
    ]);
    assert.deepEqual(first(series('2026-01-01', 'weekly', 3), 2), ['2026-01-01', '2026-01-22']);
  });

  test('the 31st: the last day of shorter months, and the 31st again when the month has it', () => {
    assert.deepEqual(first(series('2026-01-31', 'monthly'), 6), [
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
    ]);
    // A leap year's February has the 29th.
    assert.equal(runDate(series('2028-01-31', 'monthly'), 1), '2028-02-29');
    assert.equal(runDate(series('2026-01-30', 'monthly'), 1), '2026-02-28');
    assert.equal(runDate(series('2026-01-30', 'monthly'), 2), '2026-03-30');
    // 29 February yearly: the 28th in common years, the 29th in leap years.
    assert.deepEqual(first(series('2028-02-29', 'yearly'), 5), [
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
    assert.deepEqual(first(series('2026-08-31', 'quarterly'), 3), ['2026-08-31', '2026-11-30', '2027-02-28']);
  });

  test('addMonths crosses years both ways', () => {
    assert.equal(addMonths('2026-12-31', 2), '2027-02-28');
    assert.equal(addMonths('2026-03-31', -1), '2026-02-28');
    assert.equal(addMonths('2026-01-15', -13), '2024-12-15');
  });

  test('the run after a day, and on or after it', () => {
    const s = series('2026-01-31', 'monthly');
    assert.equal(runAfter(s, '2026-01-31'), '2026-02-28');
    assert.equal(runAfter(s, '2026-02-28'), '2026-03-31');
    assert.equal(runAfter(s, '2026-03-01'), '2026-03-31');
    assert.equal(runAfter(s, '2025-06-01'), '2026-01-31', 'before the anchor: the anchor');
    assert.equal(runOnOrAfter(s, '2026-04-30'), '2026-04-30');
    assert.equal(runOnOrAfter(s, '2026-05-01'), '2026-05-31');
    assert.equal(runAfter(s, '2036-02-27'), '2036-02-29');
    const w = series('2026-01-05', 'fortnightly');
    assert.equal(runAfter(w, '2026-01-05'), '2026-01-19');
    assert.equal(runOnOrAfter(w, '2026-03-02'), '2026-03-02');
    assert.equal(runOnOrAfter(w, '2026-03-03'), '2026-03-16');
  });

  test('every run date after a day is the next of the series (checked over ten years)', () => {
    for (const s of [series('2026-01-31', 'monthly'), series('2026-05-30', 'quarterly', 2)]) {
      const dates = first(s, 60);
      for (let i = 0; i < dates.length - 1; i++) {
        assert.equal(runAfter(s, dates[i]!), dates[i + 1]);
        assert.equal(runOnOrAfter(s, dates[i + 1]!), dates[i + 1]);
      }
    }
  });
});
