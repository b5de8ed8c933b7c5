// Who sees employees and their pay: payroll:read only (a sales user gets the role denial, and an
// EMPLOYEE contact read through /api/contacts carries no pay); plans below Professional get
// MODULE_NOT_LICENSED; another tenant's or company's employee is a 404. Without SECRETS_KEY a
// bank account cannot be written (503 naming it) and the rest works. And what pay runs read:
// getEmployee and listPayableEmployees.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied, assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { getEmployee, listPayableEmployees } from './index.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'professional' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

const BANK = {
  bankName: 'Nedbank',
  branchCode: '198765',
  accountType: 'savings',
  accountHolder: 'N Zulu',
  accountNumber: '1122334455',
};
let seq = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Nomsa',
  lastName: `Zulu ${++seq}`,
  passportNumber: `PX${seq}`,
  passportCountry: 'LS',
  dateOfBirth: '1988-08-08',
  startDate: '2025-01-01',
  payFrequency: 'monthly',
  payBasis: 'salary',
  rate: 21000,
  ...extra,
});

async function create(payload: Record<string, unknown>, call = api) {
  const res = await call({ method: 'POST', url: '/api/employees', payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('employees: who may see them', () => {
  test('a sales user (no payroll permission) is refused every employee route', async () => {
    const e = await create(body({ bankAccount: BANK }));
    const sales = addMember(t, a, 'sales');
    const call = as(t.app, (await sales).token, a.companyId);
    assertPermissionDenied(await call({ method: 'GET', url: '/api/employees' }), 'payroll', 'read');
    assertPermissionDenied(await call({ method: 'GET', url: `/api/employees/${e.id}` }), 'payroll', 'read');
    assertPermissionDenied(
      await call({ method: 'POST', url: '/api/employees', payload: body() }),
      'payroll',
      'write',
    );
    // The contact is theirs to read, and it carries no pay at all.
    const contact = await call({ method: 'GET', url: `/api/contacts/${e.contactId}` });
    assert.equal(contact.statusCode, 200, contact.body);
    for (const key of [
      'rate',
      'bankAccount',
      'accountNumberMasked',
      'taxNumber',
      'idNumber',
      'medicalScheme',
    ])
      assert.doesNotMatch(contact.body, new RegExp(`"${key}"`), key);
    assert.doesNotMatch(contact.body, /21000|1122334455|4455/);
  });

  test('the audit log keeps who changed which field of an employee, never the pay, ID or tax number', async () => {
    // The audit log is read with admin:read, which a custom role without payroll may hold.
    const e = await create(body({ rate: 987654.32, taxNumber: '0001339050' }));
    const patched = await api({
      method: 'PATCH',
      url: `/api/employees/${e.id}`,
      payload: { rate: 123456.78 },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const log = await as(t.app, a.token)({ method: 'GET', url: '/api/audit-log?resource=payroll' });
    assert.equal(log.statusCode, 200, log.body);
    const mine = log.json().items.filter((i: { resourceId: string }) => i.resourceId === e.id);
    assert.deepEqual(mine.map((i: { action: string }) => i.action).sort(), [
      'PATCH /api/employees/{id}',
      'POST /api/employees',
    ]);
    const patch = mine.find((i: { action: string }) => i.action.startsWith('PATCH'));
    assert.deepEqual(patch.details.body, { rate: '[payroll]' });
    assert.doesNotMatch(log.body, /987654|123456|0001339050/);
  });

  test('a payroll user sees pay; a viewer neither reads nor writes it (payroll.roles.test.ts)', async () => {
    const e = await create(body());
    const payroll = as(t.app, (await addMember(t, a, 'payroll')).token, a.companyId);
    const got = await payroll({ method: 'GET', url: `/api/employees/${e.id}` });
    assert.equal(got.json().rate, 21000);
    const viewer = as(t.app, (await addMember(t, a, 'viewer')).token, a.companyId);
    assertPermissionDenied(await viewer({ method: 'GET', url: `/api/employees/${e.id}` }), 'payroll', 'read');
    assertPermissionDenied(
      await viewer({ method: 'PATCH', url: `/api/employees/${e.id}`, payload: { rate: 1 } }),
      'payroll',
      'write',
    );
  });

  test('a plan below Professional → 403 MODULE_NOT_LICENSED', async () => {
    const low = await register(t.app, { plan: 'business' });
    const res = await as(t.app, low.token, low.companyId)({ method: 'GET', url: '/api/employees' });
    assert.equal(assertProblem(res, 403).code, 'MODULE_NOT_LICENSED');
  });

  test("another tenant's employee, or another company's, is a 404 on every route", async () => {
    const e = await create(body());
    const b = await register(t.app, { plan: 'professional' });
    const theirs = as(t.app, b.token, b.companyId);
    for (const [method, url, payload] of [
      ['GET', `/api/employees/${e.id}`, undefined],
      ['PATCH', `/api/employees/${e.id}`, { rate: 1 }],
      ['POST', `/api/employees/${e.id}/terminate`, { endDate: '2026-01-31', reason: 'x' }],
      ['DELETE', `/api/employees/${e.id}`, undefined],
    ] as const) {
      assertProblem(await theirs({ method, url, payload }), 404, `${method} ${url}`);
    }
    assert.equal((await theirs({ method: 'GET', url: '/api/employees' })).json().total, 0);
    const second = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Second' } });
    assert.equal(second.statusCode, 201, second.body);
    const other = as(t.app, a.token, second.json().id);
    assertProblem(await other({ method: 'GET', url: `/api/employees/${e.id}` }), 404);
    // Still there for its own company.
    assert.equal((await api({ method: 'GET', url: `/api/employees/${e.id}` })).statusCode, 200);
  });
});

describe('employees without SECRETS_KEY', () => {
  test('a bank account → 503 naming SECRETS_KEY, nothing written; everything else works', async () => {
    const withBank = await create(body({ bankAccount: BANK }));
    const keys = t.deps.config.secretKeys;
    t.deps.config.secretKeys = () => undefined;
    try {
      const before = (await api({ method: 'GET', url: '/api/contacts?type=EMPLOYEE&limit=1' })).json().total;
      const refused = await api({
        method: 'POST',
        url: '/api/employees',
        payload: body({ bankAccount: BANK }),
      });
      assert.match(assertProblem(refused, 503).detail as string, /SECRETS_KEY/);
      // Not even the contact was made.
      const after = (await api({ method: 'GET', url: '/api/contacts?type=EMPLOYEE&limit=1' })).json().total;
      assert.equal(after, before);
      const plain = await create(body());
      const patch = await api({
        method: 'PATCH',
        url: `/api/employees/${plain.id}`,
        payload: { bankAccount: BANK },
      });
      assert.match(assertProblem(patch, 503).detail as string, /SECRETS_KEY/);
      // Reading and removing need no key: only the last four are shown, and they are in clear.
      const got = await api({ method: 'GET', url: `/api/employees/${withBank.id}` });
      assert.equal(got.json().bankAccount.accountNumberMasked, '••••4455');
      const rate = await api({
        method: 'PATCH',
        url: `/api/employees/${withBank.id}`,
        payload: { rate: 22000 },
      });
      assert.equal(rate.json().rate, 22000);
      const removed = await api({
        method: 'PATCH',
        url: `/api/employees/${withBank.id}`,
        payload: { bankAccount: null },
      });
      assert.equal(removed.json().bankAccount, null);
    } finally {
      t.deps.config.secretKeys = keys;
    }
  });
});

describe('what pay runs read', () => {
  test('getEmployee: exact decimal strings, the ETI start resolved, the account sealed; 404 otherwise', async () => {
    const e = await create(
      body({
        rate: 18500.5,
        hoursPerWeek: 37.5,
        retirementEmployeeContribution: 1387.54,
        bankAccount: BANK,
        etiEligible: true,
      }),
    );
    const got = await withTenant(t.database.db, a.tenantId, (tx) => getEmployee(tx, a.companyId, e.id));
    assert.deepEqual(
      [
        got.rate,
        got.hoursPerWeek,
        got.daysPerWeek,
        got.retirementEmployeeContribution,
        got.medicalEmployerContribution,
      ],
      ['18500.50', '37.50', '5.0', '1387.54', '0.00'],
    );
    assert.equal(got.etiFrom, '2025-01-01'); // no etiStartDate: the start date
    assert.equal(got.bankAccount?.last4, '4455');
    assert.match(got.bankAccount!.sealed, /^v1:/);
    // Another tenant's transaction does not see it, even with the right company.
    const b = await register(t.app, { plan: 'professional' });
    await assert.rejects(
      withTenant(t.database.db, b.tenantId, (tx) => getEmployee(tx, a.companyId, e.id)),
      /Employee not found/,
    );
  });

  test('listPayableEmployees: employed on at least one day of [from, to], ends inclusive', async () => {
    const c = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Payable Co' } });
    const call = as(t.app, a.token, c.json().id);
    const mk = (n: string, startDate: string, endDate?: string) =>
      create(body({ employeeNumber: n, startDate, ...(endDate ? { endDate } : {}) }), call);
    // The period is March 2026.
    await mk('P1', '2020-01-01'); // employed throughout → in
    await mk('P2', '2020-01-01', '2026-02-28'); // left the day before → out
    await mk('P3', '2020-01-01', '2026-03-01'); // its last day is the first → in
    await mk('P4', '2026-03-31'); // starts on the last day → in
    await mk('P5', '2026-04-01'); // starts the day after → out
    const gone = await mk('P6', '2020-01-01');
    await call({ method: 'DELETE', url: `/api/employees/${gone.id}` }); // deleted → out
    const payable = await withTenant(t.database.db, a.tenantId, (tx) =>
      listPayableEmployees(tx, c.json().id, '2026-03-01', '2026-03-31'),
    );
    assert.deepEqual(
      payable.map((p) => p.employeeNumber),
      ['P1', 'P3', 'P4'],
    );
  });
});
