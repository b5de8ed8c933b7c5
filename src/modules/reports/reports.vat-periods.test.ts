// VAT periods and their submission (issue 14): the periods of the company's VAT category as a bare
// array; a submitted period answers the figures frozen when it was submitted; what is posted later
// dated in it is reported by the next open period, an increase of output tax in field 12 and of
// input tax in field 18 (a decrease of output tax in 18, of input tax in 12); the refusals.
// Every journal is at 15% (VAT Act s7(1)(a)); the clock is 2018-07-15, in the financial year
// March 2018 to February 2019 (year end February, the default).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { type Api, report } from './reports.factories.ts';

let t: TestApp;
let a: Registered;
let api: Api;

before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2018-07-15T08:00:00.000Z');
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
  const res = await api({
    method: 'PATCH',
    url: `/api/companies/${a.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => t.close());

/** A sale of `net` at 15% (Cr sales, Cr VAT output), or with a negative net a credit note. */
async function sale(date: string, net: number) {
  const vat = Math.round(net * 15) / 100;
  const side = net > 0 ? 'credit' : 'debit';
  const other = net > 0 ? 'debit' : 'credit';
  const res = await api({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: {
      date,
      description: `Sale ${net}`,
      lines: [
        { accountCode: '1000', [other]: Math.abs(net) + Math.abs(vat) },
        { accountCode: '4000', [side]: Math.abs(net), taxCode: 'standard', taxRate: 15 },
        { accountCode: '2100', [side]: Math.abs(vat), taxCode: 'standard', taxRate: 15 },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
}

/** A purchase of `net` at 15% (Dr fees, Dr VAT input). */
async function purchase(date: string, net: number) {
  const vat = Math.round(net * 15) / 100;
  const res = await api({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: {
      date,
      description: `Purchase ${net}`,
      lines: [
        { accountCode: '6000', debit: net, taxCode: 'input_standard', taxRate: 15 },
        { accountCode: '1300', debit: vat, taxCode: 'input_standard', taxRate: 15 },
        { accountCode: '1000', credit: net + vat },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
}

interface Period {
  id: string;
  from: string;
  to: string;
  status: 'open' | 'submitted';
  submittedAt: string | null;
}
interface Vat {
  period: Period | null;
  adjustments: Array<{ periodId: string; outputTax: number; inputTax: number }>;
  vat201: Record<string, number>;
}

const periods = (query = '') => report<Period[]>(api, `/api/reports/vat/periods${query}`);
const vat = (query: string) => report<Vat>(api, `/api/reports/vat?${query}`);
const submit = (id: string, as_ = api) =>
  as_({ method: 'POST', url: `/api/reports/vat/periods/${id}/submit` });
const setCategory = async (vatCategory: string) => {
  const res = await api({ method: 'PATCH', url: `/api/companies/${a.companyId}`, payload: { vatCategory } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().vatCategory, vatCategory);
};
/** The fields that move in these tests. */
const fields = (r: Vat) => {
  const v = r.vat201;
  return {
    f4: v.field4,
    f12: v.field12,
    f13: v.field13,
    f15: v.field15,
    f18: v.field18,
    f19: v.field19,
    f20: v.field20,
  };
};

describe('the periods list follows the VAT category', () => {
  test('B by default: six two-month periods ending in the even months of the year', async () => {
    const company = (await api({ method: 'GET', url: `/api/companies/${a.companyId}` })).json();
    assert.equal(company.vatCategory, 'B');
    const list = await periods();
    assert.ok(Array.isArray(list), 'a bare array');
    assert.deepEqual(
      list.map((p) => [p.id, p.from, p.to, p.status, p.submittedAt]),
      [
        ['2018-04', '2018-03-01', '2018-04-30', 'open', null],
        ['2018-06', '2018-05-01', '2018-06-30', 'open', null],
        ['2018-08', '2018-07-01', '2018-08-31', 'open', null],
        ['2018-10', '2018-09-01', '2018-10-31', 'open', null],
        ['2018-12', '2018-11-01', '2018-12-31', 'open', null],
        ['2019-02', '2019-01-01', '2019-02-28', 'open', null],
      ],
    );
    // A range of its own: the periods that overlap it.
    assert.deepEqual(
      (await periods('?from=2018-01-01&to=2018-03-31')).map((p) => p.id),
      ['2018-02', '2018-04'],
    );
    assertProblem(
      await api({ method: 'GET', url: '/api/reports/vat/periods?from=2018-05-01&to=2018-04-01' }),
      400,
      'to',
    );
  });

  test('A, C, D and E; an unknown category is a 400 naming it', async () => {
    await setCategory('A');
    // February-March 2018 (overlapping March) to February-March 2019.
    assert.deepEqual(
      (await periods()).map((p) => p.id),
      ['2018-03', '2018-05', '2018-07', '2018-09', '2018-11', '2019-01', '2019-03'],
    );
    await setCategory('C');
    const monthly = await periods();
    assert.equal(monthly.length, 12);
    assert.deepEqual([monthly[0]!.from, monthly[11]!.to], ['2018-03-01', '2019-02-28']);
    await setCategory('D');
    assert.deepEqual(
      (await periods()).map((p) => [p.id, p.from, p.to]),
      [
        ['2018-08', '2018-03-01', '2018-08-31'],
        ['2019-02', '2018-09-01', '2019-02-28'],
      ],
    );
    await setCategory('E');
    assert.deepEqual(
      (await periods()).map((p) => [p.id, p.from, p.to]),
      [['2019-02', '2018-03-01', '2019-02-28']],
    );
    const bad = await api({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { vatCategory: 'F' },
    });
    assertProblem(bad, 400, 'vatCategory');
    await setCategory('B');
  });
});

describe('submitting a period freezes it; later postings go to the next open period', () => {
  test('refusals: not a period, not ended, period with dates, not allowed', async () => {
    // No B period ends in May: 404 on submit, 400 naming period on the report.
    assert.equal((await submit('2018-05')).statusCode, 404);
    assertProblem(await api({ method: 'GET', url: '/api/reports/vat?period=2018-05' }), 400, 'period');
    assertProblem(await api({ method: 'GET', url: '/api/reports/vat?period=May' }), 400, 'period');
    assertProblem(
      await api({ method: 'GET', url: '/api/reports/vat?period=2018-04&from=2018-03-01' }),
      400,
      'period',
    );
    // July-August 2018 ends 2018-08-31, after today (2018-07-15).
    assert.equal(assertProblem(await submit('2018-08'), 422).code, 'UNPROCESSABLE');
    // A viewer reads reports but may not submit a return (reports:approve).
    const viewer = await addMember(t, a, 'viewer');
    assert.equal((await submit('2018-04', as(t.app, viewer.token, a.companyId))).statusCode, 403);
  });

  test('submit, freeze, and the late postings in fields 12 and 18 of the next open period', async () => {
    // March-April: a sale 1,000 + VAT 150 (field 4), a purchase 200 + VAT 30 (field 15):
    // 20 = 150 − 30 = 120.
    await sale('2018-04-10', 1000);
    await purchase('2018-04-12', 200);
    const before = await vat('period=2018-04');
    assert.deepEqual(fields(before), { f4: 150, f12: 0, f13: 150, f15: 30, f18: 0, f19: 30, f20: 120 });

    const res = await submit('2018-04');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      id: '2018-04',
      from: '2018-03-01',
      to: '2018-04-30',
      status: 'submitted',
      submittedAt: '2018-07-15T08:00:00.000Z',
    });
    assert.equal(assertProblem(await submit('2018-04'), 409).code, 'VAT_PERIOD_SUBMITTED');
    assert.equal((await periods())[0]!.status, 'submitted');

    // Posted later, dated in March-April: a sale 2,000 + VAT 300, a purchase 400 + VAT 60, and
    // a credit note 100 + VAT 15. The submitted period does not move (by id or by its dates)...
    await sale('2018-04-20', 2000);
    await purchase('2018-04-21', 400);
    await sale('2018-04-25', -100);
    const frozen = await vat('period=2018-04');
    assert.deepEqual(fields(frozen), fields(before));
    assert.equal(frozen.period?.status, 'submitted');
    assert.deepEqual((await vat('from=2018-03-01&to=2018-04-30')).vat201, frozen.vat201);
    // ...while a range that is no period follows the ledger: April's output tax 150 + 300 − 15.
    assert.equal((await vat('from=2018-04-01&to=2018-04-30')).vat201.field4, 435);

    // May-June, the next open period: its own sale 1,000 + VAT 150 (field 4), and March-April's
    // differences: output tax 300 − 15 = 285 more (field 12), input tax 60 more (field 18).
    // 13 = 150 + 285 = 435; 19 = 60; 20 = 375.
    await sale('2018-05-05', 1000);
    const next = await vat('period=2018-06');
    assert.deepEqual(next.adjustments, [{ periodId: '2018-04', outputTax: 285, inputTax: 60 }]);
    assert.deepEqual(fields(next), { f4: 150, f12: 285, f13: 435, f15: 0, f18: 60, f19: 60, f20: 375 });
    // A period after that reports nothing of March-April (May-June is open between them).
    assert.deepEqual((await vat('period=2018-08')).adjustments, []);

    // May-June submitted with those adjustments: it answers them, frozen.
    assert.equal((await submit('2018-06')).statusCode, 200);
    // More later postings: March-April again (a sale 100 + VAT 15) and May-June (a purchase 100
    // + VAT 15, a credit note 200 + VAT 30).
    await sale('2018-04-28', 100);
    await purchase('2018-06-15', 100);
    await sale('2018-06-20', -200);
    const june = await vat('period=2018-06');
    assert.deepEqual(june.adjustments, next.adjustments);
    assert.deepEqual(fields(june), fields(next));
    // July-August is now the first open period after both: March-April output +15 (field 12);
    // May-June output −30 (a decrease: field 18) and input +15 (field 18). 12 = 15, 18 = 30 + 15
    // = 45; 13 = 15; 19 = 45; 20 = −30.
    const august = await vat('period=2018-08');
    assert.deepEqual(august.adjustments, [
      { periodId: '2018-04', outputTax: 15, inputTax: 0 },
      { periodId: '2018-06', outputTax: -30, inputTax: 15 },
    ]);
    assert.deepEqual(fields(august), { f4: 0, f12: 15, f13: 15, f15: 0, f18: 45, f19: 45, f20: -30 });
  });

  test('a period overlapping one submitted under another category is refused', async () => {
    // C (monthly): May 2018 is inside the submitted May-June (2018-06, category B).
    await setCategory('C');
    const res = await submit('2018-05');
    assert.equal(assertProblem(res, 409).code, 'VAT_PERIOD_SUBMITTED');
    // The list shows the submitted period with the dates it was submitted for.
    const list = await periods('?from=2018-06-01&to=2018-06-30');
    assert.deepEqual(
      list.map((p) => [p.id, p.from, p.to, p.status]),
      [['2018-06', '2018-05-01', '2018-06-30', 'submitted']],
    );
    await setCategory('B');
  });

  test('another company of the tenant has its own periods', async () => {
    const res = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/companies', payload: { name: 'Other Co' } });
    assert.equal(res.statusCode, 201, res.body);
    const other = as(t.app, a.token, res.json().id);
    const list = await report<Period[]>(other, '/api/reports/vat/periods');
    assert.ok(list.every((p) => p.status === 'open'));
  });
});
