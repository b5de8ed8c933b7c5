// Pay runs over HTTP: a monthly period of two employees calculated, finalised (its one entry,
// balanced, tying to the EMP201 figures), locked (409 PERIOD_FINALISED), paid (payroll.run.paid
// once, verified with standardwebhooks, with no employee's pay in it); payslips with their IRP5
// lines; a starter pro rata with a bonus; lower plans and another tenant.
//
// The figures (April 2026, tax year 2026/27; paye.test.ts proves the PAYE):
//   Sipho, R25 000, aged 41 at 28 Feb 2027: 300 000 a year → 40 572 ÷ 12 = PAYE 3 381.00
//   Lerato, R40 000, a medical scheme with 3 dependants (no contributions):
//     480 000 → 92 217 ÷ 12 = 7 684.75, less the credit 376 + 376 + 2 × 254 = 1 260 → 6 424.75
//   UIF: each above the R17 712 ceiling → 1% = 177.12 employee and 177.12 employer, each;
//     together 4 × 177.12 = 708.48 to 2310
//   SDL: 1% of 25 000 + 40 000 = 650.00 (780 000 a year: over the R500 000 exemption)
//   Net: 25 000 − 3 381.00 − 177.12 = 21 441.88; 40 000 − 6 424.75 − 177.12 = 33 398.13; 54 840.01
//   Entry: Dr 6500 65 000.00, Dr 6510 354.24, Dr 6520 650.00 = 66 004.24
//          Cr 2300 9 805.75, Cr 2310 708.48, Cr 2320 650.00, Cr 2330 54 840.01 = 66 004.24
//   EMP201: 9 805.75 + 708.48 + 650.00 = 11 164.23 payable
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let receiver: Receiver;
before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
  a = await register(t.app, { plan: 'professional' });
  api = as(t.app, a.token, a.companyId);
});
after(async () => {
  await receiver.close();
  await t.close();
});

