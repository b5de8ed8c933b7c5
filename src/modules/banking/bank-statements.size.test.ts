// A statement larger than one statement's bind parameters (PostgreSQL's 65,535): 66,000 new lines
// in one file. Every step after the parse (the plan, the insert, the bank rules, reconciling what
// is certain) goes by arrays or in chunks; before, reconciling bound one parameter per line and
// the import answered 503 "database unavailable", writing nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { upload } from './bank-statements.factories.ts';
import { bankingSetup } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(async () => {
  await t.close();
});

const ROWS = 66_000;

test(`a statement of ${ROWS.toLocaleString('en')} lines imports whole`, async () => {
  const k = await bankingSetup(t, await register(t.app, { plan: 'free' }));
  // 100 lines a day from 2024-01-01, each -1.00 with its running balance: 66000 - 66000 × 1.00 = 0.00.
  const rows = ['Date,Amount,Balance,Description'];
  for (let i = 0; i < ROWS; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 100) * 86_400_000).toISOString().slice(0, 10);
    rows.push(`${day.replaceAll('-', '/')},-1.00,${ROWS - i - 1}.00,CARD ${i}`);
  }
  const res = await upload(k, `${rows.join('\n')}\n`);
  assert.equal(res.statusCode, 201, res.body.slice(0, 500));
  const r = res.json();
  assert.deepEqual([r.rowsNew, r.rowsIdentical, r.balance.status], [ROWS, ROWS - 660, 'ok']);
  assert.deepEqual([r.balance.openingBalance, r.balance.closingBalance], ['66000.00', '0.00']);
  assert.equal(r.identical.length, 100);
  const { count } = await withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('bank_transactions')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('bank_account_id', '=', k.bankAccountId)
      .executeTakeFirstOrThrow(),
  );
  assert.equal(Number(count), ROWS);
});
