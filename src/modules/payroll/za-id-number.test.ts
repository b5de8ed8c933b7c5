// South African ID numbers, each check worked by hand below. Luhn: the digits in odd positions
// (1st, 3rd, ... 11th) are added as they are; those in even positions (2nd ... 12th) doubled,
// a result above 9 taken as its digits' sum; the 13th is (10 - sum mod 10) mod 10.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkZaIdNumber } from './za-id-number.ts';

const TODAY = '2026-11-27';

describe('checkZaIdNumber', () => {
  test('8001015009087: 1 January 1980, valid', () => {
    // odd: 8+0+0+5+0+0 = 13; even doubled: 0,2,2,0,18→9,16→7 = 20; 33 → (10-3) = 7 ✓
    assert.deepEqual(checkZaIdNumber('8001015009087', TODAY), { ok: true, dateOfBirth: '1980-01-01' });
  });

  test('2501010000086: 2025 (not after today), valid', () => {
    // odd: 2+0+0+0+0+0 = 2; even doubled: 5→10→1, 2, 2, 0, 0, 8→16→7 = 12; 14 → 6 ✓
    assert.deepEqual(checkZaIdNumber('2501010000086', TODAY), { ok: true, dateOfBirth: '2025-01-01' });
  });

  test('2701015000087: 2027 would be after today, so 1927', () => {
    // odd: 2+0+0+5+0+0 = 7; even doubled: 7→14→5, 2, 2, 0, 0, 7 = 16; 23 → 7 ✓
    assert.deepEqual(checkZaIdNumber('2701015000087', TODAY), { ok: true, dateOfBirth: '1927-01-01' });
    // Seen from 2027-06-01 the same number is a child born in 2027.
    assert.deepEqual(checkZaIdNumber('2701015000087', '2027-06-01'), {
      ok: true,
      dateOfBirth: '2027-01-01',
    });
  });

  test('0002295000083: 29 February 2000 (a leap year), valid', () => {
    // odd: 0+0+2+5+0+0 = 7; even doubled: 0, 4, 18→9, 0, 0, 7 = 20; 27 → 3 ✓
    assert.deepEqual(checkZaIdNumber('0002295000083', TODAY), { ok: true, dateOfBirth: '2000-02-29' });
  });

  test('a wrong check digit: 8001015009088 (should end in 7)', () => {
    const r = checkZaIdNumber('8001015009088', TODAY);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /check digit/);
  });

  test('one digit changed: 8001015009187 (sum moves, check no longer matches)', () => {
    // the 11th digit 0 → 1: odd sum 14, even 20, 34 → check 6, not 7
    assert.equal(checkZaIdNumber('8001015009187', TODAY).ok, false);
  });

  test('not a date (check digits right): 30 February, month 13, day 00', () => {
    for (const id of ['8002305009084', '8013015009082', '8001005009089']) {
      const r = checkZaIdNumber(id, TODAY);
      assert.equal(r.ok, false, id);
      assert.match((r as { reason: string }).reason, /date of birth/, id);
    }
  });

  test('29 February of a year that is leap in neither century: 2502290000085', () => {
    // 2025 and 1925 are both common years
    const r = checkZaIdNumber('2502290000085', TODAY);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /date of birth/);
  });

  test('a citizenship digit other than 0, 1, 2', () => {
    const r = checkZaIdNumber('8001015009384', TODAY);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /citizenship/);
  });

  test('not 13 digits', () => {
    for (const id of ['800101500908', '80010150090871', '80010150090a7', '']) {
      assert.deepEqual(checkZaIdNumber(id, TODAY), { ok: false, reason: 'must be 13 digits' }, id);
    }
  });
});
