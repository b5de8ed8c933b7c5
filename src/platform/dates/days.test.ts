import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HttpError } from '../http/problem.ts';
import {
  addDays,
  calendarDay,
  financialYearEnd,
  financialYearStart,
  isCalendarDay,
  isMonthEnd,
  isMonthStart,
  monthStart,
  nextMonthStart,
} from './days.ts';

describe('calendar days', () => {
  test('real days only', () => {
    for (const d of ['2026-02-28', '2024-02-29', '2000-02-29', '2026-12-31']) assert.ok(isCalendarDay(d), d);
    for (const d of [
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '20260101',
      '',
      '0000-01-01',
    ])
      assert.ok(!isCalendarDay(d), d);
    assert.throws(
      () => calendarDay('2026-02-30', 'asOf'),
      (e: unknown) => e instanceof HttpError && e.status === 400 && e.extensions.field === 'asOf',
    );
  });

  test('days and months', () => {
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(addDays('2024-12-31', 1), '2025-01-01');
    assert.equal(monthStart('2026-04-17'), '2026-04-01');
    assert.equal(nextMonthStart('2026-12-05'), '2027-01-01');
    assert.ok(isMonthStart('2026-04-01') && !isMonthStart('2026-04-02'));
    assert.ok(isMonthEnd('2024-02-29') && !isMonthEnd('2024-02-28') && isMonthEnd('2026-12-31'));
  });

  test('the financial year containing a day', () => {
    // February year end, as most South African companies.
    assert.equal(financialYearStart('2026-02-28', 2), '2025-03-01');
    assert.equal(financialYearStart('2026-03-01', 2), '2026-03-01');
    assert.equal(financialYearEnd('2026-03-01', 2), '2027-02-28');
    assert.equal(financialYearEnd('2027-06-01', 2), '2028-02-29');
    // Calendar year, and June.
    assert.equal(financialYearStart('2026-01-01', 12), '2026-01-01');
    assert.equal(financialYearStart('2026-12-31', 12), '2026-01-01');
    assert.equal(financialYearEnd('2026-07-01', 12), '2026-12-31');
    assert.equal(financialYearStart('2026-06-30', 6), '2025-07-01');
    assert.equal(financialYearStart('2026-07-01', 6), '2026-07-01');
    assert.equal(financialYearStart('2026-01-31', 1), '2025-02-01');
  });
});
