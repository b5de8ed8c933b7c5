// Mileage: the SARS rate per km by date, the tenant's lower rate, posting on approval and
// reimbursement. Figures worked by hand from the rule each test cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { balances, claimsSetup, entryLines, ok } from './expenses.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const trip = (o: Record<string, unknown> = {}) => ({
  date: '2025-06-10',
  km: 123.4,
  purpose: 'Client visit',
  from: 'Cape Town',
  to: 'Stellenbosch',
  ...o,
});

describe('mileage', () => {
  test("priced at SARS's rate of the date, posted Dr travel Cr employee, reimbursed", async () => {
    const { owner, clerk, employeeId } = await claimsSetup(t);
    // 2025-06-10 falls under SARS's rate from 2025-03-01, R4.76 per km (Income Tax Act
    // s8(1)(b)(ii); PAYE-GEN-01-G03-A01): 123.4 × 4.76 = 587.384 → 587.38 (half-up to the cent).
    const t1 = await ok(clerk, 'POST', '/api/mileage', trip({ contactId: employeeId }));
    assert.deepEqual(
      [t1.status, t1.ratePerKm, t1.rateEffectiveFrom, t1.rateSource, t1.amount],
      ['submitted', 4.76, '2025-03-01', 'sars', 587.38],
    );
    // 2024-05-02: R4.84 from 2024-03-01; 10.5 × 4.84 = 50.82. 2023-04-01: R4.64; 100 × 4.64 = 464.00.
    const t2 = await ok(clerk, 'POST', '/api/mileage', trip({ date: '2024-05-02', km: 10.5 }));
    assert.deepEqual([t2.ratePerKm, t2.rateEffectiveFrom, t2.amount], [4.84, '2024-03-01', 50.82]);
    const t3 = await ok(clerk, 'POST', '/api/mileage', trip({ date: '2023-04-01', km: 100 }));
    assert.deepEqual([t3.ratePerKm, t3.amount], [4.64, 464]);
    // Before the table starts: 400 naming date.
    const early = await clerk({ method: 'POST', url: '/api/mileage', payload: trip({ date: '2023-02-28' }) });
    assert.equal(assertProblem(early, 400).field, 'date');

    // Approved (one approver: 587.38 < R5,000): Dr Travel: local 6660 587.38, Cr 2150 587.38; no VAT.
    const approved = await ok(owner, 'POST', `/api/mileage/${t1.id}/approve`);
    assert.equal(approved.status, 'approved');
    assert.deepEqual(await entryLines(owner, approved.entryId), [
      ['2150', 0, 587.38, null, null],
      ['6660', 587.38, 0, null, null],
    ]);
    assert.deepEqual(await balances(owner, '2025-06-30', ['6660', '2150', '1300']), [587.38, -587.38, 0]);
    // Reimbursed on 2025-06-25: Dr 2150, Cr Bank 1000 587.38.
    const paid = await ok(owner, 'POST', `/api/mileage/${t1.id}/reimburse`, { date: '2025-06-25' });
    assert.equal(paid.status, 'reimbursed');
    assert.deepEqual(await balances(owner, '2025-06-30', ['2150', '1000']), [0, -587.38]);
    // Nobody approves their own trip; a rejected one is not approved.
    const mine = await ok(owner, 'POST', '/api/mileage', trip());
    assert.equal(
      assertProblem(await owner({ method: 'POST', url: `/api/mileage/${mine.id}/approve` }), 403).code,
      'OWN_CLAIM',
    );
    const r = await ok(owner, 'POST', `/api/mileage/${t2.id}/reject`, { reason: 'Private trip' });
    assert.equal(r.status, 'rejected');
    const list = await ok(owner, 'GET', '/api/mileage?status=submitted');
    assert.deepEqual(list.items.map((x: { id: string }) => x.id).sort(), [t3.id, mine.id].sort());
    assert.equal((await ok(owner, 'GET', `/api/mileage/${t1.id}`)).reimbursedAt !== null, true);
  });

  test("a tenant's own lower rate applies; above SARS's current rate is 400", async () => {
    const { owner, clerk } = await claimsSetup(t);
    const rate = await ok(owner, 'GET', '/api/mileage/rate');
    assert.equal(rate.ratePerKm, null);
    assert.deepEqual(
      rate.rates.map((r: { effectiveFrom: string; ratePerKm: number }) => [r.effectiveFrom, r.ratePerKm]),
      [
        ['2023-03-01', 4.64],
        ['2024-03-01', 4.84],
        ['2025-03-01', 4.76],
      ],
    );
    const high = await owner({ method: 'PUT', url: '/api/mileage/rate', payload: { ratePerKm: 5 } });
    assert.equal(assertProblem(high, 400).field, 'ratePerKm');
    const set = await ok(owner, 'PUT', '/api/mileage/rate', { ratePerKm: 4.5 });
    assert.deepEqual([set.ratePerKm, set.effectiveRatePerKm], [4.5, 4.5]);
    // 200 km at the tenant's R4.50 (below SARS's R4.76): 900.00.
    const t1 = await ok(clerk, 'POST', '/api/mileage', trip({ km: 200 }));
    assert.deepEqual(
      [t1.ratePerKm, t1.rateSource, t1.rateEffectiveFrom, t1.amount],
      [4.5, 'tenant', null, 900],
    );
    assert.equal((await ok(owner, 'PUT', '/api/mileage/rate', { ratePerKm: null })).ratePerKm, null);
  });
});
