// Leave over HTTP, figures worked by hand. "Today" is fixed at 15 May 2026. The main employee
// started on 1 January 2025 and works Monday to Friday, so on any day of 2026 the annual cycle
// is 1 January – 31 December 2026 (365 days) and six months have long passed for sick leave.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied, assertProblem } from '../../../test/support/problem.ts';
import { addUser, login } from '../../platform/auth/auth.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { unpaidLeaveDays } from './index.ts';
import { leaveEmployee } from './leave.factories.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let emp: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-15T08:00:00Z');
  a = await register(t.app, { plan: 'professional' });
  api = as(t.app, a.token, a.companyId);
  emp = await leaveEmployee(t, api, a.tenantId, a.companyId, { startDate: '2025-01-01' });
});
after(() => t.close());

function ask(body: Record<string, unknown>) {
  return api({ method: 'POST', url: '/api/leave-requests', payload: body });
}
async function asked(body: Record<string, unknown>) {
  const res = await ask(body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
const act = (id: string, verb: string, who = api) =>
  who({ method: 'POST', url: `/api/leave-requests/${id}/${verb}` });
async function balances(employeeId: string, asOf: string) {
  const res = await api({ method: 'GET', url: `/api/employees/${employeeId}/leave-balances?asOf=${asOf}` });
  assert.equal(res.statusCode, 200, res.body);
  return Object.fromEntries(
    (res.json().balances as Array<Record<string, unknown>>).map((b) => [b.type, b]),
  ) as Record<string, Record<string, unknown>>;
}

describe('leave requests', () => {
  let easter: { id: string; days: number };
  test('across a weekend and Easter: 3 working days', async () => {
    // Thu 2 – Wed 8 April 2026: Thu 2 counts; Good Friday 3, Sat 4, Sun 5 and Family Day
    // Monday 6 do not; Tue 7 and Wed 8 count → 3 days. Balance as of 2 April: employed
    // 31 + 28 + 31 + 2 = 92 days of the 365-day cycle: 15 × 92 / 365 = 3.78 ≥ 3.
    easter = await asked({ employeeId: emp, type: 'annual', startDate: '2026-04-02', endDate: '2026-04-08' });
    assert.equal(easter.days, 3);
    const got = await api({ method: 'GET', url: `/api/leave-requests/${easter.id}` });
    assert.equal(got.statusCode, 200);
    assert.ok(got.headers.etag, 'a single record carries an ETag');
    assert.deepEqual(
      [got.json().status, got.json().startDate, got.json().endDate, got.json().type],
      ['pending', '2026-04-02', '2026-04-08', 'annual'],
    );
  });

  test('beyond the balance: 409 LEAVE_BALANCE_EXCEEDED naming the days available', async () => {
    // Thu 9 – Fri 10 April: 2 days. As of 9 April: 99 days employed → 15 × 99 / 365 = 4.068…
    // → 4.06; less the 3 pending → 1.06 < 2.
    const res = await ask({
      employeeId: emp,
      type: 'annual',
      startDate: '2026-04-09',
      endDate: '2026-04-10',
    });
    const p = assertProblem(res, 409);
    assert.equal(p.code, 'LEAVE_BALANCE_EXCEEDED');
    assert.match(
      String(p.detail),
      /^1\.06 days of annual leave available as of 2026-04-09 \(after 3 pending\); 2 asked for/,
    );
    // Half of Thu 9 April fits: 0.5 ≤ 1.06.
    const half = await asked({
      employeeId: emp,
      type: 'annual',
      startDate: '2026-04-09',
      endDate: '2026-04-09',
      halfDay: true,
    });
    assert.equal(half.days, 0.5);
  });

  test('overlapping a pending request: 409 LEAVE_OVERLAP', async () => {
    const res = await ask({ employeeId: emp, type: 'sick', startDate: '2026-04-07', endDate: '2026-04-07' });
    assert.equal(assertProblem(res, 409).code, 'LEAVE_OVERLAP');
  });

  test('approval needs payroll:approve (403 without); only a pending request (409 after)', async () => {
    const role = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/roles',
      payload: { name: 'Leave clerk', permissions: ['payroll:read', 'payroll:write'] },
    });
    assert.equal(role.statusCode, 201, role.body);
    const clerk = await addUser(t, a.tenantId, role.json().id);
    const signedIn = await login(t.app, clerk.email, clerk.password);
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    const clerkApi = as(t.app, signedIn.json().accessToken, a.companyId);
    assertPermissionDenied(await act(easter.id, 'approve', clerkApi), 'payroll', 'approve');
    assertPermissionDenied(await act(easter.id, 'reject', clerkApi), 'payroll', 'approve');
    const ok = await act(easter.id, 'approve');
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().status, 'approved');
    assert.equal(ok.json().decidedBy, a.userId);
    assertProblem(await act(easter.id, 'approve'), 409);
    assertProblem(await act(easter.id, 'reject'), 409);
    // Started on 2 April, before today (15 May): no longer cancellable.
    assertProblem(await act(easter.id, 'cancel'), 409);
  });

  test('balances as of 30 April, with an opening balance', async () => {
    const adj = await api({
      method: 'POST',
      url: '/api/leave-adjustments',
      payload: {
        employeeId: emp,
        type: 'annual',
        effectiveOn: '2026-01-01',
        days: 5,
        reason: 'Opening balance',
      },
    });
    assert.equal(adj.statusCode, 201, adj.body);
    assert.equal((await api({ method: 'GET', url: adj.headers.location as string })).statusCode, 200);
    const b = await balances(emp, '2026-04-30');
    // Annual: employed 1 Jan – 30 Apr = 31 + 28 + 31 + 30 = 120 days → 15 × 120 / 365 =
    // 4.9315… → 4.93; taken 3 (approved), pending 0.5, adjusted +5 → available 4.93 − 3 + 5 = 6.93.
    assert.deepEqual(b.annual, {
      type: 'annual',
      entitled: 4.93,
      taken: 3,
      pending: 0.5,
      adjusted: 5,
      available: 6.93,
      cycleStart: '2026-01-01',
      cycleEnd: '2026-12-31',
    });
    // Sick: 5 × 6 = 30 for the 36-month cycle from 1 January 2025.
    assert.deepEqual([b.sick!.entitled, b.sick!.available, b.sick!.cycleEnd], [30, 30, '2027-12-31']);
    assert.deepEqual(
      [b.family_responsibility!.entitled, b.family_responsibility!.cycleStart],
      [3, '2026-01-01'],
    );
    assert.deepEqual([b.unpaid!.entitled, b.unpaid!.available, b.unpaid!.cycleEnd], [null, null, null]);
  });

  test('sick leave in the first six months: 1 day per 26 worked', async () => {
    const fresh = await leaveEmployee(t, api, a.tenantId, a.companyId, { startDate: '2026-03-01' });
    // To Mon 30 March: weekdays 2–6, 9–13, 16–20, 23–27, 30 = 21 worked → 0 days.
    const early = await ask({
      employeeId: fresh,
      type: 'sick',
      startDate: '2026-03-30',
      endDate: '2026-03-30',
    });
    assert.match(String(assertProblem(early, 409).detail), /^0 days of sick leave available/);
    // To Thu 30 April: 22 in March + 19 in April (22 weekdays less 3, 6 and 27 April) = 41 → 1.
    await asked({ employeeId: fresh, type: 'sick', startDate: '2026-04-30', endDate: '2026-04-30' });
    // Family responsibility before four months (30 June): 0; from 1 July: 3.
    const b = await balances(fresh, '2026-06-30');
    assert.equal(b.family_responsibility!.entitled, 0);
    assert.equal((await balances(fresh, '2026-07-01')).family_responsibility!.entitled, 3);
  });

  test('bad input names the field', async () => {
    const half = await ask({
      employeeId: emp,
      type: 'annual',
      startDate: '2026-06-01',
      endDate: '2026-06-02',
      halfDay: true,
    });
    assert.equal(assertProblem(half, 400).field, 'halfDay');
    // Sat 20 – Sun 21 June: no working day.
    const weekend = await ask({
      employeeId: emp,
      type: 'unpaid',
      startDate: '2026-06-20',
      endDate: '2026-06-21',
    });
    assert.equal(assertProblem(weekend, 400).field, 'startDate');
    const before = await ask({
      employeeId: emp,
      type: 'unpaid',
      startDate: '2024-12-31',
      endDate: '2025-01-02',
    });
    assert.equal(assertProblem(before, 400).field, 'startDate');
    const nobody = await ask({
      employeeId: crypto.randomUUID(),
      type: 'unpaid',
      startDate: '2026-06-01',
      endDate: '2026-06-01',
    });
    assert.equal(assertProblem(nobody, 400).field, 'employeeId');
  });

  test('unpaid leave for payslips; cancelling before the first day; another tenant sees 404', async () => {
    // Mon 15 – Fri 19 June 2026, Youth Day (Tue 16) left out: 4 days.
    const june = await asked({
      employeeId: emp,
      type: 'unpaid',
      startDate: '2026-06-15',
      endDate: '2026-06-19',
    });
    assert.equal(june.days, 4);
    assert.equal((await act(june.id, 'approve')).statusCode, 200);
    const unpaid = (from: string, to: string) =>
      withTenant(t.database.db, a.tenantId, (tx) => unpaidLeaveDays(tx, a.companyId, emp, from, to));
    assert.equal((await unpaid('2026-06-01', '2026-06-30')).toString(), '4');
    // From Wed 17 June: 17, 18, 19 → 3.
    assert.equal((await unpaid('2026-06-17', '2026-06-30')).toString(), '3');
    assert.equal((await unpaid('2026-07-01', '2026-07-31')).toString(), '0');
    // 15 June is after today (15 May): cancellable; then it counts no more.
    const cancelled = await act(june.id, 'cancel');
    assert.equal(cancelled.json().status, 'cancelled', cancelled.body);
    assert.equal((await unpaid('2026-06-01', '2026-06-30')).toString(), '0');
    assertProblem(await act(june.id, 'cancel'), 409);

    const b = await register(t.app, { plan: 'professional' });
    const other = as(t.app, b.token, b.companyId);
    assertProblem(await other({ method: 'GET', url: `/api/leave-requests/${june.id}` }), 404);
    assertProblem(await other({ method: 'GET', url: `/api/employees/${emp}/leave-balances` }), 404);
  });

  test('reject; approval checks the balance again (an adjustment made since)', async () => {
    const fresh = await leaveEmployee(t, api, a.tenantId, a.companyId, { startDate: '2026-03-01' });
    // Mon 4 – Tue 5 May: 2 days. As of 4 May: employed 31 + 30 + 4 = 65 of 365 days →
    // 15 × 65 / 365 = 2.671… → 2.67 ≥ 2.
    const may = await asked({
      employeeId: fresh,
      type: 'annual',
      startDate: '2026-05-04',
      endDate: '2026-05-05',
    });
    assert.equal(may.days, 2);
    const minus = await api({
      method: 'POST',
      url: '/api/leave-adjustments',
      payload: {
        employeeId: fresh,
        type: 'annual',
        effectiveOn: '2026-04-01',
        days: -1,
        reason: 'Correction',
      },
    });
    assert.equal(minus.statusCode, 201, minus.body);
    // Now 2.67 − 1 = 1.67 < 2.
    const refused = await act(may.id, 'approve');
    assert.equal(assertProblem(refused, 409).code, 'LEAVE_BALANCE_EXCEEDED');
    assert.match(String(assertProblem(refused, 409).detail), /^1\.67 days of annual leave/);
    const rejected = await act(may.id, 'reject');
    assert.equal(rejected.json().status, 'rejected', rejected.body);
    assert.equal(rejected.json().decidedBy, a.userId);
    // A rejected request no longer blocks its days.
    await asked({ employeeId: fresh, type: 'unpaid', startDate: '2026-05-04', endDate: '2026-05-04' });
    const zero = await api({
      method: 'POST',
      url: '/api/leave-adjustments',
      payload: { employeeId: fresh, type: 'annual', effectiveOn: '2026-04-01', days: 0, reason: 'Nothing' },
    });
    assert.equal(assertProblem(zero, 400).field, 'days');
  });

  test('the list: filters and paging', async () => {
    const res = await api({
      method: 'GET',
      url: `/api/leave-requests?employeeId=${emp}&type=annual&status=approved`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().items.map((r: { startDate: string }) => r.startDate),
      ['2026-04-02'],
    );
    const april = await api({
      method: 'GET',
      url: `/api/leave-requests?employeeId=${emp}&from=2026-04-09&to=2026-04-30`,
    });
    assert.deepEqual(
      april.json().items.map((r: { startDate: string; days: number }) => [r.startDate, r.days]),
      [['2026-04-09', 0.5]],
    );
    // updatedSince: only what changed at or after the instant (the clock stands still here, so
    // a later instant finds nothing and an earlier one everything).
    const later = await api({
      method: 'GET',
      url: `/api/leave-requests?employeeId=${emp}&updatedSince=2099-01-01T00:00:00Z`,
    });
    assert.equal(later.json().total, 0);
    const all = await api({
      method: 'GET',
      url: `/api/leave-requests?employeeId=${emp}&updatedSince=2000-01-01T00:00:00Z`,
    });
    assert.equal(all.json().total, 3); // Easter (approved), the half day (pending), June (cancelled)
  });
});
