// Test helpers for supplier bank details and the payment run.
import assert from 'node:assert/strict';
import type { TestApp } from '../../../test/support/app.ts';
import type { Purchases } from './bills.factories.ts';

export const KAROO_BANK = {
  bankName: 'First National Bank',
  accountHolder: 'Karoo Office Supplies CC',
  accountNumber: '62001234567',
  branchCode: '250655',
  accountType: 'cheque',
};

/** PUT the contact's bank details, as of `at` on the app's clock (default: as the clock stands). */
export async function setBankDetails(
  t: TestApp,
  p: Pick<Purchases, 'api'>,
  contactId: string,
  details: Record<string, unknown> = KAROO_BANK,
  at?: string,
) {
  if (at) t.clock.set(at);
  const res = await p.api({
    method: 'PUT',
    url: `/api/contacts/${contactId}/bank-details`,
    payload: details,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Another supplier of the tenant (contacts are one book per tenant). */
export async function supplier(p: Pick<Purchases, 'api'>, name: string, vatNumber = '4111111111') {
  const c = await p.api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name, contactType: 'SUPPLIER', vatNumber },
  });
  assert.equal(c.statusCode, 201, c.body);
  return c.json().id as string;
}

export function proposal(p: Pick<Purchases, 'api'>, dueBy?: string) {
  return p.api({ method: 'GET', url: `/api/bills/payment-run${dueBy ? `?dueBy=${dueBy}` : ''}` });
}

export function runPayments(p: Pick<Purchases, 'api'>, payload: Record<string, unknown>) {
  return p.api({ method: 'POST', url: '/api/bills/payment-run', payload });
}
