// Expense claims: capture with the VAT fraction, posting on approval, reimbursement, the trial
// balance and VAT201 field 15, deletion. Figures worked by hand from the rule each test cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { balances, claim, claimsSetup, entryLines, ok } from './expenses.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('a personal claim and a company card claim', () => {
  test('posted on approval, reimbursed, in the trial balance and VAT201 field 15', async () => {
    const { owner, clerk, employeeId } = await claimsSetup(t);
    // Personal: 575.00 incl. VAT at 15%. The tax fraction (VAT Act s1; rate s7(1)(a)) is
    // 15/115 × 575.00 = 75.00, so the net is 500.00. Below R5,000: one approver.
    const lunch = await claim(clerk, { contactId: employeeId });
    assert.deepEqual(
      [lunch.status, lunch.amount, lunch.vatAmount, lunch.vatRate, lunch.vatClaimable, lunch.approvalsNeeded],
      ['submitted', 575, 75, 15, true, 1],
    );
    // Between R50 and R5,000 without the supplier's VAT number: kept, with a warning (s20(5)).
    assert.match(lunch.vatWarning, /abridged tax invoice/);
    const approved = await ok(owner, 'POST', `/api/expenses/${lunch.id}/approve`);
    assert.equal(approved.status, 'approved');
    assert.equal(approved.approvals.length, 1);
    // Dr General expenses 6750 500.00 (input_standard 15%), Dr VAT input 1300 75.00, Cr Employee
    // reimbursements payable 2150 575.00: 500 + 75 = 575.
    assert.deepEqual(await entryLines(owner, approved.entryId), [
      ['1300', 75, 0, 'input_standard', 15],
      ['2150', 0, 575, null, null],
      ['6750', 500, 0, 'input_standard', 15],
    ]);

    // Company card: 1,150.00 incl. VAT on Telephone and internet (6600), with the supplier's
    // VAT number: 15/115 × 1,150.00 = 150.00 VAT, 1,000.00 net; Cr Credit card 2410.
    const accounts = await ok(owner, 'GET', '/api/accounts');
    const phone = accounts.find((a: { code: string }) => a.code === '6600').id;
    const data = await claim(clerk, {
      description: 'Mobile data, March',
      amount: 1150,
      vendor: 'Cellnet',
      supplierVatNumber: '4111111111',
      accountId: phone,
      paidWith: 'company_card',
      date: '2026-03-12',
    });
    assert.deepEqual([data.vatAmount, data.vatWarning], [150, null]);
    const cardOk = await ok(owner, 'POST', `/api/expenses/${data.id}/approve`);
    assert.deepEqual(await entryLines(owner, cardOk.entryId), [
      ['1300', 150, 0, 'input_standard', 15],
      ['2410', 0, 1150, null, null],
      ['6600', 1000, 0, 'input_standard', 15],
    ]);
    // A card claim is not reimbursed: nobody is owed.
    const notOwed = await owner({
      method: 'POST',
      url: `/api/expenses/${data.id}/reimburse`,
      payload: { date: '2026-03-20' },
    });
    assert.equal(assertProblem(notOwed, 409).code, 'NOT_REIMBURSABLE');

    // Trial balance on 2026-03-31: 2150 −575, 2410 −1,150, 1300 75 + 150 = 225, 6750 500, 6600 1,000.
    assert.deepEqual(
      await balances(owner, '2026-03-31', ['2150', '2410', '1300', '6750', '6600', '1000']),
      [-575, -1150, 225, 500, 1000, 0],
    );
    // VAT201: input tax on other goods and services, field 15 = 75.00 + 150.00 = 225.00; no output,
    // so field 20 (payable) is −225.00 (a refund).
    const v = (await ok(owner, 'GET', '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.deepEqual([v.field14, v.field15, v.field19, v.field20], [0, 225, 225, -225]);

    // Reimbursing the lunch on 2026-03-20: Dr 2150 575.00, Cr Bank 1000 575.00.
    const paid = await ok(owner, 'POST', `/api/expenses/${lunch.id}/reimburse`, { date: '2026-03-20' });
    assert.equal(paid.status, 'reimbursed');
    assert.ok(paid.reimbursedAt);
    assert.deepEqual(await entryLines(owner, paid.reimbursementEntryId), [
      ['1000', 0, 575, null, null],
      ['2150', 575, 0, null, null],
    ]);
    // 2150 back to 0, the bank −575.
    assert.deepEqual(await balances(owner, '2026-03-31', ['2150', '1000']), [0, -575]);
    const twice = await owner({
      method: 'POST',
      url: `/api/expenses/${lunch.id}/reimburse`,
      payload: { date: '2026-03-21' },
    });
    assert.equal(assertProblem(twice, 409).code, 'EXPENSE_REIMBURSED');
    // A reimbursed claim is not deleted.
    assert.equal(
      assertProblem(await owner({ method: 'DELETE', url: `/api/expenses/${lunch.id}` }), 409).code,
      'EXPENSE_REIMBURSED',
    );
    // Deleting the approved card claim reverses it: 2410, 6600 back to 0, VAT input 75.00 (the lunch's).
    const del = await ok(owner, 'DELETE', `/api/expenses/${data.id}`);
    assert.match(del.ledgerNotice, /reversed/);
    assert.deepEqual(await balances(owner, '2026-03-31', ['2410', '6600', '1300']), [0, 0, 75]);
    assert.equal((await owner({ method: 'GET', url: `/api/expenses/${data.id}` })).statusCode, 404);
  });
});

