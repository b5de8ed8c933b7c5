// Issue 34, item 15: what the contract says a tax year looks like is what the API answers, and an
// employee paid without an income tax number is not paid silently: the payslip, its pay run and
// the month's EMP201 say so (the IRP5/IT3(a) certificate and the EMP501 reconciliation need the
// number), while an employee with one carries no warning.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'professional' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

async function employee(extra: Record<string, unknown>) {
  const res = await api({
    method: 'POST',
    url: '/api/employees',
    payload: {
      firstName: 'Palesa',
      lastName: 'Molefe',
      startDate: '2025-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 22000,
      ...extra,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; employeeNumber: string };
}

describe('item 15', () => {
  let withoutNumber: { id: string; employeeNumber: string };
  let withNumber: { id: string; employeeNumber: string };
  let periodId: string;
  before(async () => {
    withoutNumber = await employee({
      passportNumber: 'PNOTAX1',
      passportCountry: 'ZW',
      dateOfBirth: '1990-05-05',
    });
    withNumber = await employee({ idNumber: '8001015009087', taxNumber: '0001339050', firstName: 'Sello' });
    const p = await api({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: {
        frequency: 'monthly',
        periodStart: '2026-05-01',
        periodEnd: '2026-05-31',
        payDate: '2026-05-25',
      },
    });
    assert.equal(p.statusCode, 201, p.body);
    periodId = p.json().id;
  });

  test('the OpenAPI document describes taxYear as the API answers it: 2026/27', async () => {
    const calc = await api({ method: 'POST', url: `/api/payroll-periods/${periodId}/calculate` });
    assert.equal(calc.statusCode, 200, calc.body);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId } });
    const answered = list.json().items[0].taxYear as string;
    // May 2026 is in the year of assessment 1 March 2026 – 28 February 2027, written 2026/27.
    assert.equal(answered, '2026/27');
    const doc = (await t.app.inject({ method: 'GET', url: '/api-docs/openapi.json' })).json();
    for (const name of ['Payslip', 'PayslipSummary']) {
      const schema = doc.components.schemas[name].properties.taxYear;
      assert.ok(schema.pattern, `${name}.taxYear has a pattern`);
      assert.match(answered, new RegExp(schema.pattern), `${name}.taxYear's pattern admits the answer`);
      assert.deepEqual(schema.examples, ['2026/27'], `${name}.taxYear's example`);
      for (const example of schema.examples) assert.match(example, new RegExp(schema.pattern));
      // The description no longer says the year looks like 2027.
      assert.doesNotMatch(schema.description, /'2027' is/);
    }
  });

  test('no income tax number: a warning on the payslip, the pay run and the EMP201', async () => {
    const calc = await api({ method: 'POST', url: `/api/payroll-periods/${periodId}/calculate` });
    assert.equal(calc.statusCode, 200, calc.body);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId } });
    const slips = new Map(
      (list.json().items as { employeeId: string; warnings: { code: string; detail: string }[] }[]).map(
        (s) => [s.employeeId, s],
      ),
    );
    assert.deepEqual(
      slips.get(withoutNumber.id)!.warnings.map((w) => w.code),
      ['NO_TAX_NUMBER'],
    );
    assert.match(slips.get(withoutNumber.id)!.warnings[0]!.detail, /income tax number/);
    assert.deepEqual(slips.get(withNumber.id)!.warnings, []);
    // The pay run names the employee.
    assert.deepEqual(
      (calc.json().warnings as { employeeId: string; employeeNumber: string; code: string }[]).map((w) => [
        w.employeeId,
        w.employeeNumber,
        w.code,
      ]),
      [[withoutNumber.id, withoutNumber.employeeNumber, 'NO_TAX_NUMBER']],
    );
    const fin = await api({ method: 'POST', url: `/api/payroll-periods/${periodId}/finalise` });
    assert.equal(fin.statusCode, 200, fin.body);
    assert.equal(fin.json().warnings.length, 1);
    // The EMP201 of May lists it among its issues (the tax documents take the number from there).
    const emp = await api({ method: 'GET', url: `/api/payroll-periods/${periodId}/emp201` });
    assert.equal(emp.statusCode, 200, emp.body);
    assert.deepEqual(
      (emp.json().issues as { employeeId: string; code: string }[]).map((i) => [i.employeeId, i.code]),
      [[withoutNumber.id, 'NO_TAX_NUMBER']],
    );
    // Given the number, the next calculation carries no warning.
    const patched = await api({
      method: 'PATCH',
      url: `/api/employees/${withoutNumber.id}`,
      payload: { taxNumber: '0001339050' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const june = await api({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: {
        frequency: 'monthly',
        periodStart: '2026-06-01',
        periodEnd: '2026-06-30',
        payDate: '2026-06-25',
      },
    });
    const juneCalc = await api({ method: 'POST', url: `/api/payroll-periods/${june.json().id}/calculate` });
    assert.deepEqual(juneCalc.json().warnings, []);
  });
});
