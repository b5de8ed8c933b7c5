// The ETI of weekly and fortnightly payslips, month to date by the difference method
// (pay-runs.calc.ts): each payslip claims eti(the month so far) − the ETI of the month's earlier
// payslips, so the month's payslips sum to the ETI of the month's totals. Worked by hand from the
// bands in force from 1 April 2025 (migration 0052, calc/test-tables.ts ETI_2025):
//   first twelve months: under R2 500 60%; R2 500–R5 499.99 R1 500; R5 500–R7 499.99
//   R1 500 − 75% × (remuneration − R5 500); R7 500 and up none. Below 160 hours in the month the
//   remuneration is grossed up × 160 ÷ hours and the incentive grossed down × hours ÷ 160.
// The employee: born 10 May 2002 (24 in 2026), employed (and ETI counted) from 15 January 2026,
// so May and June 2026 are ETI months 5 and 6 (the first twelve); 40 hours a week.
// Then one journey through the app: June's four weekly runs calculated and finalised in order,
// each entry balanced, the EMP201 of June showing the four payslips' ETI summed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Decimal } from 'decimal.js';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { money, sum, ZERO } from '../../platform/money/money.ts';
import { eti } from './calc/eti.ts';
import { ETI_2025, NMW_2026, SDL_2005, UIF_2021, Y2027 } from './calc/test-tables.ts';
import type { PayrollEmployee } from './employees.payable.ts';
import {
  calculatePayslip,
  type EtiMonthToDate,
  monthEndOf,
  NO_ETI_BEFORE,
  NO_INPUTS,
  type PeriodInputs,
} from './pay-runs.calc.ts';
import type { PayFrequency } from './payroll.tables.ts';
import type { Statutory } from './statutory.ts';

const st: Statutory = {
  date: '2026-06-01',
  taxYear: Y2027,
  uif: UIF_2021,
  sdl: SDL_2005,
  eti: ETI_2025,
  minimumWage: NMW_2026,
};

function employee(extra: Partial<PayrollEmployee>): PayrollEmployee {
  return {
    id: crypto.randomUUID(),
    companyId: crypto.randomUUID(),
    contactId: crypto.randomUUID(),
    employeeNumber: 'E1',
    firstName: 'Thabo',
    lastName: 'Mokoena',
    idNumber: null,
    passportNumber: 'P1',
    passportCountry: 'LS',
    dateOfBirth: '2002-05-10',
    taxNumber: null,
    startDate: '2026-01-15',
    endDate: null,
    terminationReason: null,
    payFrequency: 'weekly',
    payBasis: 'salary',
    rate: '1600.00',
    hoursPerWeek: '40',
    daysPerWeek: '5',
    medicalScheme: false,
    medicalDependants: 0,
    medicalEmployeeContribution: '0',
    medicalEmployerContribution: '0',
    retirementEmployeeContribution: '0',
    retirementEmployerContribution: '0',
    uifApplies: true,
    sdlApplies: true,
    etiEligible: true,
    minimumWageExempt: false,
    minimumHourlyWage: null,
    etiFrom: '2026-01-15',
    bankAccount: null,
    ...extra,
  };
}

type Run = [start: string, end: string, inputs?: Partial<PeriodInputs>];

/**
 * The periods in order, each given the month-to-date sums of the earlier ones of its month, as
 * calculatePeriod does with pay-runs.eti.ts: the ETI of each payslip.
 */
function runs(frequency: PayFrequency, e: PayrollEmployee, periods: Run[]): Decimal[] {
  const done: Array<{ end: string; basis: EtiMonthToDate }> = [];
  return periods.map(([start, end, inputs]) => {
    const month = end.slice(0, 7);
    const before = done
      .filter((d) => d.end.slice(0, 7) === month && d.end < end)
      .reduce<EtiMonthToDate>(
        (a, d) => ({
          remuneration: a.remuneration.plus(d.basis.remuneration),
          wage: a.wage.plus(d.basis.wage),
          hours: a.hours.plus(d.basis.hours),
          ordinaryHours: a.ordinaryHours.plus(d.basis.ordinaryHours),
          eti: a.eti.plus(d.basis.eti),
        }),
        NO_ETI_BEFORE,
      );
    const s = calculatePayslip({ frequency, start, end }, e, { ...NO_INPUTS, ...inputs }, st, false, before);
    done.push({ end, basis: { ...s.etiBasis, eti: s.eti } });
    return s.eti;
  });
}