describe('capture', () => {
  test('vatAmount above the tax fraction is 400; a taxed slip above R5,000 needs the VAT number', async () => {
    const { clerk } = await claimsSetup(t);
    // 15/115 × 575.00 = 75.00: 75.01 is more than the fraction.
    const over = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: { date: '2026-03-05', description: 'x', amount: 575, vatAmount: 75.01, paidWith: 'personal' },
    });
    assert.equal(assertProblem(over, 400).field, 'vatAmount');
    // R5,750.00 standard-rated without supplierVatNumber: no full tax invoice (s20(4), s16(2)).
    const big = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: { date: '2026-03-05', description: 'Laptop', amount: 5750, paidWith: 'company_card' },
    });
    assert.equal(assertProblem(big, 400).field, 'supplierVatNumber');
    // Exempt: no VAT at all; a given vatAmount must be 0.
    const exempt = await claim(clerk, { taxCode: 'exempt', amount: 40 });
    assert.deepEqual([exempt.vatAmount, exempt.vatRate, exempt.vatClaimable], [0, 0, false]);
    // A lower VAT than the fraction (a slip partly exempt) is kept: 50.00 of 575.00.
    const part = await claim(clerk, { vatAmount: 50 });
    assert.equal(part.vatAmount, 50);
    // An unknown property is refused; the claimant must be an employee.
    const extra = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: { date: '2026-03-05', description: 'x', amount: 5, paidWith: 'personal', tip: 1 },
    });
    assertProblem(extra, 400);
  });

  test('clientId replays answer 200; list filters; PATCH while submitted; another tenant gets 404', async () => {
    const { owner, clerk, employeeId } = await claimsSetup(t);
    const clientId = crypto.randomUUID();
    const first = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: {
        clientId,
        date: '2026-03-05',
        description: 'Taxi',
        amount: 115,
        paidWith: 'personal',
        contactId: employeeId,
      },
    });
    assert.equal(first.statusCode, 201, first.body);
    const again = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: {
        clientId,
        date: '2026-03-05',
        description: 'Taxi',
        amount: 115,
        paidWith: 'personal',
        contactId: employeeId,
      },
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, first.json().id);
    await claim(clerk, { date: '2026-04-02' });
    const march = await ok(
      owner,
      'GET',
      `/api/expenses?from=2026-03-01&to=2026-03-31&contactId=${employeeId}`,
    );
    assert.deepEqual([march.total, march.items[0].id], [1, first.json().id]);
    const patched = await ok(clerk, 'PATCH', `/api/expenses/${first.json().id}`, { category: 'Travel' });
    assert.equal(patched.category, 'Travel');
    await ok(owner, 'POST', `/api/expenses/${first.json().id}/approve`);
    const late = await clerk({
      method: 'PATCH',
      url: `/api/expenses/${first.json().id}`,
      payload: { category: 'x' },
    });
    assert.equal(assertProblem(late, 409).code, 'NOT_A_DRAFT');
    assert.equal((await ok(owner, 'GET', '/api/expenses?status=approved')).total, 1);
    const other = await register(t.app, { plan: 'business' });
    const res = await as(
      t.app,
      other.token,
      other.companyId,
    )({ method: 'GET', url: `/api/expenses/${first.json().id}` });
    assertProblem(res, 404);
  });

  test('a company not VAT-registered claims no input tax: the whole amount is the expense', async () => {
    const b = await register(t.app, { plan: 'business' });
    const owner = as(t.app, b.token, b.companyId);
    const clerk = as(t.app, (await addMember(t, b, 'purchasing')).token, b.companyId);
    // 575.00 with 75.00 VAT on the slip (15/115), but no registration on the date (VAT Act s16(2)):
    // Dr 6750 575.00, Cr 2150 575.00, nothing tagged, VAT201 field 15 0.00.
    const c = await claim(clerk);
    assert.deepEqual([c.vatAmount, c.vatClaimable, c.vatWarning], [75, false, null]);
    const done = await ok(owner, 'POST', `/api/expenses/${c.id}/approve`);
    assert.deepEqual(await entryLines(owner, done.entryId), [
      ['2150', 0, 575, null, null],
      ['6750', 575, 0, null, null],
    ]);
    const v = (await ok(owner, 'GET', '/api/reports/vat?from=2026-03-01&to=2026-03-31')).vat201;
    assert.equal(v.field15, 0);
  });

  test('a free plan is refused with MODULE_NOT_LICENSED on /api/expenses and /api/mileage', async () => {
    const f = await register(t.app, { plan: 'free' });
    const api = as(t.app, f.token, f.companyId);
    for (const url of ['/api/expenses', '/api/mileage', '/api/expenses/approval-policy'])
      assert.equal(assertProblem(await api({ method: 'GET', url }), 403).code, 'MODULE_NOT_LICENSED', url);
  });
});
