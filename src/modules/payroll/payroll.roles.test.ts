// Who reads pay (issue 34, item 13): every built-in role against every payroll read route. Pay and
// personal data (employees with their ID and tax numbers, pay runs, payslips and their PDF, the
// EMP201, leave) reach only the roles granted a payroll permission: owner, admin, accountant and
// payroll. The others, viewer included, get the role system's denial (403 with resource payroll,
// action read). The viewer still reads every other business module.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied } from '../../../test/support/problem.ts';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../platform/auth/permissions.ts';
import { addMember } from '../../platform/auth/users.factories.ts';

let t: TestApp;
let a: Registered;
const ids = { employee: '', period: '', payslip: '' };
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'professional' });
  const api = as(t.app, a.token, a.companyId);
  const e = await api({
    method: 'POST',
    url: '/api/employees',
    payload: {
      firstName: 'Ayanda',
      lastName: 'Nkosi',
      idNumber: '8001015009087',
      taxNumber: '0001339050',
      startDate: '2025-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 18000,
    },
  });
  assert.equal(e.statusCode, 201, e.body);
  ids.employee = e.json().id;
  const p = await api({
    method: 'POST',
    url: '/api/payroll-periods',
    payload: {
      frequency: 'monthly',
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      payDate: '2026-04-25',
    },
  });
  assert.equal(p.statusCode, 201, p.body);
  ids.period = p.json().id;
  const calc = await api({ method: 'POST', url: `/api/payroll-periods/${ids.period}/calculate` });
  assert.equal(calc.statusCode, 200, calc.body);
  const fin = await api({ method: 'POST', url: `/api/payroll-periods/${ids.period}/finalise` });
  assert.equal(fin.statusCode, 200, fin.body);
  const slips = await api({ method: 'GET', url: '/api/payslips', query: { periodId: ids.period } });
  ids.payslip = slips.json().items[0].id;
});
after(() => t.close());

/** Every payroll read: employees, pay runs, payslips (and the PDF), the EMP201, leave. */
const payrollReads = () => [
  '/api/employees',
  `/api/employees/${ids.employee}`,
  '/api/payroll-periods',
  `/api/payroll-periods/${ids.period}`,
  `/api/payroll-periods/${ids.period}/emp201`,
  '/api/payslips',
  `/api/payslips/${ids.payslip}`,
  `/api/payslips/${ids.payslip}/pdf`,
  '/api/leave-requests',
];

const MAY_READ_PAY: Record<BuiltInRole, boolean> = {
  owner: true,
  admin: true,
  accountant: true,
  payroll: true,
  sales: false,
  purchasing: false,
  warehouse: false,
  viewer: false,
};

describe('payroll reads by built-in role', () => {
  test('the table names every built-in role', () => {
    assert.deepEqual(Object.keys(MAY_READ_PAY).sort(), [...BUILT_IN_ROLES].sort());
  });

  for (const role of BUILT_IN_ROLES) {
    test(`${role}: ${MAY_READ_PAY[role] ? 'reads pay' : 'is refused every payroll read'}`, async () => {
      const token = role === 'owner' ? a.token : (await addMember(t, a, role)).token;
      const call = as(t.app, token, a.companyId);
      for (const url of payrollReads()) {
        const res = await call({ method: 'GET', url });
        if (MAY_READ_PAY[role]) assert.equal(res.statusCode, 200, `${role} ${url}: ${res.body}`);
        else {
          assertPermissionDenied(res, 'payroll', 'read', `${role} ${url}`);
          // Nothing of the employee leaks into the denial.
          assert.doesNotMatch(res.body, /Ayanda|8001015009087|0001339050|18000/);
        }
      }
    });
  }

  test('the viewer still reads every other business module', async () => {
    const viewer = as(t.app, (await addMember(t, a, 'viewer')).token, a.companyId);
    for (const url of [
      '/api/contacts',
      '/api/invoices',
      '/api/bills',
      '/api/expenses',
      '/api/bank-accounts',
      '/api/accounts',
      '/api/purchase-orders',
      '/api/landed-costs',
      '/api/companies',
      '/api/reports/income-statement?from=2026-04-01&to=2026-04-30',
    ]) {
      const res = await viewer({ method: 'GET', url });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    }
    // The EMPLOYEE contact is a contact like any other: the viewer sees the name, never the pay.
    const contacts = await viewer({ method: 'GET', url: '/api/contacts?type=EMPLOYEE' });
    assert.match(contacts.body, /Ayanda/);
    assert.doesNotMatch(contacts.body, /8001015009087|0001339050|18000/);
  });

  test('the viewer role lists every module read but payroll', async () => {
    const roles = await as(t.app, a.token)({ method: 'GET', url: '/api/roles/viewer' });
    assert.equal(roles.statusCode, 200, roles.body);
    const permissions = roles.json().permissions as string[];
    assert.ok(!permissions.some((p) => p.startsWith('payroll:')), permissions.join(' '));
    assert.ok(permissions.includes('contacts:read') && permissions.includes('invoices:read'));
    assert.ok(permissions.every((p) => p.endsWith(':read')));
  });
});