const fixed = (xs: Decimal[]) => xs.map((x) => x.toFixed(2));
const monthEti = (remuneration: number, hours: number, dateOfBirth = '2002-05-10') =>
  eti(ETI_2025, {
    remuneration,
    hours,
    dateOfBirth,
    etiStartDate: '2026-01-15',
    monthEnd: '2026-06-30',
  }).amount.toFixed(2);

const JUNE: Run[] = [
  ['2026-06-01', '2026-06-07'],
  ['2026-06-08', '2026-06-14'],
  ['2026-06-15', '2026-06-21'],
  ['2026-06-22', '2026-06-28'],
];

test('the month of a period: its last day', () => {
  assert.equal(monthEndOf('2026-06-07'), '2026-06-30');
  assert.equal(monthEndOf('2028-02-13'), '2028-02-29');
  assert.equal(monthEndOf('2026-12-31'), '2026-12-31');
});

test('weekly, four weeks ending in June: week 1 alone, then the four sum to the month', () => {
  const e = employee({});
  // Week 1 alone: R1 600 for 40 hours. Grossed up × 160 ÷ 40 = × 4 → R6 400, the taper:
  // 1 500 − 75% × (6 400 − 5 500) = 1 500 − 675 = 825; grossed down ÷ 4 → 206.25.
  assert.deepEqual(fixed(runs('weekly', e, JUNE.slice(0, 1))), ['206.25']);
  // The four weeks, R400 commission in week 3:
  //   after week 2: R3 200 / 80 h → grossed R6 400 → 825 × 80 ÷ 160 = 412.50; less 206.25 → 206.25
  //   after week 3: R5 200 / 120 h → grossed 5 200 × 160 ÷ 120 = 6 933.33…:
  //     1 500 − 75% × 1 433.33… = 1 500 − 1 075 = 425 × 120 ÷ 160 = 318.75; less 412.50 → −93.75
  //     (the commission takes the month up the taper: the month to date falls, and so does the claim)
  //   after week 4: R6 800 / 160 h, a full month: 1 500 − 75% × 1 300 = 525.00; less 318.75 → 206.25
  // 206.25 + 206.25 − 93.75 + 206.25 = 525.00, the ETI of the month's R6 800 for 160 hours.
  const weeks = JUNE.map((r, i): Run => (i === 2 ? [r[0], r[1], { commission: money(400) }] : r));
  const four = runs('weekly', e, weeks);
  assert.deepEqual(fixed(four), ['206.25', '206.25', '-93.75', '206.25']);
  assert.equal(sum(four).toFixed(2), '525.00');
  assert.equal(monthEti(6800, 160), '525.00');
});

test('the age is tested at the end of the month, not of the week', () => {
  // Born 20 June 1996: 29 on 7 June 2026, 30 on 30 June → no ETI in any June week (s6(b)).
  const e = employee({ dateOfBirth: '1996-06-20' });
  assert.deepEqual(fixed(runs('weekly', e, JUNE)), ['0.00', '0.00', '0.00', '0.00']);
  assert.equal(monthEti(6400, 160, '1996-06-20'), '0.00');
});

