// The SDL exemption judged per employer across its pay runs (issue 34, item 12).
//
// Skills Development Levies Act 9 of 1999: s3 the levy is 1% of the leviable amount (the
// employer's remuneration to all its employees); s4(b) exempts an employer where there are
// reasonable grounds for believing that its leviable amount over the following twelve months will
// not exceed R500 000. It is one employer's total, whatever the frequencies it pays at: a company
// paying R420 000 a year monthly and R260 000 weekly pays R680 000 and is liable, though each run
// alone, annualised, is under R500 000 (which is how it was judged before: no SDL at all).
//
// The test of the next twelve months (docs/decisions.md): the greater of
//   * what the company paid in the twelve months to the period's end, every run, this one in; and
//   * what its employees' contracts pay in the twelve months after it (salary × periods a year,
//     hourly rate × hours a week × 52, the employer's retirement and medical contributions), each
//     for the part of those twelve months they are employed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

let seq = 0;
async function business() {
  const c = await register(t.app, { plan: 'professional' });
  const api = as(t.app, c.token, c.companyId);
  const employee = async (extra: Record<string, unknown>) => {
    const res = await api({
      method: 'POST',
      url: '/api/employees',
      payload: {
        firstName: 'Staff',
        lastName: `Member ${++seq}`,
        passportNumber: `PSDL${seq}`,
        passportCountry: 'ZW',
        dateOfBirth: '1980-06-06',
        startDate: '2025-03-01',
        payBasis: 'salary',
        ...extra,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string };
  };
  const run = async (frequency: string, start: string, end: string, inputs: Record<string, object> = {}) => {
    const p = await api({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: { frequency, periodStart: start, periodEnd: end, payDate: end },
    });
    assert.equal(p.statusCode, 201, p.body);
    for (const [employeeId, payload] of Object.entries(inputs)) {
      const put = await api({
        method: 'PUT',
        url: `/api/payroll-periods/${p.json().id}/inputs/${employeeId}`,
        payload,
      });
      assert.equal(put.statusCode, 200, put.body);
    }
    const calc = await api({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` });
    assert.equal(calc.statusCode, 200, calc.body);
    return calc.json() as { sdl: number; sdlExempt: boolean; sdlLeviableExpected: number };
  };
  return { employee, run };
}

describe('SDL: one employer, every run', () => {
  test('R420 000 monthly and R260 000 weekly: R680 000, over R500 000, both runs levied', async () => {
    const b = await business();
    // Thuli R35 000 a month: 35 000 × 12 = 420 000. Jabu R5 000 a week: 5 000 × 52 = 260 000.
    await b.employee({ firstName: 'Thuli', payFrequency: 'monthly', rate: 35000 });
    await b.employee({ firstName: 'Jabu', payFrequency: 'weekly', rate: 5000 });
    // The weekly run first (no monthly run has been calculated yet): the contracts say
    // 420 000 + 260 000 = 680 000 for the next twelve months > R500 000 → liable:
    // SDL 1% × 5 000 = 50.00 (before: 260 000 alone → exempt, 0).
    const week = await b.run('weekly', '2026-04-06', '2026-04-12');
    assert.deepEqual([week.sdl, week.sdlExempt, week.sdlLeviableExpected], [50, false, 680000]);
    // The monthly run: 1% × 35 000 = 350.00 (before: 420 000 alone → exempt, 0).
    const month = await b.run('monthly', '2026-04-01', '2026-04-30');
    assert.deepEqual([month.sdl, month.sdlExempt, month.sdlLeviableExpected], [350, false, 680000]);
  });

  test('R240 000 monthly and R208 000 weekly: R448 000, at most R500 000, exempt', async () => {
    const b = await business();
    // 20 000 × 12 = 240 000; 4 000 × 52 = 208 000; together 448 000 ≤ 500 000 → exempt, SDL 0.
    await b.employee({ payFrequency: 'monthly', rate: 20000 });
    await b.employee({ payFrequency: 'weekly', rate: 4000 });
    const month = await b.run('monthly', '2026-04-01', '2026-04-30');
    assert.deepEqual([month.sdl, month.sdlExempt, month.sdlLeviableExpected], [0, true, 448000]);
    const week = await b.run('weekly', '2026-04-06', '2026-04-12');
    assert.deepEqual([week.sdl, week.sdlExempt], [0, true]);
  });

  test('what was paid counts too: a commission takes the last twelve months over R500 000', async () => {
    const b = await business();
    // Lwazi R20 000 a month: his contract alone is 240 000 a year.
    const lwazi = await b.employee({ payFrequency: 'monthly', rate: 20000 });
    // April 2026: R490 000 commission → paid in the twelve months to 30 April: 20 000 + 490 000 =
    // 510 000 > 500 000 → liable: SDL 1% × 510 000 = 5 100.00.
    const april = await b.run('monthly', '2026-04-01', '2026-04-30', { [lwazi.id]: { commission: 490000 } });
    assert.deepEqual([april.sdl, april.sdlExempt, april.sdlLeviableExpected], [5100, false, 510000]);
    // May: the contract says 240 000, but the twelve months to 31 May paid 510 000 + 20 000 =
    // 530 000 → still liable: 1% × 20 000 = 200.00.
    const may = await b.run('monthly', '2026-05-01', '2026-05-31');
    assert.deepEqual([may.sdl, may.sdlExempt, may.sdlLeviableExpected], [200, false, 530000]);
  });

  test('a leaver counts for the months left: R600 000 a year ending in three months is R150 000', async () => {
    const b = await business();
    // Nomvula R50 000 a month, leaving 31 July 2026: at the end of April 92 of the next 365 days
    // (1 May – 31 July) → 600 000 × 92 ÷ 365 = 151 232.876…; with Sibusiso's 20 000 × 12 = 240 000
    // the contracts say 391 232.88. Paid to the end of April: 50 000 + 20 000 = 70 000. The
    // greater, 391 232.88, is at most R500 000 → exempt.
    await b.employee({ payFrequency: 'monthly', rate: 50000, endDate: '2026-07-31' });
    await b.employee({ payFrequency: 'monthly', rate: 20000 });
    const april = await b.run('monthly', '2026-04-01', '2026-04-30');
    assert.deepEqual([april.sdl, april.sdlExempt, april.sdlLeviableExpected], [0, true, 391232.88]);
  });
});
