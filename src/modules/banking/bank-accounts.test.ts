// Bank accounts: each is a ledger account of subtype bank (the same id), with its bank details.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { bankingSetup } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('bank accounts', () => {
  test("the chart's Bank and Petty cash are ones; a new one makes its ledger account and posts its opening balance", async () => {
    const b = await register(t.app, { plan: 'free' });
    const k = await bankingSetup(t, b, '15000.50');
    const list = (await k.api({ method: 'GET', url: '/api/bank-accounts' })).json();
    assert.deepEqual(
      list.map((a: { accountCode: string; name: string }) => [a.accountCode, a.name]),
      [
        ['1000', 'Bank'],
        ['1010', 'FNB Business Cheque'],
        ['1050', 'Petty cash'],
      ],
    );
    const fnb = list[1];
    assert.equal(fnb.accountCode, '1010');
    // The number is masked once it is stored: only the last four digits are answered.
    assert.equal(fnb.accountNumberMasked, '••••5678');
    assert.equal(JSON.stringify(list).includes('62812345678'), false);
    assert.equal(fnb.bank, 'fnb');
    assert.equal(fnb.branchCode, '250655');
    assert.equal(fnb.currency, 'ZAR');
    assert.equal(fnb.openingBalance, 15000.5);
    // Its id is the ledger account's: the chart lists it as a bank account.
    const acc = await k.api({ method: 'GET', url: `/api/accounts/${fnb.id}` });
    assert.equal(acc.statusCode, 200, acc.body);
    assert.equal(acc.json().subtype, 'bank');
    // The opening balance is equity brought in: Dr 1010 15,000.50, Cr 3400 Opening balances 15,000.50.
    const tb = (await k.api({ method: 'GET', url: '/api/reports/trial-balance?asOf=2026-03-31' })).json();
    const line = (code: string) => tb.accounts.find((a: { code: string }) => a.code === code);
    assert.equal(line('1010').debit, 15000.5);
    assert.equal(line('3400').credit, 15000.5);
  });

  test('an opening balance needs its date; a taken code is 409; another company cannot see it', async () => {
    const b = await register(t.app, { plan: 'free' });
    const k = await bankingSetup(t, b);
    const noDate = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Savings', openingBalance: 10 },
    });
    assert.equal(noDate.statusCode, 400, noDate.body);
    assert.equal(noDate.json().errors?.[0]?.field ?? noDate.json().field, 'openingDate');
    const taken = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Savings', accountCode: '1010' },
    });
    assert.equal(taken.statusCode, 409, taken.body);
    const other = await register(t.app, { plan: 'free' });
    const res = await bankingSetup(t, other).then((o) =>
      o.api({ method: 'GET', url: `/api/bank-accounts/${k.bankAccountId}` }),
    );
    assert.equal(res.statusCode, 404, res.body);
  });

  // Issue 35: a huge openingBalance answered `lines[0].debit: is too large`, a field the request
  // does not have.
  test('an opening balance beyond the money ceiling is a 400 naming openingBalance', async () => {
    const b = await register(t.app, { plan: 'free' });
    const k = await bankingSetup(t, b);
    for (const openingBalance of [1e17, '99999999999999999', -1e17, '1000000000000']) {
      const res = await k.api({
        method: 'POST',
        url: '/api/bank-accounts',
        payload: { name: 'Savings', openingBalance, openingDate: '2026-01-31' },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().field, 'openingBalance', `${openingBalance}: ${res.body}`);
    }
    const largest = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Reserve', openingBalance: '999999999999.99', openingDate: '2026-01-31' },
    });
    assert.equal(largest.statusCode, 201, largest.body);
  });

  test('renamed, details changed and deactivated; the chart Bank stays active', async () => {
    const b = await register(t.app, { plan: 'free' });
    const k = await bankingSetup(t, b);
    const res = await k.api({
      method: 'PATCH',
      url: `/api/bank-accounts/${k.bankAccountId}`,
      payload: { name: 'FNB Cheque', accountNumber: '62899990000', isActive: false },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      [res.json().name, res.json().accountNumberMasked, res.json().isActive],
      ['FNB Cheque', '••••0000', false],
    );
    const bank = (await k.api({ method: 'GET', url: '/api/bank-accounts' }))
      .json()
      .find((a: { accountCode: string }) => a.accountCode === '1000');
    const off = await k.api({
      method: 'PATCH',
      url: `/api/bank-accounts/${bank.id}`,
      payload: { isActive: false },
    });
    assert.equal(off.statusCode, 409, off.body);
  });
});