test('fortnightly: a starter mid-fortnight, then a full fortnight', () => {
  // R3 200 a fortnight, 40 h a week → 80 h a fortnight. Starts Monday 8 June 2026 (ETI from then:
  // June is ETI month 1). Fortnight 1 June–14 June: employed 7 of 14 days → R1 600, 40 h:
  // grossed × 4 → R6 400 → 825 ÷ 4 = 206.25. Fortnight 15–28 June: month to date R4 800 / 120 h →
  // grossed R6 400 → 825 × 120 ÷ 160 = 618.75; less 206.25 → 412.50. Sum 618.75.
  const e = employee({
    payFrequency: 'fortnightly',
    rate: '3200.00',
    startDate: '2026-06-08',
    etiFrom: '2026-06-08',
  });
  const two = runs('fortnightly', e, [
    ['2026-06-01', '2026-06-14'],
    ['2026-06-15', '2026-06-28'],
  ]);
  assert.deepEqual(fixed(two), ['206.25', '412.50']);
  assert.equal(sum(two).toFixed(2), '618.75');
});

test('a month of five weekly period ends: the fifth adds nothing past the month’s R1 500', () => {
  // May 2026 ends on Sundays 3, 10, 17, 24 and 31. R1 000 a week, 40 h: each of the first four
  // weeks grossed × 4 → R4 000, the R1 500 band, ÷ 4 → 375.00 (month to date after four: R4 000 /
  // 160 h → 1 500). Week 5: R5 000 / 200 h, a full month (≥ 160 h: not grossed), still under
  // R5 500 → 1 500; less 1 500 → 0. Five payslips: 1 500.00, the month's ETI.
  // R25 an hour is below the National Minimum Wage (R30.23 from March 2026), so this employer is
  // exempt from it for the employee (NMW Act s15): the wage is held to the fixed R2 500 for 160
  // hours instead (ETI Act s4(1)(b)), R625 for a week's 40 (the month: R5 000 ≥ R3 125 for 200 h).
  const e = employee({ rate: '1000.00', minimumWageExempt: true });
  const may = runs('weekly', e, [
    ['2026-04-27', '2026-05-03'],
    ['2026-05-04', '2026-05-10'],
    ['2026-05-11', '2026-05-17'],
    ['2026-05-18', '2026-05-24'],
    ['2026-05-25', '2026-05-31'],
  ]);
  assert.deepEqual(fixed(may), ['375.00', '375.00', '375.00', '375.00', '0.00']);
  assert.equal(sum(may).toFixed(2), '1500.00');
});

test('a big last week takes the month over R7 500: the increment is negative, the month nets to 0', () => {
  // R1 600 a week: weeks 1–3 claim 206.25 each (month to date after three: R4 800 / 120 h →
  // grossed R6 400 → 825 × 120 ÷ 160 = 618.75). Week 4 has R1 200 commission: the month R7 600
  // for 160 h ≥ R7 500 → none; 0 − 618.75 = −618.75 on the last payslip. The month: 0.00.
  const e = employee({});
  const weeks = JUNE.map((r, i): Run => (i === 3 ? [r[0], r[1], { commission: money(1200) }] : r));
  const four = runs('weekly', e, weeks);
  assert.deepEqual(fixed(four), ['206.25', '206.25', '206.25', '-618.75']);
  assert.equal(sum(four).toFixed(2), '0.00');
  assert.equal(monthEti(7600, 160), '0.00');
});

test('monthly: the basis is kept, the ETI unchanged (earlier payslips are not asked for)', () => {
  // R5 400 for June, 40 h a week: 40 × 52 ÷ 12 = 173.3333 h, a full month (≥ 160 h, nothing
  // grossed); the wage passes the NMW (30.23 × 173.3333 = R5 239.87): R5 400 in the R1 500 band →
  // 1 500.00; a month-to-date argument is ignored for monthly periods.
  const e = employee({ payFrequency: 'monthly', rate: '5400.00' });
  const before: EtiMonthToDate = {
    remuneration: money(9000),
    wage: money(9000),
    hours: money(160),
    ordinaryHours: money(160),
    eti: ZERO,
  };
  const s = calculatePayslip(
    { frequency: 'monthly', start: '2026-06-01', end: '2026-06-30' },
    e,
    NO_INPUTS,
    st,
    false,
    before,
  );
  assert.equal(s.eti.toFixed(2), '1500.00');
  assert.deepEqual(
    [
      s.etiBasis.remuneration.toFixed(2),
      s.etiBasis.wage.toFixed(2),
      s.etiBasis.hours.toFixed(4),
      s.etiBasis.ordinaryHours.toFixed(4),
    ],
    ['5400.00', '5400.00', '173.3333', '173.3333'],
  );
});

