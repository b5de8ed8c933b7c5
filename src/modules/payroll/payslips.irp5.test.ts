// The IRP5 source codes a payslip's lines carry (issue 34, item 14), so that the tax certificate
// is the sum of the year's lines by code. SARS PAYE-AE-06-G4 (Guide for codes applicable to
// employees' tax certificates) and the PAYE BRS section 6 source code descriptions:
//   4001 "Total pension fund contributions paid and 'deemed paid' by employee": the employee's
//        own plus the employer's, whose value is the taxable benefit 3817 ("deemed paid");
//   4005 "Medical scheme fees (contributions) paid and 'deemed paid' by employee": the employee's
//        plus the employer's, the taxable benefit 3810;
//   4472 / 4474 the employer's pension fund / medical scheme contributions for the employee;
//   4116 "Medical Scheme Fees Tax Credit considered by employer for PAYE purposes";
//   4118 "The sum of the ETI amounts calculated ... in accordance with section 7 of the ETI Act".
// The employer's share is on three lines (the benefit, the contribution, the deemed payment), each
// under its own code; the certificate-only lines (kind tax_certificate) are neither pay nor a
// deduction: gross, deductions and net are as before.
//
// Karabo, May 2026 (2026/27), R30 000 a month; retirement fund R1 000 a month from him and R1 500
// from the employer; medical scheme R2 000 a month from him and R1 500 from the employer, for him
// and one dependant.
//   Taxable: 30 000 + 3817 1 500 + 3810 1 500 = 33 000 a month → 396 000 a year.
//   Retirement deduction (s11F): (1 000 + 1 500) × 12 = 30 000 ≤ 27.5% × 396 000 = 108 900.
//   396 000 − 30 000 = 366 000: 44 118 + 26% × (366 000 − 245 100) = 44 118 + 31 434 = 75 552;
//   less the primary rebate 17 820 = 57 732 ÷ 12 = 4 811.00 before the medical credit.
//   4116: R376 for him + R376 for the first dependant = R752.00 → PAYE 4 811.00 − 752.00 = 4 059.00.
//   4001: 1 000 + 1 500 = 2 500.00; 4005: 2 000 + 1 500 = 3 500.00; 3817 = 4472 = 1 500.00;
//   3810 = 4474 = 1 500.00.
//   UIF: 1% of 30 000, over the R17 712 ceiling → 177.12 each side (4141: 354.24).
//   Net: 30 000 − 4 059.00 − 177.12 − 1 000 − 2 000 = 22 763.88.
// Naledi, 22, R5 400 a month, ETI-eligible from January 2026 (month 5): R1 500 on 4118.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Line = { kind: string; irp5Code: string | null; amount: number };

describe('IRP5 codes on payslip lines (PAYE-AE-06-G4)', () => {
  test('4001 and 4005 total paid and deemed paid; 4116 the medical credit; 4118 the ETI', async () => {
    const c = await register(t.app, { plan: 'professional' });
    const api = as(t.app, c.token, c.companyId);
    const create = async (payload: Record<string, unknown>) => {
      const res = await api({
        method: 'POST',
        url: '/api/employees',
        payload: { passportCountry: 'BW', payFrequency: 'monthly', payBasis: 'salary', ...payload },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string };
    };
    const karabo = await create({
      firstName: 'Karabo',
      lastName: 'Sithole',
      passportNumber: 'PIRP1',
      dateOfBirth: '1986-03-03',
      startDate: '2024-01-01',
      rate: 30000,
      retirementEmployeeContribution: 1000,
      retirementEmployerContribution: 1500,
      medicalScheme: true,
      medicalDependants: 1,
      medicalEmployeeContribution: 2000,
      medicalEmployerContribution: 1500,
    });
    const naledi = await create({
      firstName: 'Naledi',
      lastName: 'Khumalo',
      passportNumber: 'PIRP2',
      dateOfBirth: '2004-01-10',
      startDate: '2026-01-01',
      rate: 5400,
      etiEligible: true,
    });
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
    const calc = await api({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` });
    assert.equal(calc.statusCode, 200, calc.body);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId: p.json().id } });
    const slipOf = async (employeeId: string) => {
      const s = (list.json().items as { id: string; employeeId: string }[]).find(
        (x) => x.employeeId === employeeId,
      )!;
      return (await api({ method: 'GET', url: `/api/payslips/${s.id}` })).json();
    };
    const byCode = (lines: Line[]) => {
      const out: Record<string, number> = {};
      for (const l of lines)
        if (l.irp5Code) out[l.irp5Code] = Math.round(((out[l.irp5Code] ?? 0) + l.amount) * 100) / 100;
      return out;
    };

    const k = await slipOf(karabo.id);
    assert.equal(k.paye, 4059);
    assert.equal(k.net, 22763.88);
    const codes = byCode(k.lines);
    assert.equal(codes['4001'], 2500);
    assert.equal(codes['4005'], 3500);
    assert.equal(codes['3817'], 1500);
    assert.equal(codes['4472'], 1500);
    assert.equal(codes['3810'], 1500);
    assert.equal(codes['4474'], 1500);
    assert.equal(codes['4116'], 752);
    assert.equal(codes['4102'], 4059);
    assert.equal(codes['4141'], 354.24);
    // The certificate's lines change no pay: the deductions are still gross − net.
    const deducted = (k.lines as Line[])
      .filter((l) => l.kind === 'deduction')
      .reduce((a, l) => a + l.amount, 0);
    assert.equal(Math.round(deducted * 100) / 100, Math.round((k.gross - k.net) * 100) / 100);
    assert.deepEqual(
      (k.lines as Line[]).filter((l) => l.kind === 'tax_certificate').map((l) => [l.irp5Code, l.amount]),
      [
        ['4001', 1500],
        ['4005', 1500],
        ['4116', 752],
      ],
    );

    const n = await slipOf(naledi.id);
    const eti = (n.lines as Line[]).find((l) => l.kind === 'eti')!;
    assert.deepEqual([eti.irp5Code, eti.amount], ['4118', 1500]);
    assert.equal(n.eti, 1500);
  });
});
