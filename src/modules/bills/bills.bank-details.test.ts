// Supplier bank details: validation, the account number sealed at rest and masked in answers,
// the history of changes, and the fraud control (a change is confirmed by another person).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { purchasesSetup } from './bills.factories.ts';
import { KAROO_BANK, setBankDetails } from './bills.payment-run.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

describe('supplier bank details', () => {
  test('bad input is 400 naming the field; a contact without details is 404', async () => {
    const b = await register(t.app, { plan: 'business' });
    const p = await purchasesSetup(t, b);
    const url = `/api/contacts/${p.supplierId}/bank-details`;
    assert.equal((await p.api({ method: 'GET', url })).statusCode, 404);
    for (const [field, value] of [
      ['accountNumber', '6200-123-4567'],
      ['accountNumber', '62 0012 3456'],
      ['branchCode', '25065'],
      ['branchCode', '25065A'],
      ['accountType', 'current'],
    ] as const) {
      const res = await p.api({ method: 'PUT', url, payload: { ...KAROO_BANK, [field]: value } });
      assert.equal(res.statusCode, 400, `${field}=${value}: ${res.body}`);
      assert.match(JSON.stringify(res.json()), new RegExp(field), res.body);
    }
    const extra = await p.api({ method: 'PUT', url, payload: { ...KAROO_BANK, swift: 'FIRNZAJJ' } });
    assert.equal(extra.statusCode, 400, extra.body);
    const none = await p.api({
      method: 'PUT',
      url: `/api/contacts/${crypto.randomUUID()}/bank-details`,
      payload: KAROO_BANK,
    });
    assert.equal(none.statusCode, 404, none.body);
  });

  test('masked in answers, sealed at rest; every change kept; confirmation by another person only', async () => {
    const b = await register(t.app, { plan: 'business' });
    const p = await purchasesSetup(t, b);
    const url = `/api/contacts/${p.supplierId}/bank-details`;
    const first = await setBankDetails(t, p, p.supplierId, KAROO_BANK, '2026-03-01T09:00:00Z');
    assert.deepEqual(
      [first.accountMasked, first.bankName, first.branchCode, first.accountType, first.changedBy],
      ['••••4567', 'First National Bank', '250655', 'cheque', 'Owner'],
    );
    // A first capture is a change like any other: confirmed by someone else before paying.
    assert.equal(first.pendingConfirmation, true);
    assert.deepEqual(
      first.history.map((h: { oldAccountMasked: string | null; newAccountMasked: string }) => [
        h.oldAccountMasked,
        h.newAccountMasked,
      ]),
      [[null, '••••4567']],
    );
    assert.ok(!JSON.stringify(first).includes('62001234567'));
    // At rest: sealed (v1:<key id>:…), the number nowhere in the row.
    const row = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('contact_bank_details')
        .selectAll()
        .where('contact_id', '=', p.supplierId)
        .executeTakeFirstOrThrow(),
    );
    assert.match(row.account_number_sealed, /^v1:test:/);
    assert.ok(!JSON.stringify(row).includes('62001234567'));
    // Nor in the audit log of the PUT (the body is kept there, secrets redacted).
    const audit = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx.selectFrom('audit_log').select('details').where('tenant_id', '=', b.tenantId).execute(),
    );
    assert.ok(audit.length > 0);
    assert.ok(!JSON.stringify(audit).includes('62001234567'), JSON.stringify(audit));

    // The same details again change nothing (no new history line).
    const same = await setBankDetails(t, p, p.supplierId);
    assert.equal(same.history.length, 1);

    // The person who captured them cannot confirm them.
    const self = await p.api({ method: 'POST', url: `${url}/confirm` });
    assert.equal(self.statusCode, 409, self.body);
    assert.equal(self.json().code, 'SAME_USER');
    // Another person with contacts:approve (an accountant) can.
    const thandi = await addMember(t, b, 'accountant', { name: 'Thandi Nkosi' });
    const other = as(t.app, thandi.token, b.companyId);
    const ok = await other({ method: 'POST', url: `${url}/confirm` });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual([ok.json().pendingConfirmation, ok.json().confirmedBy], [false, 'Thandi Nkosi']);

    // A new account number (a letter "from the supplier"): pending again, confirmation cleared,
    // the history shows the masked old and new numbers, newest first.
    t.clock.set('2026-03-10T09:00:00Z');
    const changed = await setBankDetails(t, p, p.supplierId, { ...KAROO_BANK, accountNumber: '1048899123' });
    assert.deepEqual(
      [changed.accountMasked, changed.pendingConfirmation, changed.confirmedAt, changed.confirmedBy],
      ['••••9123', true, null, null],
    );
    assert.deepEqual(
      changed.history.map(
        (h: { oldAccountMasked: string | null; newAccountMasked: string; changedAt: string }) => [
          h.changedAt.slice(0, 10),
          h.oldAccountMasked,
          h.newAccountMasked,
        ],
      ),
      [
        ['2026-03-10', '••••4567', '••••9123'],
        ['2026-03-01', null, '••••4567'],
      ],
    );
    // 14 days on, unconfirmed, it no longer counts as a recent change (the rule).
    t.clock.set('2026-03-25T09:00:00Z');
    assert.equal((await p.api({ method: 'GET', url })).json().pendingConfirmation, false);
    // A viewer may read but not confirm (contacts:approve).
    const viewer = await addMember(t, b, 'viewer');
    const denied = await as(t.app, viewer.token)({ method: 'POST', url: `${url}/confirm` });
    assert.equal(denied.statusCode, 403, denied.body);
  });
});