describe('through the app: four weekly runs of June, opened, calculated and finalised in order', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('each payslip claims the month to date less the earlier weeks; the EMP201 shows the month', async () => {
    // The employee of the 'weekly, four weeks' test above: R1 600 a week, R400 commission in week 3.
    // ETI per week 206.25, 206.25, −93.75, 206.25 → the month 525.00.
    const c = await register(t.app, { plan: 'professional' });
    const api = as(t.app, c.token, c.companyId);
    const e = await api({
      method: 'POST',
      url: '/api/employees',
      payload: {
        firstName: 'Thabo',
        lastName: 'Mokoena',
        passportNumber: 'PWK1',
        passportCountry: 'LS',
        dateOfBirth: '2002-05-10',
        startDate: '2026-01-15',
        payFrequency: 'weekly',
        payBasis: 'salary',
        rate: 1600,
        hoursPerWeek: 40,
        etiEligible: true,
      },
    });
    assert.equal(e.statusCode, 201, e.body);
    const ids: string[] = [];
    const etis: number[] = [];
    for (const [i, [start, end]] of JUNE.entries()) {
      const p = await api({
        method: 'POST',
        url: '/api/payroll-periods',
        payload: { frequency: 'weekly', periodStart: start, periodEnd: end, payDate: end },
      });
      assert.equal(p.statusCode, 201, p.body);
      const id = p.json().id as string;
      ids.push(id);
      if (i === 2) {
        const put = await api({
          method: 'PUT',
          url: `/api/payroll-periods/${id}/inputs/${e.json().id}`,
          payload: { commission: 400 },
        });
        assert.equal(put.statusCode, 200, put.body);
      }
      const calc = await api({ method: 'POST', url: `/api/payroll-periods/${id}/calculate` });
      assert.equal(calc.statusCode, 200, calc.body);
      if (i === 3) {
        // A recalculation leaves out the period's own replaced payslips: the same figure.
        const again = await api({ method: 'POST', url: `/api/payroll-periods/${id}/calculate` });
        assert.equal(again.json().eti, calc.json().eti);
      }
      etis.push(calc.json().eti);
      // Finalising posts a balanced entry (post refuses one that is not); week 3's negative ETI
      // turns its 4910 and 2300 lines round.
      const fin = await api({ method: 'POST', url: `/api/payroll-periods/${id}/finalise` });
      assert.equal(fin.statusCode, 200, fin.body);
      const lines = await withTenant(t.database.db, c.tenantId, (tx) =>
        tx
          .selectFrom('journal_lines as l')
          .innerJoin('accounts as a', (j) =>
            j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
          )
          .select(['a.code', 'l.debit', 'l.credit'])
          .where('l.tenant_id', '=', c.tenantId)
          .where('l.entry_id', '=', fin.json().entryId)
          .execute(),
      );
      assert.equal(sum(lines.map((l) => l.debit)).toFixed(2), sum(lines.map((l) => l.credit)).toFixed(2));
      const income = lines.find((l) => l.code === '4910')!;
      assert.deepEqual([Number(income.debit), Number(income.credit)], i === 2 ? [93.75, 0] : [0, 206.25]);
    }
    assert.deepEqual(etis, [206.25, 206.25, -93.75, 206.25]);
    const emp = await api({ method: 'GET', url: `/api/payroll-periods/${ids[3]}/emp201` });
    assert.equal(emp.statusCode, 200, emp.body);
    assert.deepEqual(emp.json().periodIds, ids);
    // 206.25 + 206.25 − 93.75 + 206.25 = 525.00; the PAYE less it ties.
    assert.equal(emp.json().eti, 525);
    assert.equal(emp.json().payeLessEti, Number(money(emp.json().paye).minus(525).toFixed(2)));
  });
});
