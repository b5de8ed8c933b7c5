// Test helpers for bank rules: the chart's accounts by code, a rule made through the API, and
// the bank lines as GET answers them.
import assert from 'node:assert/strict';
import type { TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import type { Banking } from './banking.factories.ts';

export interface Chart {
  /** id by code */
  code: (code: string) => string;
  /** a control account's id (debtors or creditors) */
  control: string;
}

export async function chartOf(k: Banking): Promise<Chart> {
  const accounts = (await k.api({ method: 'GET', url: '/api/accounts' })).json() as {
    id: string;
    code: string;
    isControl: boolean;
  }[];
  return {
    code: (code) => {
      const a = accounts.find((x) => x.code === code);
      assert.ok(a, `account ${code}`);
      return a.id;
    },
    control: accounts.find((x) => x.isControl)!.id,
  };
}

export async function createRule(k: Banking, payload: Record<string, unknown>) {
  const res = await k.api({ method: 'POST', url: '/api/bank-rules', payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; name: string; priority: number };
}

export async function line(k: Banking, id: string) {
  const res = await k.api({ method: 'GET', url: `/api/bank-transactions/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** [rule name, account, contact, tax code, description] of each line: what the rules did. */
export async function codings(k: Banking, ids: string[]) {
  const out = [];
  for (const id of ids) {
    const l = await line(k, id);
    out.push([
      l.rule?.name ?? null,
      l.coding.accountId,
      l.coding.contactId,
      l.coding.taxCode,
      l.coding.description,
    ]);
  }
  return out;
}

/** Marks lines reconciled as reconciliation would (its routes are another helper's). */
export function markReconciled(t: TestApp, k: Banking, ids: string[]) {
  return withTenant(t.database.db, k.b.tenantId, (tx) =>
    tx
      .updateTable('bank_transactions')
      .set({ status: 'reconciled', reconciled_at: new Date() })
      .where('tenant_id', '=', k.b.tenantId)
      .where('id', 'in', ids)
      .execute(),
  );
}

/** Bank lines of March the tests' rules are about. */
export const UBER_RIDE = {
  line: 1,
  date: '2026-03-02',
  amount: '-120.00',
  description: 'UBER *TRIP HELP.UBER.COM',
  payee: 'Uber BV',
};
export const UBER_EATS = { line: 2, date: '2026-03-03', amount: '-80.00', description: 'Uber Eats Sandton' };
export const UBER_PAYOUT = {
  line: 3,
  date: '2026-03-04',
  amount: '500.00',
  description: 'UBER PAYOUT',
  reference: 'TRIP-1234',
};
export const TELKOM = {
  line: 4,
  date: '2026-03-05',
  amount: '-200.00',
  description: 'DEBIT ORDER TELKOM MOBILE',
};
