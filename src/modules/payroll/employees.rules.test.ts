// Employees over HTTP, the rules: each broken rule a 400 naming its field (the ID number's check
// digit and date, the tax number's modulus 10, the bank account's digits, dates, decimals),
// duplicates a 409 naming the field, and the link to an EMPLOYEE contact (another type 422,
// none 404, linked twice 409).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

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

describe('employees: each rule a 400 naming its field, duplicates 409', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'ID number with a wrong check digit',
      { idNumber: '8001015009088', passportNumber: null, passportCountry: null, dateOfBirth: undefined },
      'idNumber',
    ],
    [
      'ID number not a date (30 Feb; check digit right)',
      { idNumber: '8002305009084', passportNumber: null, passportCountry: null, dateOfBirth: undefined },
      'idNumber',
    ],
    [
      'dateOfBirth disagreeing with the ID number',
      { idNumber: '8001015009087', dateOfBirth: '1980-01-02' },
      'dateOfBirth',
    ],
    ['neither ID number nor passport', { passportNumber: undefined, passportCountry: undefined }, 'idNumber'],
    ['a passport without its country', { passportCountry: undefined }, 'passportCountry'],
    ['no date of birth without an ID number', { dateOfBirth: undefined }, 'dateOfBirth'],
    ['a tax number failing the modulus 10 check', { taxNumber: '0001339051' }, 'taxNumber'],
    ['a tax number starting with 4', { taxNumber: '4001339050' }, 'taxNumber'],
    ['endDate before startDate', { endDate: '2019-02-01' }, 'endDate'],
    ['etiStartDate before startDate', { etiStartDate: '2019-01-01' }, 'etiStartDate'],
    ['rate with three decimals', { rate: 100.125 }, 'rate'],
    ['daysPerWeek with two decimals', { daysPerWeek: 4.25 }, 'daysPerWeek'],
    ['dependants without a medical scheme', { medicalDependants: 2 }, 'medicalDependants'],
    ['a blank first name', { firstName: '   ' }, 'firstName'],
  ];
  for (const [title, extra, field] of cases) {
    test(title, async () => {
      const res = await api({ method: 'POST', url: '/api/employees', payload: body(extra) });
      const p = assertProblem(res, 400, title);
      assert.equal(p.field, field, res.body);
      assert.match(p.detail as string, new RegExp(`^${field}`));
    });
  }

  test('a dateOfBirth given settles the century of the ID number (2501010000086: 2025 or 1925)', async () => {
    // 2501010000086 reads as 2025-01-01 (not after today); given 1925-01-01 it is that instead.
    const old = await create({ ...BASE, idNumber: '2501010000086', dateOfBirth: '1925-01-01' });
    assert.equal(old.dateOfBirth, '1925-01-01');
    const wrong = await api({
      method: 'POST',
      url: '/api/employees',
      payload: { ...BASE, idNumber: '2501010000086', dateOfBirth: '1925-01-02' },
    });
    assert.equal(assertProblem(wrong, 400).field, 'dateOfBirth');
  });

  test('bank account: branch code six digits, account number digits only, every part given', async () => {
    const bank = {
      bankName: 'ABSA',
      branchCode: '632005',
      accountHolder: 'S D',
      accountNumber: '4012345678',
    };
    for (const [bad, field] of [
      [{ ...bank, branchCode: '63200' }, 'bankAccount.branchCode'],
      [{ ...bank, accountNumber: '4012-345678' }, 'bankAccount.accountNumber'],
      [{ ...bank, accountNumber: undefined }, 'bankAccount.accountNumber'],
      [{ ...bank, bankName: ' ' }, 'bankAccount.bankName'],
    ] as const) {
      const res = await api({ method: 'POST', url: '/api/employees', payload: body({ bankAccount: bad }) });
      assert.equal(assertProblem(res, 400).field, field, res.body);
    }
  });

  test('an unknown property is refused', async () => {
    const res = await api({ method: 'POST', url: '/api/employees', payload: body({ salary: 1 }) });
    assertProblem(res, 400);
  });

  test('employeeNumber (any case) and ID number are unique among live employees: 409 naming each', async () => {
    await create(body({ employeeNumber: 'DUP-1' }));
    const number = await api({
      method: 'POST',
      url: '/api/employees',
      payload: body({ employeeNumber: 'dup-1' }),
    });
    assert.equal(assertProblem(number, 409).field, 'employeeNumber');
    // 7506300123089 (1975-06-30): odd 7+0+3+0+2+0 = 12, even doubled 5→1, 6→3, 0, 1→2, 3→6, 8→7 = 19;
    // 31 → 9 ✓
    await create({ ...BASE, idNumber: '7506300123089' });
    const id = await api({
      method: 'POST',
      url: '/api/employees',
      payload: { ...BASE, idNumber: '7506300123089' },
    });
    assert.equal(assertProblem(id, 409).field, 'idNumber');
  });
});

describe('employees: the contact link', () => {
  test('an existing EMPLOYEE contact is linked; another type → 422; none → 404; linked twice → 409', async () => {
    const emp = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Lerato Nkosi', contactType: 'EMPLOYEE' },
    });
    const linked = await create(body({ contactId: emp.json().id, firstName: 'Lerato', lastName: 'Nkosi' }));
    assert.equal(linked.contactId, emp.json().id);
    const twice = await api({
      method: 'POST',
      url: '/api/employees',
      payload: body({ contactId: emp.json().id }),
    });
    assert.equal(assertProblem(twice, 409).field, 'contactId');

    const customer = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Kagiso Hardware' },
    });
    const wrong = await api({
      method: 'POST',
      url: '/api/employees',
      payload: body({ contactId: customer.json().id }),
    });
    const p = assertProblem(wrong, 422);
    assert.deepEqual([p.code, p.field], ['CONTACT_NOT_EMPLOYEE', 'contactId']);

    const b = await register(t.app, { plan: 'professional' });
    const theirs = await as(
      t.app,
      b.token,
    )({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Not yours', contactType: 'EMPLOYEE' },
    });
    const foreign = await api({
      method: 'POST',
      url: '/api/employees',
      payload: body({ contactId: theirs.json().id }),
    });
    assert.equal(assertProblem(foreign, 404).field, 'contactId');

    const withEmail = await api({
      method: 'POST',
      url: '/api/employees',
      payload: body({ contactId: emp.json().id, email: 'x@example.co.za' }),
    });
    assert.equal(assertProblem(withEmail, 400).field, 'email');
  });
});
