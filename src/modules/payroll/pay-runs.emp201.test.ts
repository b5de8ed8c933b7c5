// The EMP201's ETI larger than the PAYE: rolled over to the next month (Employment Tax Incentive
// Act s9(1)) within the reconciliation period (March–August, September–February: Fourth Schedule
// para 14(3)(a)), claimed from SARS at its end and nil from the next month (s10(1), (3)).
//
// One business, June to September 2026 (tax year 2026/27, research/payroll-za.md):
//   Naledi, born 10 January 2004 (22), R5 400 a month from 1 January 2026, ETI-eligible: months 6–9
//     of her first twelve; R5 400 passes the wage test (the National Minimum Wage R30.23 × 173.33
//     hours = R5 239.87: ETI Act s4(1)) and is in the R2 500–R5 500 band, a fixed R1 500 a month.
//     PAYE: 64 800 a year is under the R99 000 threshold → 0. UIF: 1% of 5 400 = 54.00, each side.
//   Bongani, R40 000 a month, July only (1 to 31 July 2026), aged 41:
//     480 000 a year → 79 998 + 31% × (480 000 − 383 100) = 110 037 − rebate 17 820 = 92 217
//     → PAYE 92 217 ÷ 12 = 7 684.75. UIF: above the R17 712 ceiling → 177.12 each side.
//   SDL: judged for the employer (SDL Act s4(b), pay-runs.sdl.ts), the greater of what it paid in
//     the last twelve months and its contracts for the next twelve: June: paid 5 400; contracts
//     64 800 + Bongani's 480 000 × 31 ÷ 365 days = 105 567.12. July: paid 5 400 + 45 400 =
//     50 800; contracts 64 800 (Bongani has left). August, September: at most 61 600 paid and
//     64 800 contracted. Never over R500 000 → exempt, 0 every month (July alone, annualised,
//     544 800 would have been levied 454.00: a one-month contract is not a R544 800 payroll).
//
//   June: ETI 1 500 available, PAYE 0 → utilised 0, carried forward 1 500; payable = UIF 108.00.
//   July: brought forward 1 500 + ETI 1 500 = 3 000 ≤ PAYE 7 684.75 → utilised 3 000, carried 0;
//         payable = 7 684.75 − 3 000 + UIF (108 + 354.24 = 462.24) + SDL 0 = 5 146.99.
//   August: ETI 1 500, PAYE 0 → carried forward 1 500: the end of the reconciliation period, so
//         it is what the reconciliation claims from SARS; payable 108.00.
//   September: a new reconciliation period: brought forward nil (s10(3)), not August's 1 500;
//         ETI 1 500 carried forward; payable 108.00.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { reconciliationStart } from './pay-runs.emp201.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('the reconciliation period a month is in', () => {
  test('March to August, September to February', () => {
    assert.deepEqual(
      ['2026-03', '2026-08', '2026-09', '2026-12', '2027-01', '2027-02'].map(reconciliationStart),
      ['2026-03', '2026-03', '2026-09', '2026-09', '2026-09', '2026-09'],
    );
  });
});

describe('EMP201: an ETI larger than the PAYE rolls over, within the reconciliation period', () => {
  test('June to September 2026', async () => {
    const c = await register(t.app, { plan: 'professional' });
    const api = as(t.app, c.token, c.companyId);
    const post = async (url: string, payload?: Record<string, unknown>) => {
      const res = await api({ method: 'POST', url, ...(payload ? { payload } : {}) });
      assert.ok(res.statusCode === 200 || res.statusCode === 201, `${url}: ${res.body}`);
      return res.json();
    };
    const employee = {
      passportCountry: 'LS',
      payFrequency: 'monthly',
      payBasis: 'salary',
    };
    await post('/api/employees', {
      ...employee,
      firstName: 'Naledi',
      lastName: 'Khumalo',
      passportNumber: 'PETI2',
      dateOfBirth: '2004-01-10',
      startDate: '2026-01-01',
      rate: 5400,
      etiEligible: true,
    });
    await post('/api/employees', {
      ...employee,
      firstName: 'Bongani',
      lastName: 'Zulu',
      passportNumber: 'PETI3',
      dateOfBirth: '1985-07-15',
      startDate: '2026-07-01',
      endDate: '2026-07-31',
      rate: 40000,
    });
    const month = async (start: string, end: string) => {
      const p = await post('/api/payroll-periods', {
        frequency: 'monthly',
        periodStart: start,
        periodEnd: end,
        payDate: end,
      });
      await post(`/api/payroll-periods/${p.id}/calculate`);
      await post(`/api/payroll-periods/${p.id}/finalise`);
      const emp = await api({ method: 'GET', url: `/api/payroll-periods/${p.id}/emp201` });
      assert.equal(emp.statusCode, 200, emp.body);
      const e = emp.json();
      return [
        e.paye,
        e.eti,
        e.etiBroughtForward,
        e.etiUtilised,
        e.etiCarriedForward,
        e.uif,
        e.sdl,
        e.payable,
      ];
    };
    //  paye, eti, brought forward, utilised, carried forward, uif, sdl, payable
    assert.deepEqual(await month('2026-06-01', '2026-06-30'), [0, 1500, 0, 0, 1500, 108, 0, 108]);
    assert.deepEqual(
      await month('2026-07-01', '2026-07-31'),
      [7684.75, 1500, 1500, 3000, 0, 462.24, 0, 5146.99],
    );
    assert.deepEqual(await month('2026-08-01', '2026-08-31'), [0, 1500, 0, 0, 1500, 108, 0, 108]);
    assert.deepEqual(await month('2026-09-01', '2026-09-30'), [0, 1500, 0, 0, 1500, 108, 0, 108]);
  });
});
