// Leave accrual over a year, worked by hand. The employee starts on Sunday 1 March 2026 and
// works a five-day week (Monday to Friday).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cycleOf, type EmployeeTerms, entitlement } from './leave.accrual.ts';
import { addMonths, workingDays } from './leave.days.ts';

const e: EmployeeTerms = { startDate: '2026-03-01', endDate: null, daysPerWeek: '5' };
const fig = (type: Parameters<typeof entitlement>[0], asOf: string, who = e) => {
  const r = entitlement(type, who, asOf);
  return [r.entitled?.toFixed(2) ?? null, r.cycleStart, r.cycleEnd];
};

describe('cycles and months', () => {
  test('months keep the day or take the month’s last', () => {
    assert.equal(addMonths('2026-01-31', 1), '2026-02-28');
    assert.equal(addMonths('2028-02-29', 12), '2029-02-28');
    assert.equal(addMonths('2026-11-15', 3), '2027-02-15');
  });
  test('the cycle holding a date', () => {
    assert.deepEqual(cycleOf('2026-03-01', 12, '2026-03-01'), { start: '2026-03-01', end: '2027-02-28' });
    assert.deepEqual(cycleOf('2026-03-01', 12, '2027-02-28'), { start: '2026-03-01', end: '2027-02-28' });
    assert.deepEqual(cycleOf('2026-03-01', 12, '2027-03-01'), { start: '2027-03-01', end: '2028-02-29' });
    assert.deepEqual(cycleOf('2026-03-01', 36, '2030-01-10'), { start: '2029-03-01', end: '2032-02-29' });
  });
});

describe('annual leave: 15 days a cycle on five days a week, pro rata by days employed', () => {
  test('over the first year and into the second', () => {
    // Cycle 1 March 2026 – 28 February 2027: 365 days. By 1 September 2026 employed
    // 31 (Mar) + 30 + 31 + 30 + 31 + 31 (Aug) + 1 = 185 days: 15 × 185 / 365 = 7.6027… → 7.60.
    assert.deepEqual(fig('annual', '2026-09-01'), ['7.60', '2026-03-01', '2027-02-28']);
    // First day: 15 × 1 / 365 = 0.0410… → 0.04.
    assert.deepEqual(fig('annual', '2026-03-01'), ['0.04', '2026-03-01', '2027-02-28']);
    // Last day of the cycle: all 15.
    assert.deepEqual(fig('annual', '2027-02-28'), ['15.00', '2026-03-01', '2027-02-28']);
    // 1 March 2027 opens the second cycle (366 days, to 29 Feb 2028): 15 × 1 / 366 = 0.0409… → 0.04.
    assert.deepEqual(fig('annual', '2027-03-01'), ['0.04', '2027-03-01', '2028-02-29']);
  });
  test('a six-day week: 18 days; employment ended mid-cycle stops accruing', () => {
    // 6 × 3 = 18 for the whole cycle.
    assert.deepEqual(fig('annual', '2027-02-28', { ...e, daysPerWeek: '6' }), [
      '18.00',
      '2026-03-01',
      '2027-02-28',
    ]);
    // Ended 31 May 2026: 31 + 30 + 31 = 92 days employed: 15 × 92 / 365 = 3.7808… → 3.78.
    assert.deepEqual(fig('annual', '2026-12-01', { ...e, endDate: '2026-05-31' }), [
      '3.78',
      '2026-03-01',
      '2027-02-28',
    ]);
  });
});

describe('sick leave: 1 day per 26 worked in the first six months, then 30 a 36-month cycle', () => {
  test('working days counted by hand', () => {
    // March 2026 (1st a Sunday): weekdays 2–6, 9–13, 16–20, 23–27, 30–31 = 22; 21 March
    // (Human Rights Day) is a Saturday, so no weekday is lost.
    assert.equal(workingDays('2026-03-01', '2026-03-31', 5), 22);
    // April 2026: weekdays 1–3, 6–10, 13–17, 20–24, 27–30 = 22, less Good Friday (3rd),
    // Family Day (6th) and Freedom Day (27th) = 19.
    assert.equal(workingDays('2026-04-01', '2026-04-30', 5), 19);
  });
  test('the working week by days_per_week', () => {
    // Sat 12 – Fri 18 Dec 2026, Day of Reconciliation Wed 16: five days Mon–Fri less the 16th = 4;
    // six days adds Saturday 12 = 5; seven adds Sunday 13 = 6; 4.5 days is taken as Mon–Fri = 4.
    assert.equal(workingDays('2026-12-12', '2026-12-18', 5), 4);
    assert.equal(workingDays('2026-12-12', '2026-12-18', 6), 5);
    assert.equal(workingDays('2026-12-12', '2026-12-18', 7), 6);
    assert.equal(workingDays('2026-12-12', '2026-12-18', 4.5), 4);
  });
  test('over the first year', () => {
    // To 30 April: 22 + 19 = 41 worked → floor(41 / 26) = 1.
    assert.deepEqual(fig('sick', '2026-04-30'), ['1.00', '2026-03-01', '2029-02-28']);
    // To 25 March: 2–6, 9–13, 16–20, 23–25 = 18 worked → 0.
    assert.deepEqual(fig('sick', '2026-03-25'), ['0.00', '2026-03-01', '2029-02-28']);
    // To 31 August (still the first six months): May 21 weekdays less Workers' Day (Fri 1st)
    // = 20; June 22 less Youth Day (Tue 16th) = 21; July 23; August 21 less Women's Day
    // observed (Mon 10th) = 20. 41 + 20 + 21 + 23 + 20 = 125 → floor(125 / 26) = 4.
    assert.deepEqual(fig('sick', '2026-08-31'), ['4.00', '2026-03-01', '2029-02-28']);
    // 1 September 2026: six months done → 5 × 6 = 30 for the cycle.
    assert.deepEqual(fig('sick', '2026-09-01'), ['30.00', '2026-03-01', '2029-02-28']);
    assert.deepEqual(fig('sick', '2027-03-01'), ['30.00', '2026-03-01', '2029-02-28']);
  });
});

describe('family responsibility: 3 days a year after four months, on four days a week or more', () => {
  test('before and after four months', () => {
    assert.deepEqual(fig('family_responsibility', '2026-06-30'), ['0.00', '2026-03-01', '2027-02-28']);
    assert.deepEqual(fig('family_responsibility', '2026-07-01'), ['3.00', '2026-03-01', '2027-02-28']);
    assert.deepEqual(fig('family_responsibility', '2027-03-01'), ['3.00', '2027-03-01', '2028-02-29']);
    // Three days a week: never.
    assert.deepEqual(fig('family_responsibility', '2027-01-01', { ...e, daysPerWeek: '3' }), [
      '0.00',
      '2026-03-01',
      '2027-02-28',
    ]);
  });
  test('parental and unpaid keep no entitlement: the employment is their cycle', () => {
    assert.deepEqual(fig('parental', '2026-09-01'), [null, '2026-03-01', null]);
    assert.deepEqual(fig('unpaid', '2026-09-01'), [null, '2026-03-01', null]);
  });
});
