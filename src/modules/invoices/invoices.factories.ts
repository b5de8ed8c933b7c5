// Test helpers: a customer and sales documents made through the API, as a client makes them.
import assert from 'node:assert/strict';
import { as, type Registered, type TestApp } from '../../../test/support/app.ts';

export interface Sales {
  api: ReturnType<typeof as>;
  customerId: string;
}

/** A VAT-registered company (from 2017, so both rates apply) and one customer. */
export async function salesSetup(
  t: TestApp,
  b: Registered,
  opts: { vatRegistered?: boolean } = {},
): Promise<Sales> {
  const api = as(t.app, b.token, b.companyId);
  if (opts.vatRegistered !== false) {
    const res = await api({
      method: 'PATCH',
      url: `/api/companies/${b.companyId}`,
      payload: { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  const c = await api({
    method: 'POST',
    url: '/api/contacts',
    payload: {
      name: 'Thandi Stores (Pty) Ltd',
      contactType: 'CUSTOMER',
      email: 'accounts@thandi.example.com',
    },
  });
  assert.equal(c.statusCode, 201, c.body);
  return { api, customerId: c.json().id };
}

export interface DocOptions {
  documentType?: string;
  issueDate?: string;
  dueDate?: string;
  lines?: object[];
  [k: string]: unknown;
}

export async function createDoc(s: Sales, o: DocOptions = {}) {
  const res = await s.api({
    method: 'POST',
    url: '/api/invoices',
    payload: {
      contactId: s.customerId,
      documentType: 'invoice',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'Consulting', quantity: 3, unitPrice: 333.33 }],
      ...o,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

export async function release(s: Sales, id: string) {
  const res = await s.api({ method: 'POST', url: `/api/invoices/${id}/release` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

export async function released(s: Sales, o: DocOptions = {}) {
  return release(s, (await createDoc(s, o)).id);
}

export async function pay(s: Sales, id: string, amount: number, date = '2026-03-10') {
  return s.api({ method: 'POST', url: `/api/invoices/${id}/payments`, payload: { amount, date } });
}

/** An entry's lines as [account code, debit, credit, tax code, tax rate]. */
export async function entryLines(s: Sales, id: string) {
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  type Line = {
    accountCode: string;
    debit: number;
    credit: number;
    taxCode: string | null;
    taxRate: number | null;
  };
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode, l.taxRate]);
}

/** A GET that must answer 200, its body. */
export async function fetched(s: Sales, url: string) {
  const res = await s.api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** An account's balance (debits less credits) from its ledger lines, by code. */
export async function balanceOfCode(s: Sales, code: string): Promise<number> {
  const accounts = await fetched(s, '/api/accounts');
  const account = accounts.find((a: { code: string }) => a.code === code);
  const lines = await fetched(s, `/api/ledger?accountId=${account.id}&limit=200`);
  type Line = { debit: number; credit: number };
  return Math.round(lines.items.reduce((n: number, l: Line) => n + l.debit * 100 - l.credit * 100, 0)) / 100;
}
