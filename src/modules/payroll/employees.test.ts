// Employees over HTTP: create with every field (the EMPLOYEE contact made with it), clientId
// replays, the ETag, changes held to the same rules, terminate, soft delete, the list's filters.
// Each rule's 400 and the contact link: employees.rules.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'professional' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

// Worked ID numbers (za-id-number.test.ts shows the sums): 8001015009087 is 1980-01-01;
// 8507150123186 is 1985-07-15 (odd 8+0+1+0+2+1 = 12, even doubled 5→1, 7→14→5, 5→1, 1→2, 3→6,
// 8→7 = 22; 34 → 6). Tax number 0001339050 (doubled 0,0,6,9,1 = 16, added 0+1+3+0+0 = 4; 20).
const BASE = {
  firstName: 'Sipho',
  lastName: 'Dlamini',
  startDate: '2019-03-01',
  payFrequency: 'monthly',
  payBasis: 'salary',
  rate: 18500,
};
let seq = 0;
/** A body whose ID number is given only where a test needs one (passports are not unique). */
const body = (extra: Record<string, unknown> = {}) => ({
  ...BASE,
  passportNumber: `P${++seq}`,
  passportCountry: 'ZW',
  dateOfBirth: '1990-05-05',
  ...extra,
});

async function create(payload: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/employees', payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('employees: create, read, change', () => {
  test('every field round-trips; the EMPLOYEE contact is made; the number is sealed and masked', async () => {
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      employeeNumber: ' E1001 ',
      firstName: 'Thandiwe',
      lastName: 'Mokoena',
      email: 'thandiwe@example.co.za',
      idNumber: '8001015009087',
      taxNumber: '0001339050',
      jobTitle: ' Bookkeeper ',
      startDate: '2026-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 32500.5,
      hoursPerWeek: 42.5,
      daysPerWeek: 5.5,
      bankAccount: {
        bankName: 'First National Bank',
        branchCode: '250655',
        accountHolder: 'T Mokoena',
        accountNumber: '62001234567',
      },
      medicalScheme: true,
      medicalDependants: 3,
      medicalEmployeeContribution: 2400,
      medicalEmployerContribution: 1200.25,
      retirementEmployeeContribution: 2437.5,
      retirementEmployerContribution: 1000,
      uifApplies: true,
      sdlApplies: false,
      etiEligible: true,
      etiStartDate: '2026-04-01',
      minimumWageExempt: true,
      minimumHourlyWage: 35.5,
    };
    const res = await api({ method: 'POST', url: '/api/employees', payload });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers.location, `/api/employees/${clientId}`);
    const e = res.json();
    assert.deepEqual(e, {
      id: clientId,
      tenantId: a.tenantId,
      companyId: a.companyId,
      contactId: e.contactId,
      employeeNumber: 'E1001',
      firstName: 'Thandiwe',
      lastName: 'Mokoena',
      idNumber: '8001015009087',
      passportNumber: null,
      passportCountry: null,
      dateOfBirth: '1980-01-01', // from the ID number's first six digits
      taxNumber: '0001339050',
      jobTitle: 'Bookkeeper', // trimmed
      startDate: '2026-03-01',
      endDate: null,
      terminationReason: null,
      status: 'active',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 32500.5,
      hoursPerWeek: 42.5,
      daysPerWeek: 5.5,
      bankAccount: {
        bankName: 'First National Bank',
        branchCode: '250655',
        accountType: 'cheque', // the default
        accountHolder: 'T Mokoena',
        accountNumberMasked: '••••4567',
      },
      medicalScheme: true,
      medicalDependants: 3,
      medicalEmployeeContribution: 2400,
      medicalEmployerContribution: 1200.25,
      retirementEmployeeContribution: 2437.5,
      retirementEmployerContribution: 1000,
      uifApplies: true,
      sdlApplies: false,
      etiEligible: true,
      etiStartDate: '2026-04-01',
      minimumWageExempt: true,
      minimumHourlyWage: 35.5,
      clientId,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      deletedAt: null,
    });
    assert.doesNotMatch(res.body, /62001234567/);
    const contact = await api({ method: 'GET', url: `/api/contacts/${e.contactId}` });
    assert.equal(contact.statusCode, 200);
    assert.equal(contact.json().contactType, 'EMPLOYEE');
    assert.equal(contact.json().name, 'Thandiwe Mokoena');
    assert.equal(contact.json().email, 'thandiwe@example.co.za');
    // At rest: sealed text and the last four, never the number.
    const row = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('employees')
        .select(['bank_account_sealed', 'bank_account_last4'])
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow(),
    );
    assert.match(row.bank_account_sealed!, /^v1:/);
    assert.doesNotMatch(row.bank_account_sealed!, /62001234567/);
    assert.equal(row.bank_account_last4, '4567');

    // The same clientId again: 200 with the first record, no second contact.
    const replay = await api({ method: 'POST', url: '/api/employees', payload: { ...payload, rate: 1 } });
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.json().rate, 32500.5);
    assert.equal(replay.json().contactId, e.contactId);
    const named = await api({ method: 'GET', url: '/api/contacts?type=EMPLOYEE&q=Mokoena' });
    assert.equal(named.json().total, 1);
  });

  test('defaults: the next E-number, 40 hours, 5 days, UIF and SDL on, no bank account', async () => {
    const first = await create(body());
    const second = await create(body());
    assert.match(first.employeeNumber, /^E\d{4}$/);
    // One more than the highest E-number used in the company.
    assert.equal(Number(second.employeeNumber.slice(1)), Number(first.employeeNumber.slice(1)) + 1);
    assert.deepEqual(
      [first.hoursPerWeek, first.daysPerWeek, first.uifApplies, first.sdlApplies, first.etiEligible],
      [40, 5, true, true, false],
    );
    assert.deepEqual([first.medicalScheme, first.medicalDependants, first.bankAccount], [false, 0, null]);
    assert.equal(first.dateOfBirth, '1990-05-05');
  });

  test('GET answers an ETag and 304 to If-None-Match; another company header or a random id → 404', async () => {
    const e = await create(body());
    const got = await api({ method: 'GET', url: `/api/employees/${e.id}` });
    assert.equal(got.statusCode, 200);
    const etag = got.headers.etag as string;
    assert.ok(etag);
    const again = await api({
      method: 'GET',
      url: `/api/employees/${e.id}`,
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assertProblem(await api({ method: 'GET', url: `/api/employees/${crypto.randomUUID()}` }), 404);
  });

  test('PATCH: only the fields sent; a new ID number brings its date of birth; bankAccount null removes it', async () => {
    const e = await create(
      body({
        bankAccount: {
          bankName: 'Capitec',
          branchCode: '470010',
          accountType: 'savings',
          accountHolder: 'S Dlamini',
          accountNumber: '1234567890',
        },
      }),
    );
    assert.equal(e.bankAccount.accountNumberMasked, '••••7890');
    const res = await api({
      method: 'PATCH',
      url: `/api/employees/${e.id}`,
      payload: {
        idNumber: '8507150123186',
        rate: 19000.75,
        payBasis: 'hourly',
        passportNumber: null,
        passportCountry: null,
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.deepEqual(
      [p.idNumber, p.dateOfBirth, p.rate, p.payBasis, p.passportNumber, p.firstName],
      ['8507150123186', '1985-07-15', 19000.75, 'hourly', null, 'Sipho'],
    );
    assert.equal(p.bankAccount.accountNumberMasked, '••••7890');
    const cleared = await api({
      method: 'PATCH',
      url: `/api/employees/${e.id}`,
      payload: { bankAccount: null },
    });
    assert.equal(cleared.json().bankAccount, null);
    // The change is held to the rules of the whole record: no identity left.
    const none = await api({ method: 'PATCH', url: `/api/employees/${e.id}`, payload: { idNumber: null } });
    assert.equal(assertProblem(none, 400).field, 'idNumber');
  });

  test('terminate: endDate before start → 400; a past end date is terminated; the list filters by status', async () => {
    const e = await create(body({ lastName: 'Terminated-One' }));
    const early = await api({
      method: 'POST',
      url: `/api/employees/${e.id}/terminate`,
      payload: { endDate: '2019-02-28', reason: 'x' },
    });
    assert.equal(assertProblem(early, 400).field, 'endDate');
    const done = await api({
      method: 'POST',
      url: `/api/employees/${e.id}/terminate`,
      payload: { endDate: '2020-01-31', reason: ' Resigned ' },
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(
      [done.json().endDate, done.json().terminationReason, done.json().status],
      ['2020-01-31', 'Resigned', 'terminated'],
    );
    const later = await create(
      body({ lastName: 'Leaving-Later', endDate: '2099-12-31', terminationReason: 'Contract ends' }),
    );
    assert.equal(later.status, 'active');
    const terminated = (await api({ method: 'GET', url: '/api/employees?status=terminated' })).json();
    assert.ok(terminated.items.some((x: { id: string }) => x.id === e.id));
    assert.ok(!terminated.items.some((x: { id: string }) => x.id === later.id));
    const active = (await api({ method: 'GET', url: '/api/employees?status=active' })).json();
    assert.ok(active.items.some((x: { id: string }) => x.id === later.id));
    assert.ok(!active.items.some((x: { id: string }) => x.id === e.id));
    // Reinstated: endDate null clears the reason with it.
    const back = await api({ method: 'PATCH', url: `/api/employees/${e.id}`, payload: { endDate: null } });
    assert.deepEqual([back.json().status, back.json().terminationReason], ['active', null]);
  });

  test('list: q in names and number; sort by number; delete is soft (404 after, seen with updatedSince)', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const e = await create(body({ firstName: 'Zanele', lastName: 'Khumalo-Q', employeeNumber: 'QX-7' }));
    for (const q of ['khumalo-q', 'zanele khu', 'qx-7']) {
      const found = (await api({ method: 'GET', url: `/api/employees?q=${encodeURIComponent(q)}` })).json();
      assert.deepEqual(
        found.items.map((x: { id: string }) => x.id),
        [e.id],
        q,
      );
    }
    const byNumber = (await api({ method: 'GET', url: '/api/employees?sort=-number&limit=200' })).json();
    const numbers = byNumber.items.map((x: { employeeNumber: string }) => x.employeeNumber);
    assert.deepEqual(numbers, [...numbers].sort().reverse());
    assert.equal((await api({ method: 'DELETE', url: `/api/employees/${e.id}` })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url: `/api/employees/${e.id}` }), 404);
    const gone = (await api({ method: 'GET', url: '/api/employees?q=Khumalo-Q' })).json();
    assert.equal(gone.total, 0);
    const sync = (
      await api({
        method: 'GET',
        url: `/api/employees?updatedSince=${encodeURIComponent(since)}&q=Khumalo-Q`,
      })
    ).json();
    assert.equal(sync.items.length, 1);
    assert.ok(sync.items[0].deletedAt);
    // The number is free again for a new employee.
    await create(body({ employeeNumber: 'QX-7' }));
  });
});

describe('employees: clientId', () => {
  test("another company's or a deleted employee's clientId is a 409 naming clientId", async () => {
    const clientId = crypto.randomUUID();
    const e = await create(body({ clientId }));
    const second = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Branch' } });
    assert.equal(second.statusCode, 201, second.body);
    const other = as(t.app, a.token, second.json().id);
    const elsewhere = await other({ method: 'POST', url: '/api/employees', payload: body({ clientId }) });
    assert.equal(assertProblem(elsewhere, 409).field, 'clientId');
    assert.equal((await api({ method: 'DELETE', url: `/api/employees/${e.id}` })).statusCode, 204);
    const deleted = await api({ method: 'POST', url: '/api/employees', payload: body({ clientId }) });
    assert.equal(assertProblem(deleted, 409).field, 'clientId');
  });
});