let seq = 0;
async function employee(extra: Record<string, unknown>) {
  const res = await api({
    method: 'POST',
    url: '/api/employees',
    payload: {
      firstName: 'Sipho',
      lastName: 'Dlamini',
      passportNumber: `PR${++seq}`,
      passportCountry: 'ZW',
      dateOfBirth: '1985-07-15',
      startDate: '2020-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 25000,
      ...extra,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string };
}

async function period(body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/payroll-periods', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string };
}

const post = (url: string, payload?: Record<string, unknown>) =>
  api({ method: 'POST', url, ...(payload === undefined ? {} : { payload }) });

async function entryLines(entryId: string) {
  return withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .selectFrom('journal_lines as l')
      .innerJoin('accounts as c', (j) =>
        j.onRef('c.tenant_id', '=', 'l.tenant_id').onRef('c.id', '=', 'l.account_id'),
      )
      .select(['c.code', 'l.debit', 'l.credit'])
      .where('l.tenant_id', '=', a.tenantId)
      .where('l.entry_id', '=', entryId)
      .orderBy('c.code')
      .execute(),
  );
}

async function eventually<T>(what: string, fn: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = fn();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a monthly pay run of two employees', () => {
  let periodId: string;
  let sipho: { id: string };
  let lerato: { id: string };

  test('open: 201 with a Location, an overlap is 409, the record has an ETag', async () => {
    sipho = await employee({ employeeNumber: 'E0001' });
    lerato = await employee({
      employeeNumber: 'E0002',
      firstName: 'Lerato',
      rate: 40000,
      medicalScheme: true,
      medicalDependants: 3,
    });
    const res = await post('/api/payroll-periods', {
      frequency: 'monthly',
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      payDate: '2026-04-25',
    });
    assert.equal(res.statusCode, 201, res.body);
    periodId = res.json().id;
    assert.equal(res.headers.location, `/api/payroll-periods/${periodId}`);
    assert.equal(res.json().status, 'open');
    const overlap = await post('/api/payroll-periods', {
      frequency: 'monthly',
      periodStart: '2026-04-15',
      periodEnd: '2026-05-14',
      payDate: '2026-05-14',
    });
    assertProblem(overlap, 409);
    const one = await api({ method: 'GET', url: `/api/payroll-periods/${periodId}` });
    assert.equal(one.statusCode, 200);
    assert.ok(one.headers.etag);
  });

  test('calculate: the totals and each payslip with its IRP5 lines', async () => {
    const res = await post(`/api/payroll-periods/${periodId}/calculate`);
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.deepEqual(
      [p.status, p.employeeCount, p.gross, p.paye, p.uifEmployee, p.uifEmployer, p.sdl, p.eti, p.net],
      ['calculated', 2, 65000, 9805.75, 354.24, 354.24, 650, 0, 54840.01],
    );
    // Calculating again replaces the payslips: still one each.
    assert.equal((await post(`/api/payroll-periods/${periodId}/calculate`)).statusCode, 200);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId } });
    assert.equal(list.statusCode, 200, list.body);
    const items = list.json().items as { id: string; employeeId: string; paye: number; net: number }[];
    assert.equal(items.length, 2);
    const byEmployee = new Map(items.map((s) => [s.employeeId, s]));
    assert.deepEqual([byEmployee.get(sipho.id)!.paye, byEmployee.get(sipho.id)!.net], [3381, 21441.88]);
    assert.deepEqual([byEmployee.get(lerato.id)!.paye, byEmployee.get(lerato.id)!.net], [6424.75, 33398.13]);
    const slip = await api({ method: 'GET', url: `/api/payslips/${byEmployee.get(lerato.id)!.id}` });
    assert.equal(slip.statusCode, 200, slip.body);
    assert.deepEqual(
      slip
        .json()
        .lines.map((l: { kind: string; irp5Code: string; amount: number }) => [l.kind, l.irp5Code, l.amount]),
      [
        ['earning', '3601', 40000],
        ['deduction', '4102', 6424.75],
        ['deduction', '4141', 177.12],
        ['employer', '4141', 177.12],
        ['employer', '4142', 400],
        // The medical credit the PAYE took into account, for her IRP5 (376 + 376 + 2 × 254).
        ['tax_certificate', '4116', 1260],
      ],
    );
  });

  test('finalise: one balanced entry; EMP201 ties to its credits to 2300, 2310, 2320', async () => {
    const res = await post(`/api/payroll-periods/${periodId}/finalise`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'finalised');
    const lines = await entryLines(res.json().entryId);
    assert.deepEqual(
      lines.map((l) => [l.code, Number(l.debit), Number(l.credit)]),
      [
        ['2300', 0, 9805.75],
        ['2310', 0, 708.48],
        ['2320', 0, 650],
        ['2330', 0, 54840.01],
        ['6500', 65000, 0],
        ['6510', 354.24, 0],
        ['6520', 650, 0],
      ],
    );
    const emp = await api({ method: 'GET', url: `/api/payroll-periods/${periodId}/emp201` });
    assert.equal(emp.statusCode, 200, emp.body);
    const { issues, ...figures } = emp.json();
    // Neither has an income tax number (passport holders, none given): the IRP5s will need them.
    assert.deepEqual(
      (issues as { employeeId: string; code: string }[]).map((i) => [i.employeeId, i.code]).sort(),
      [
        [sipho.id, 'NO_TAX_NUMBER'],
        [lerato.id, 'NO_TAX_NUMBER'],
      ].sort(),
    );
    assert.deepEqual(figures, {
      month: '2026-04',
      periodIds: [periodId],
      paye: 9805.75,
      eti: 0,
      payeLessEti: 9805.75,
      uif: 708.48,
      sdl: 650,
      etiBroughtForward: 0,
      etiUtilised: 0,
      etiCarriedForward: 0,
      payable: 11164.23,
    });
  });

  test('a finalised period cannot change: 409 PERIOD_FINALISED', async () => {
    const input = await api({
      method: 'PUT',
      url: `/api/payroll-periods/${periodId}/inputs/${sipho.id}`,
      payload: { bonus: 1000 },
    });
    assertProblem(input, 409, 'PERIOD_FINALISED');
    assertProblem(await post(`/api/payroll-periods/${periodId}/calculate`), 409, 'PERIOD_FINALISED');
    assertProblem(await post(`/api/payroll-periods/${periodId}/finalise`), 409, 'PERIOD_FINALISED');
  });

  test('pay: Dr 2330 / Cr bank; payroll.run.paid once, verified, no employee pay in it; again 409', async () => {
    const hook = await api({
      method: 'POST',
      url: '/api/webhooks',
      payload: {
        url: `http://127.0.0.1:${receiver.port}/run/${a.tenantId}`,
        eventTypes: ['payroll.run.paid'],
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const secret = hook.json().secret;
    const bankId = await withTenant(t.database.db, a.tenantId, async (tx) => {
      const r = await tx
        .selectFrom('accounts')
        .select('id')
        .where('tenant_id', '=', a.tenantId)
        .where('company_id', '=', a.companyId)
        .where('system_key', '=', 'bank')
        .executeTakeFirstOrThrow();
      return r.id;
    });
    const [x, y] = await Promise.all([
      post(`/api/payroll-periods/${periodId}/pay`, { bankAccountId: bankId }),
      post(`/api/payroll-periods/${periodId}/pay`, { bankAccountId: bankId }),
    ]);
    assert.deepEqual([x.statusCode, y.statusCode].sort(), [200, 409]);
    const paid = x.statusCode === 200 ? x.json() : y.json();
    const lines = await entryLines(paid.paymentEntryId);
    assert.deepEqual(
      lines.map((l) => [l.code, Number(l.debit), Number(l.credit)]),
      [
        ['1000', 0, 54840.01],
        ['2330', 54840.01, 0],
      ].sort((p, q) => String(p[0]).localeCompare(String(q[0]))),
    );
    const arrived = () => receiver.received.filter((r) => r.url === `/run/${a.tenantId}`);
    const [req] = await eventually('the delivery', () => arrived().length >= 1 && arrived());
    const body = new Webhook(secret).verify(req!.body, req!.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(body.type, 'payroll.run.paid');
    assert.deepEqual(body.data, {
      periodId,
      frequency: 'monthly',
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      payDate: '2026-04-25',
      paidAt: paid.paidAt,
      employeeCount: 2,
      totals: { gross: 65000, paye: 9805.75, uif: 708.48, sdl: 650, eti: 0, net: 54840.01 },
    });
    // Nothing of a person: no employee id, name or one payslip's figure anywhere in it.
    for (const personal of [
      sipho.id,
      lerato.id,
      'Lerato',
      'Sipho',
      '21441.88',
      '33398.13',
      '3381',
      '6424.75',
    ])
      assert.ok(!req!.body.includes(personal), `the event carries ${personal}`);
    // Nothing more arrives: every delivery of the tenant has finished.
    await t.deliveriesSettled(a.tenantId);
    assert.equal(arrived().length, 1);
  });
});

describe('a starter part-way through the month with a bonus and overtime', () => {
  test('pro rata basic, overtime at 1.5×, the bonus by the difference method', async () => {
    // Thabo, R30 000 a month, starts 2026-05-12: 20 of May's 31 days → 30 000 × 20 ÷ 31 = 19 354.84.
    // Overtime 10 h: hourly 30 000 × 12 ÷ 52 ÷ 40 = 173.0769…; × 1.5 = 259.6154…; × 10 = 2 596.15.
    const e = await employee({
      employeeNumber: 'S0001',
      firstName: 'Thabo',
      rate: 30000,
      startDate: '2026-05-12',
    });
    const p = await period({
      frequency: 'monthly',
      periodStart: '2026-05-01',
      periodEnd: '2026-05-31',
      payDate: '2026-05-25',
    });
    const put = await api({
      method: 'PUT',
      url: `/api/payroll-periods/${p.id}/inputs/${e.id}`,
      payload: { overtimeHours: 10, bonus: 5000 },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal((await post(`/api/payroll-periods/${p.id}/calculate`)).statusCode, 200);
    // Sipho and Lerato (monthly, employed all May) are in the period too.
    const list = await api({
      method: 'GET',
      url: '/api/payslips',
      query: { periodId: p.id, employeeId: e.id },
    });
    assert.equal(list.json().total, 1, list.body);
    const slip = await api({ method: 'GET', url: `/api/payslips/${list.json().items[0].id}` });
    const s = slip.json();
    const line = (code: string) => s.lines.find((l: { irp5Code: string }) => l.irp5Code === code)?.amount;
    assert.equal(line('3601'), 19354.84);
    assert.equal(line('3607'), 2596.15);
    assert.equal(line('3605'), 5000);
    // Gross 19 354.84 + 2 596.15 + 5 000 = 26 950.99; the share employed 20 ÷ 31.
    assert.equal(s.gross, 26950.99);
    assert.equal(s.daysWorked, 20);
    // Regular 21 950.99 grossed up: × 12 ÷ (20/31) = 408 288.414 a year, in the 2026/27 bracket from
    // 383 100: 79 998 + 31% × 25 188.414 (7 808.408) = 87 806.408 − the primary rebate 17 820 =
    // 69 986.408 a year; × (20/31) ÷ 12 = 3 762.710. The bonus: 413 288.414 is in the same bracket,
    // so the difference is 31% × 5 000 = 1 550. PAYE 5 312.710 → 5 312.71.
    assert.equal(s.paye, 5312.71);
    // UIF: 19 354.84 + 2 596.15 + 5 000 = 26 950.99, over the ceiling: 177.12. SDL 1% of 26 950.99 = 269.51.
    assert.equal(s.uifEmployee, 177.12);
    assert.equal(s.sdl, 269.51);
    // Net 26 950.99 − 5 312.71 − 177.12 = 21 461.16.
    assert.equal(s.net, 21461.16);
  });
});

describe('a young employee: the ETI against PAYE, an employer under the SDL exemption', () => {
  test('the ETI reduces 2300 and is income on 4910; EMP201 shows it', async () => {
    // Another business, so that only this employee is paid. Naledi, born 2004-01-10 (22 at the end
    // of June 2026), R5 400 a month from 2026-01-01, ETI-eligible, 40 hours a week (173.33 a
    // month). The wage test: the National Minimum Wage R30.23 × 520/3 h = R5 239.87 ≤ R5 400
    // (ETI Act s4(1): at R5 000 she would claim none). June 2026 is her ETI month 6 (first twelve
    // months): R5 400 is in the R2 500–R5 500 band, a fixed R1 500.
    // PAYE: 64 800 a year is under the R99 000 threshold → 0. UIF 1% of 5 400 = 54.00 each.
    // SDL: the employer's 64 800 a year is at most R500 000 → exempt, 0. Net 5 400 − 54 = 5 346.00.
    // Entry: Dr 6500 5 400, Dr 6510 54, Dr 2300 1 500 (PAYE 0 less ETI 1 500) = 6 954;
    //        Cr 2310 108, Cr 2330 5 346, Cr 4910 1 500 = 6 954.
    const c = await register(t.app, { plan: 'professional' });
    const apiC = as(t.app, c.token, c.companyId);
    const e = await apiC({
      method: 'POST',
      url: '/api/employees',
      payload: {
        firstName: 'Naledi',
        lastName: 'Khumalo',
        passportNumber: 'PETI1',
        passportCountry: 'LS',
        dateOfBirth: '2004-01-10',
        startDate: '2026-01-01',
        payFrequency: 'monthly',
        payBasis: 'salary',
        rate: 5400,
        etiEligible: true,
      },
    });
    assert.equal(e.statusCode, 201, e.body);
    const p = await apiC({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: {
        frequency: 'monthly',
        periodStart: '2026-06-01',
        periodEnd: '2026-06-30',
        payDate: '2026-06-25',
      },
    });
    assert.equal(p.statusCode, 201, p.body);
    const calc = await apiC({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` });
    assert.deepEqual(
      [calc.json().paye, calc.json().eti, calc.json().uifEmployee, calc.json().sdl, calc.json().net],
      [0, 1500, 54, 0, 5346],
    );
    const fin = await apiC({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/finalise` });
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
        .orderBy('a.code')
        .execute(),
    );
    assert.deepEqual(
      lines.map((l) => [l.code, Number(l.debit), Number(l.credit)]),
      [
        ['2300', 1500, 0],
        ['2310', 0, 108],
        ['2330', 0, 5346],
        ['4910', 0, 1500],
        ['6500', 5400, 0],
        ['6510', 54, 0],
      ],
    );
    const emp = await apiC({ method: 'GET', url: `/api/payroll-periods/${p.json().id}/emp201` });
    // PAYE 0 less ETI 1 500 is the −1 500 on 2300; none of the ETI can be used against nil PAYE,
    // so it rolls over (ETI Act s9(1): pay-runs.emp201.test.ts) and the payable is UIF 108 + SDL 0.
    assert.deepEqual(
      [
        emp.json().payeLessEti,
        emp.json().uif,
        emp.json().sdl,
        emp.json().etiUtilised,
        emp.json().etiCarriedForward,
        emp.json().payable,
      ],
      [-1500, 108, 0, 0, 1500, 108],
    );
  });
});

describe('unpaid leave', () => {
  test('approved unpaid leave in the period reduces the basic; a request crossing its end counts the part inside', async () => {
    // Another business. Bongani, R26 000 a month, 5 days a week: a day is 26 000 × 12 ÷ 52 ÷ 5 =
    // 1 200.00. July 2026: unpaid Mon 6 – Tue 7 (2 days), and Thu 30 July – Tue 4 August (4 days, of
    // which Thu 30 and Fri 31 are in July: 2). 4 days → 4 800.00; basic 26 000 − 4 800 = 21 200.00.
    // PAYE: 254 400 a year: 44 118 + 26% × 9 300 (2 418) = 46 536 − 17 820 = 28 716 ÷ 12 = 2 393.00.
    // UIF: over the ceiling, 177.12. Net 21 200 − 2 393 − 177.12 = 18 629.88.
    const c = await register(t.app, { plan: 'professional' });
    const apiC = as(t.app, c.token, c.companyId);
    const e = await apiC({
      method: 'POST',
      url: '/api/employees',
      payload: {
        firstName: 'Bongani',
        lastName: 'Zulu',
        passportNumber: 'PUL1',
        passportCountry: 'ZW',
        dateOfBirth: '1980-02-02',
        startDate: '2020-01-01',
        payFrequency: 'monthly',
        payBasis: 'salary',
        rate: 26000,
      },
    });
    assert.equal(e.statusCode, 201, e.body);
    await withTenant(t.database.db, c.tenantId, (tx) =>
      tx
        .insertInto('leave_requests')
        .values(
          [
            ['2026-07-06', '2026-07-07', 2],
            ['2026-07-30', '2026-08-04', 4],
          ].map(([from, to, days]) => ({
            tenant_id: c.tenantId,
            id: crypto.randomUUID(),
            company_id: c.companyId,
            employee_id: e.json().id,
            leave_type: 'unpaid' as const,
            starts_on: String(from),
            ends_on: String(to),
            days: Number(days),
            status: 'approved' as const,
          })),
        )
        .execute(),
    );
    const p = await apiC({
      method: 'POST',
      url: '/api/payroll-periods',
      payload: {
        frequency: 'monthly',
        periodStart: '2026-07-01',
        periodEnd: '2026-07-31',
        payDate: '2026-07-25',
      },
    });
    assert.equal(
      (await apiC({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` })).statusCode,
      200,
    );
    const list = await apiC({ method: 'GET', url: '/api/payslips', query: { periodId: p.json().id } });
    const s = (await apiC({ method: 'GET', url: `/api/payslips/${list.json().items[0].id}` })).json();
    assert.deepEqual(
      [s.unpaidDays, s.gross, s.paye, s.uifEmployee, s.net],
      [4, 21200, 2393, 177.12, 18629.88],
    );
    assert.deepEqual(
      s.lines
        .filter((l: { irp5Code: string }) => l.irp5Code === '3601')
        .map((l: { amount: number }) => l.amount),
      [26000, -4800],
    );
  });
});

describe('access', () => {
  test('a lower plan: 403 MODULE_NOT_LICENSED; another tenant’s period: 404', async () => {
    const starter = await register(t.app, { plan: 'starter' });
    const res = await as(
      t.app,
      starter.token,
      starter.companyId,
    )({ method: 'GET', url: '/api/payroll-periods' });
    assertProblem(res, 403, 'MODULE_NOT_LICENSED');
    const mine = await period({
      frequency: 'weekly',
      periodStart: '2026-06-01',
      periodEnd: '2026-06-07',
      payDate: '2026-06-07',
    });
    const other = await register(t.app, { plan: 'professional' });
    const apiB = as(t.app, other.token, other.companyId);
    assertProblem(await apiB({ method: 'GET', url: `/api/payroll-periods/${mine.id}` }), 404);
    assertProblem(await apiB({ method: 'POST', url: `/api/payroll-periods/${mine.id}/calculate` }), 404);
  });
});

describe('hourly staff on a weekly run', () => {
  test('wages are the hours worked × the rate; overtime at 1.5×; weekly PAYE and UIF', async () => {
    // Zanele, paid R60.00 an hour, weekly; the week of 7–13 September 2026: 45 hours worked and 5 of
    // overtime. Wages 45 × 60.00 = 2 700.00; overtime 5 × 1.5 × 60.00 = 450.00; gross 3 150.00.
    // PAYE (2026/27): 3 150 × 52 = 163 800 a year, in the first bracket: 18% = 29 484 − the
    // primary rebate 17 820 = 11 664 a year ÷ 52 = 224.307… → 224.31.
    // UIF: the weekly ceiling is 17 712 × 12 ÷ 52 = 4 087.38; 3 150 is under it: 1% = 31.50.
    // SDL: the run is Zanele alone (163 800 a year annualised), but the SDL exemption is the
    // employer's (SDL Act s4(b)): the company also pays Sipho 300 000, Lerato 480 000 and Thabo
    // 360 000 a year, so with Zanele's 60 × 40 × 52 = 124 800 it expects 1 264 800 > R500 000 →
    // liable: 1% × 3 150 = 31.50 (per run it was exempt).
    // Net: 3 150.00 − 224.31 − 31.50 = 2 894.19.
    const e = await employee({
      employeeNumber: 'H0001',
      firstName: 'Zanele',
      payFrequency: 'weekly',
      payBasis: 'hourly',
      rate: 60,
    });
    const p = await period({
      frequency: 'weekly',
      periodStart: '2026-09-07',
      periodEnd: '2026-09-13',
      payDate: '2026-09-11',
    });
    const put = await api({
      method: 'PUT',
      url: `/api/payroll-periods/${p.id}/inputs/${e.id}`,
      payload: { ordinaryHours: 45, overtimeHours: 5 },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal((await post(`/api/payroll-periods/${p.id}/calculate`)).statusCode, 200);
    const list = await api({ method: 'GET', url: '/api/payslips', query: { periodId: p.id } });
    assert.equal(list.json().total, 1, list.body);
    const s = (await api({ method: 'GET', url: `/api/payslips/${list.json().items[0].id}` })).json();
    const wages = s.lines.find((l: { description: string }) => l.description === 'Wages');
    assert.deepEqual([wages.irp5Code, wages.quantity, wages.rate, wages.amount], ['3601', 45, 60, 2700]);
    const overtime = s.lines.find((l: { irp5Code: string }) => l.irp5Code === '3607');
    assert.deepEqual([overtime.quantity, overtime.rate, overtime.amount], [5, 90, 450]);
    assert.deepEqual(
      [s.gross, s.paye, s.uifEmployee, s.uifEmployer, s.sdl, s.net],
      [3150, 224.31, 31.5, 31.5, 31.5, 2894.19],
    );
  });
});

// Issue 35: overtimeHours 1000000000 answered the database's "A number is out of range" naming no
// field (the column is numeric(10,2), the schema allowed up to 999 999 999 999).
describe('an input beyond its column is a 400 naming it', () => {
  test('overtimeHours 1 000 000 000 (numeric(10,2)): 400 naming it; the largest each input takes is kept', async () => {
    const e = await employee({ employeeNumber: 'BIG1', firstName: 'Bongani' });
    const p = await period({
      frequency: 'monthly',
      periodStart: '2026-07-01',
      periodEnd: '2026-07-31',
      payDate: '2026-07-25',
    });
    const put = (payload: Record<string, number>) =>
      api({ method: 'PUT', url: `/api/payroll-periods/${p.id}/inputs/${e.id}`, payload });
    const refused = assertProblem(await put({ overtimeHours: 1_000_000_000 }), 400, 'overtimeHours');
    assert.equal(refused.field, 'overtimeHours');
    // The largest each input's schema takes fits its column (the amounts are numeric(20,2)).
    const largest = await put({
      ordinaryHours: 9999,
      overtimeHours: 9999,
      commission: 999_999_999_999,
      bonus: 999_999_999_999,
      travelAllowance: 999_999_999_999,
      otherAllowances: 999_999_999_999,
      otherDeductions: 999_999_999_999,
    });
    assert.equal(largest.statusCode, 200, largest.body);
  });
});
