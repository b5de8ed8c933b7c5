// Test helpers: a VAT-registered company, a clerk who submits claims (purchasing: expenses
// read and write, no approve), an owner who approves them, and an employee contact.
import assert from 'node:assert/strict';
import { as, type Registered, register, type TestApp } from '../../../test/support/app.ts';
import { addMember } from '../../platform/auth/users.factories.ts';
import { purchasesSetup } from '../bills/bills.factories.ts';

export type Api = ReturnType<typeof as>;

export interface Claims {
  b: Registered;
  /** the owner: every permission, no limit row (so up to the policy's secondApprovalFrom) */
  owner: Api;
  /** a purchasing member: makes claims, may not approve */
  clerk: Api;
  employeeId: string;
}

export async function claimsSetup(t: TestApp, opts: { employeeEmail?: string } = {}): Promise<Claims> {
  const b = await register(t.app, { plan: 'business' });
  const p = await purchasesSetup(t, b);
  const clerkMember = await addMember(t, b, 'purchasing');
  const clerk = as(t.app, clerkMember.token, b.companyId);
  const c = await p.api({
    method: 'POST',
    url: '/api/contacts',
    payload: {
      name: 'Thandi Mokoena',
      contactType: 'EMPLOYEE',
      ...(opts.employeeEmail ? { email: opts.employeeEmail } : {}),
    },
  });
  assert.equal(c.statusCode, 201, c.body);
  return { b, owner: p.api, clerk, employeeId: c.json().id };
}

export async function ok(
  api: Api,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const res = await api({ method, url, ...(payload ? { payload } : {}) });
  assert.ok(
    res.statusCode === 200 || res.statusCode === 201,
    `${method} ${url}: ${res.statusCode} ${res.body}`,
  );
  return res.json();
}

export function claim(api: Api, o: Record<string, unknown> = {}) {
  return ok(api, 'POST', '/api/expenses', {
    date: '2026-03-05',
    description: 'Client lunch',
    amount: 575,
    vendor: 'Harbour Grill',
    paidWith: 'personal',
    ...o,
  });
}

/** Balances (debit − credit) by account code from the trial balance. */
export async function balances(api: Api, asOf: string, codes: string[]) {
  const tb = await ok(api, 'GET', `/api/reports/trial-balance?asOf=${asOf}`);
  return codes.map((code) => {
    const a = tb.accounts.find((x: { code: string }) => x.code === code);
    return a ? Math.round((a.debit - a.credit) * 100) / 100 : 0;
  });
}

export async function entryLines(api: Api, id: string) {
  const e = await ok(api, 'GET', `/api/ledger/journals/${id}`);
  type Line = {
    accountCode: string;
    debit: number;
    credit: number;
    taxCode: string | null;
    taxRate: number | null;
  };
  return e.lines
    .map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode, l.taxRate])
    .sort((x: unknown[], y: unknown[]) => String(x).localeCompare(String(y)));
}
