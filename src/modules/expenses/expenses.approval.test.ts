// The approval rules: expenses:approve, the role limits, a second and different approver at or
// above secondApprovalFrom, nobody approving their own claim; the policy and limits themselves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertPermissionDenied, assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { claim, claimsSetup, ok } from './expenses.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('approval', () => {
  test('the default policy: one approver below R5,000, two different ones from it; summary in words', async () => {
    const { owner } = await claimsSetup(t);
    const p = await ok(owner, 'GET', '/api/expenses/approval-policy');
    assert.deepEqual([p.secondApprovalFrom, p.approvers, p.mayChange], [5000, 2, true]);
    assert.match(p.summary, /below R5,000\.00 needs one approver.*two different approvers/);
  });

  test('limits per role, the second approver, not one’s own claim, and expenses:approve', async () => {
    const { b, owner, clerk, employeeId } = await claimsSetup(t);
    const a1 = await addMember(t, b, 'accountant');
    const a2 = await addMember(t, b, 'accountant');
    const acc1 = as(t.app, a1.token, b.companyId);
    const acc2 = as(t.app, a2.token, b.companyId);
    // Accountants approve up to R10,000.00; the owner's role has no row: up to secondApprovalFrom (R5,000).
    const limits = await ok(owner, 'PUT', '/api/expenses/approval-limits', {
      limits: [{ roleId: 'accountant', maxAmount: 10000 }],
    });
    assert.deepEqual(
      limits.limits.map((l: { roleId: string; roleName: string; maxAmount: number }) => [
        l.roleId,
        l.roleName,
        l.maxAmount,
      ]),
      [['accountant', 'accountant', 10000]],
    );
    // An accountant reads them but may not change them (admin:manage).
    assert.equal((await ok(acc1, 'GET', '/api/expenses/approval-limits')).mayChange, false);
    assertPermissionDenied(
      await acc1({ method: 'PUT', url: '/api/expenses/approval-limits', payload: { limits: [] } }),
      'admin',
      'manage',
    );

    // A claim of R6,900.00 (at or above R5,000: two approvers).
    const laptop = await claim(clerk, {
      description: 'Laptop',
      amount: 6900,
      supplierVatNumber: '4222222222',
      contactId: employeeId,
    });
    assert.equal(laptop.approvalsNeeded, 2);
    // The purchasing clerk lacks expenses:approve.
    assertPermissionDenied(
      await clerk({ method: 'POST', url: `/api/expenses/${laptop.id}/approve` }),
      'expenses',
      'approve',
    );
    // The owner: R6,900.00 is above the R5,000.00 a role without a limit row approves.
    const above = assertProblem(
      await owner({ method: 'POST', url: `/api/expenses/${laptop.id}/approve` }),
      403,
    );
    assert.deepEqual([above.code, above.limit], ['APPROVAL_LIMIT_EXCEEDED', 5000]);
    // The first accountant: partially approved, nothing posted.
    const half = await ok(acc1, 'POST', `/api/expenses/${laptop.id}/approve`);
    assert.deepEqual([half.status, half.entryId, half.approvals.length], ['partially_approved', null, 1]);
    // The same one again is not a second approver.
    const same = assertProblem(
      await acc1({ method: 'POST', url: `/api/expenses/${laptop.id}/approve` }),
      409,
    );
    assert.equal(same.code, 'SECOND_APPROVER_REQUIRED');
    // A different accountant: approved and posted.
    const done = await ok(acc2, 'POST', `/api/expenses/${laptop.id}/approve`);
    assert.equal(done.status, 'approved');
    assert.ok(done.entryId);
    assert.deepEqual(
      done.approvals.map((a: { userId: string }) => a.userId),
      [a1.id, a2.id],
    );

    // R12,000.00 is above the accountants' R10,000.00.
    const big = await claim(clerk, {
      description: 'Projector',
      amount: 12000,
      supplierVatNumber: '4222222222',
    });
    const tooBig = assertProblem(await acc1({ method: 'POST', url: `/api/expenses/${big.id}/approve` }), 403);
    assert.deepEqual([tooBig.code, tooBig.limit], ['APPROVAL_LIMIT_EXCEEDED', 10000]);

    // Nobody approves their own claim: the accountant who made it...
    const own = await claim(acc1, { amount: 100 });
    const mine = assertProblem(await acc1({ method: 'POST', url: `/api/expenses/${own.id}/approve` }), 403);
    assert.equal(mine.code, 'OWN_CLAIM');
    // ...nor the owner who made one.
    const owners = await claim(owner, { amount: 100 });
    assert.equal(
      assertProblem(await owner({ method: 'POST', url: `/api/expenses/${owners.id}/approve` }), 403).code,
      'OWN_CLAIM',
    );
    // Below R5,000 one approval is enough.
    assert.equal((await ok(acc2, 'POST', `/api/expenses/${own.id}/approve`)).status, 'approved');
  });

  test('the claimant contact whose e-mail is the approver’s cannot approve it', async () => {
    const email = `thandi.${crypto.randomUUID().slice(0, 6)}@example.co.za`;
    const { b, clerk, employeeId } = await claimsSetup(t, { employeeEmail: email });
    const thandi = await addMember(t, b, 'accountant', { email });
    const claimed = await claim(clerk, { contactId: employeeId });
    const res = await as(
      t.app,
      thandi.token,
      b.companyId,
    )({ method: 'POST', url: `/api/expenses/${claimed.id}/approve` });
    assert.equal(assertProblem(res, 403).code, 'OWN_CLAIM');
  });

  test('the policy changes: one approver for any claim; summary says so', async () => {
    const { b, owner, clerk } = await claimsSetup(t);
    const changed = await ok(owner, 'PUT', '/api/expenses/approval-policy', {
      approvers: 1,
      secondApprovalFrom: 20000,
    });
    assert.deepEqual([changed.approvers, changed.secondApprovalFrom], [1, 20000]);
    assert.match(changed.summary, /Every claim needs one approver/);
    const a1 = await addMember(t, b, 'accountant');
    // R6,900.00: below the owner-less-row limit of R20,000.00 now, and one approval enough.
    const c = await claim(clerk, { amount: 6900, supplierVatNumber: '4222222222' });
    assert.equal(c.approvalsNeeded, 1);
    const done = await ok(as(t.app, a1.token, b.companyId), 'POST', `/api/expenses/${c.id}/approve`);
    assert.equal(done.status, 'approved');
    const bad = await owner({
      method: 'PUT',
      url: '/api/expenses/approval-policy',
      payload: { approvers: 3 },
    });
    assert.equal(assertProblem(bad, 400).field, 'approvers');
  });

  test('a rejected claim posts nothing and is approved no more', async () => {
    const { owner, clerk } = await claimsSetup(t);
    const c = await claim(clerk);
    const r = await ok(owner, 'POST', `/api/expenses/${c.id}/reject`, { reason: 'No slip' });
    assert.deepEqual([r.status, r.rejectionReason, r.entryId], ['rejected', 'No slip', null]);
    const again = await owner({ method: 'POST', url: `/api/expenses/${c.id}/approve` });
    assert.equal(assertProblem(again, 409).code, 'NOT_AWAITING_APPROVAL');
    assertPermissionDenied(
      await clerk({ method: 'POST', url: `/api/expenses/${c.id}/reject`, payload: { reason: 'x' } }),
      'expenses',
      'approve',
    );
  });
});
