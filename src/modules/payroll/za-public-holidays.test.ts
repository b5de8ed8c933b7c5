// The public holidays of 2026 and 2027, worked by hand from the Public Holidays Act and a
// calendar: Easter 2026 is 5 April (Good Friday 3 April, Family Day 6 April); Easter 2027 is
// 28 March (Good Friday 26 March, Family Day 29 March). Sundays: 9 August 2026 (→ Monday 10),
// 21 March 2027 (→ Monday 22), 26 December 2027 (→ Monday 27). Saturdays are not moved
// (21 March 2026, 26 December 2026, 1 May 2027, 25 December 2027).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { easterSunday, isPublicHoliday, publicHolidays } from './za-public-holidays.ts';

describe('South African public holidays', () => {
  test('Easter Sunday', () => {
    assert.equal(easterSunday(2026), '2026-04-05');
    assert.equal(easterSunday(2027), '2027-03-28');
    assert.equal(easterSunday(2025), '2025-04-20');
  });

  test('2026: twelve named days and Women’s Day observed on Monday 10 August', () => {
    assert.deepEqual(
      [...publicHolidays(2026).keys()],
      [
        '2026-01-01',
        '2026-03-21',
        '2026-04-03',
        '2026-04-06',
        '2026-04-27',
        '2026-05-01',
        '2026-06-16',
        '2026-08-09',
        '2026-08-10',
        '2026-09-24',
        '2026-12-16',
        '2026-12-25',
        '2026-12-26',
      ],
    );
    assert.equal(publicHolidays(2026).get('2026-08-10'), "National Women's Day (observed)");
  });

  test('2027: Human Rights Day and Day of Goodwill on Sundays move to the Monday', () => {
    assert.deepEqual(
      [...publicHolidays(2027).keys()],
      [
        '2027-01-01',
        '2027-03-21',
        '2027-03-22',
        '2027-03-26',
        '2027-03-29',
        '2027-04-27',
        '2027-05-01',
        '2027-06-16',
        '2027-08-09',
        '2027-09-24',
        '2027-12-16',
        '2027-12-25',
        '2027-12-26',
        '2027-12-27',
      ],
    );
    assert.ok(isPublicHoliday('2027-12-27'));
    assert.ok(!isPublicHoliday('2026-12-28')); // 26 December 2026 is a Saturday: not moved
  });

  test('a Sunday holiday whose Monday is already one adds nothing (Christmas 2022 on a Sunday)', () => {
    // 25 Dec 2022 Sunday → Monday 26 is the Day of Goodwill already; 27 Dec 2022 was declared
    // ad hoc by the President, which this list does not know of.
    assert.ok(isPublicHoliday('2022-12-26'));
    assert.ok(!isPublicHoliday('2022-12-27'));
  });
});
