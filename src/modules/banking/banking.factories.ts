// Test helpers: a company with a bank account, and bank lines added the way an import does.
import assert from 'node:assert/strict';
import { as, type Registered, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { lockBankAccount, planIngest, type StatementLine, writeIngest } from './ingest.ts';

export interface Banking {
  api: ReturnType<typeof as>;
  b: Registered;
  /** The bank account made by bankingSetup (FNB, code 1010). */
  bankAccountId: string;
}

/** A company with one FNB bank account (code 1010) opened with `opening` on 2026-03-01. */
export async function bankingSetup(t: TestApp, b: Registered, opening = '0'): Promise<Banking> {
  const api = as(t.app, b.token, b.companyId);
  const res = await api({
    method: 'POST',
    url: '/api/bank-accounts',
    payload: {
      name: 'FNB Business Cheque',
      bank: 'fnb',
      accountNumber: '62812345678',
      branchCode: '250655',
      openingBalance: opening,
      ...(opening !== '0' ? { openingDate: '2026-03-01' } : {}),
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { api, b, bankAccountId: res.json().id };
}

/** Adds bank lines as an import does (under the account's lock); answers the plan and new ids. */
export function ingest(t: TestApp, k: Banking, lines: StatementLine[], source: 'file' | 'feed' = 'file') {
  return withTenant(t.database.db, k.b.tenantId, async (tx) => {
    await lockBankAccount(tx, k.b.tenantId, k.bankAccountId);
    const plan = await planIngest(tx, k.b.tenantId, k.bankAccountId, lines);
    const ids = await writeIngest(tx, plan, {
      tenantId: k.b.tenantId,
      companyId: k.b.companyId,
      source,
      deps: t.deps,
      principal: { type: 'system' },
    });
    return { plan, ids };
  });
}
