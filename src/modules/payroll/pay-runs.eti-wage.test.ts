// The ETI's wage test and its part-time rule, through the app (issue 34, items 10 and 11).
//
// Employment Tax Incentive Act 26 of 2013:
//   s4(1)(a): no incentive for a month whose wage is below the higher of a wage-regulating
//     measure's minimum and the National Minimum Wage (NMW Act s4(1)); s4(1)(b): only a wage
//     bound by neither, or exempt under NMW Act s15, is held to the fixed R2 500 for 160 hours
//     (pro rata below 160 hours); s4(2): an incentive received where s4 fails is penalised at 100%.
//   s7(5) with the definition of "monthly remuneration" (s1): an employee employed and paid for
//     fewer than 160 hours in the month has the remuneration grossed up to 160 hours to find the
//     band, and the incentive scaled down in the same ratio (SARS, "How does the ETI work", step 4).
//   Bands from 1 April 2025, first twelve months: R2 500–R5 499.99 → R1 500; the second twelve:
//     R750.
// NMW (Government Gazettes 52053 of 4 February 2025 and 54075 of 3 February 2026): R28.79 an
//   ordinary hour from 1 March 2025, R30.23 from 1 March 2026.
// A salaried employee's hours in a month: hours a week × 52 ÷ 12; 40 hours → 520/3 = 173.33…
//
// Everyone is born in 2004 (22 in June 2026), ETI-eligible from 1 January 2026, so June 2026 is
// ETI month 6 (the first twelve), paid monthly.
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
        firstName: 'Young',
        lastName: `Worker ${++seq}`,
        passportNumber: `PW${seq}`,
        passportCountry: 'LS',
        dateOfBirth: '2004-02-02',
        startDate: '2026-01-01',
        payFrequency: 'monthly',
        payBasis: 'salary',
        etiEligible: true,
        ...extra,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; employeeNumber: string };
  };
  /** Opens and calculates the month; answers the period and each payslip by employee id. */
  const month = async (start: string, end: string) => {
    const p = await api({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: { frequency: 'monthly', periodStart: start, periodEnd: end, payDate: end },
    });
    assert.equal(p.statusCode, 201, p.body);
    const calc = await api({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` });
    assert.equal(calc.statusCode, 200, calc.body);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId: p.json().id } });
    const slips = new Map<string, Record<string, unknown>>();
    for (const s of list.json().items as { id: string; employeeId: string }[]) {
      const one = await api({ method: 'GET', url: `/api/payslips/${s.id}` });
      slips.set(s.employeeId, one.json());
    }
    return { period: calc.json(), slips };
  };
  return { api, employee, month };
}

describe('item 10: the ETI wage test is the minimum wage, date-effective, per employee', () => {
  test('June 2026: below the NMW no ETI, with the reason; exempt, measure and above it', async () => {
    const b = await business();
    // Lindiwe: R5 000 for 173.33 h. Floor R30.23 × 520/3 = 15 719.60/3 = R5 239.87 (5 239.866…):
    //   R5 000 is below it → no ETI (s4(1)(a)); it was 1 500 before, a 100% penalty waiting (s4(2)).
    const lindiwe = await b.employee({ rate: 5000 });
    // Sizwe: R5 000, the employer exempt from the NMW for him (NMW Act s15): the fixed floor
    //   R2 500 for 160 h (173.33 h ≥ 160: not pro rata) → R5 000 passes; band R2 500–R5 499.99 → 1 500.
    const sizwe = await b.employee({ rate: 5000, minimumWageExempt: true });
    // Bheki: R5 400 under a bargaining council's R32.00 an hour, above the NMW: the higher binds,
    //   32 × 520/3 = 16 640/3 = R5 546.67 > R5 400 → no ETI.
    const bheki = await b.employee({ rate: 5400, minimumHourlyWage: 32 });
    // Kagiso: R5 400 ≥ R5 239.87 → 1 500.
    const kagiso = await b.employee({ rate: 5400 });
    const june = await b.month('2026-06-01', '2026-06-30');
    const eti = (e: { id: string }) => june.slips.get(e.id)!.eti;
    assert.deepEqual([eti(lindiwe), eti(sizwe), eti(bheki), eti(kagiso)], [0, 1500, 0, 1500]);
    // The period claims 1 500 + 1 500 = 3 000.
    assert.equal(june.period.eti, 3000);

    const refused = june.slips.get(lindiwe.id)!;
    assert.equal(refused.etiReason, 'below_minimum_wage');
    const warning = (refused.warnings as { code: string; detail: string }[]).find(
      (w) => w.code === 'ETI_BELOW_MINIMUM_WAGE',
    );
    assert.ok(warning, JSON.stringify(refused.warnings));
    // The detail gives the figures: the wage, the hours, the rate and the floor.
    assert.match(warning.detail, /5 ?000\.00/);
    assert.match(warning.detail, /30\.23/);
    assert.match(warning.detail, /5 ?239\.87/);
    assert.equal(june.slips.get(bheki.id)!.etiReason, 'below_minimum_wage');
    assert.match(
      (june.slips.get(bheki.id)!.warnings as { detail: string }[]).map((w) => w.detail).join(' '),
      /32\.00.*5 ?546\.67|5 ?546\.67.*32\.00/,
    );
    assert.equal(june.slips.get(kagiso.id)!.etiReason, null);
    // The pay run lists the warning with the employee it is about.
    const listed = (june.period.warnings as { employeeId: string; code: string }[]).filter(
      (w) => w.code === 'ETI_BELOW_MINIMUM_WAGE',
    );
    assert.deepEqual(listed.map((w) => w.employeeId).sort(), [lindiwe.id, bheki.id].sort());
  });

  test('the NMW of the month: R5 000 passes in June 2025 (R28.79), not in June 2026 (R30.23)', async () => {
    const b = await business();
    // Started 1 January 2025: June 2025 is ETI month 6. Floor 28.79 × 520/3 = 14 970.80/3 =
    // R4 990.27 ≤ R5 000 → 1 500. June 2026 (month 18): floor R5 239.87 > R5 000 → none.
    const e = await b.employee({ rate: 5000, startDate: '2025-01-01' });
    const june2025 = await b.month('2025-06-01', '2025-06-30');
    assert.equal(june2025.slips.get(e.id)!.eti, 1500);
    assert.equal(june2025.slips.get(e.id)!.etiReason, null);
    const june2026 = await b.month('2026-06-01', '2026-06-30');
    assert.equal(june2026.slips.get(e.id)!.eti, 0);
    assert.equal(june2026.slips.get(e.id)!.etiReason, 'below_minimum_wage');
  });

  test('an employee record takes and answers the wage test’s settings', async () => {
    const b = await business();
    const e = await b.employee({ rate: 6000, minimumHourlyWage: 31.5, minimumWageExempt: false });
    const got = await b.api({ method: 'GET', url: `/api/employees/${e.id}` });
    assert.deepEqual([got.json().minimumHourlyWage, got.json().minimumWageExempt], [31.5, false]);
    const cleared = await b.api({
      method: 'PATCH',
      url: `/api/employees/${e.id}`,
      payload: { minimumHourlyWage: null },
    });
    assert.equal(cleared.json().minimumHourlyWage, null);
    const bad = await b.api({
      method: 'PATCH',
      url: `/api/employees/${e.id}`,
      payload: { minimumHourlyWage: 31.555 },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.json().detail, /minimumHourlyWage/);
  });
});

describe('item 11: a salaried part-timer’s ETI by the hours of the contract (s7(5))', () => {
  test('24 hours a week: grossed up to 160 hours for the band, scaled down by hours ÷ 160', async () => {
    const b = await business();
    // 24 h a week × 52 ÷ 12 = 104 hours in the month, fewer than 160.
    // Wage test: 30.23 × 104 = R3 143.92 ≤ R3 250 → passes.
    // First twelve months (from January 2026): R3 250 × 160 ÷ 104 = R5 000 → the R1 500 band;
    //   × 104 ÷ 160 = 0.65 → 975.00 (before: treated as full time, 1 500).
    const first = await b.employee({ rate: 3250, hoursPerWeek: 24 });
    // Second twelve (from June 2025: June 2026 is month 13): R5 000 → R750 × 0.65 = 487.50.
    const second = await b.employee({
      rate: 3250,
      hoursPerWeek: 24,
      startDate: '2025-06-01',
    });
    // A full-timer beside them: 40 h a week is 173.33 h ≥ 160, nothing scaled: R5 400 → 1 500.
    const full = await b.employee({ rate: 5400 });
    const june = await b.month('2026-06-01', '2026-06-30');
    assert.equal(june.slips.get(first.id)!.eti, 975);
    assert.equal(june.slips.get(second.id)!.eti, 487.5);
    assert.equal(june.slips.get(full.id)!.eti, 1500);
    // 975.00 + 487.50 + 1 500.00 = 2 962.50
    assert.equal(june.period.eti, 2962.5);
  });

  test('a part-timer below the NMW for the contract’s hours gets none', async () => {
    const b = await business();
    // 20 h a week → 20 × 52 ÷ 12 = 86.67 h (260/3); floor 30.23 × 260/3 = 7 859.80/3 = R2 619.93;
    // R2 600 is below it → none, though R2 600 for a "full month" passed before.
    const e = await b.employee({ rate: 2600, hoursPerWeek: 20 });
    const june = await b.month('2026-06-01', '2026-06-30');
    assert.equal(june.slips.get(e.id)!.eti, 0);
    assert.equal(june.slips.get(e.id)!.etiReason, 'below_minimum_wage');
  });
});
