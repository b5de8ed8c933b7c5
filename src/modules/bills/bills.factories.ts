// Test helpers: a VAT-registered company with a supplier, and bills made through the API.
import assert from 'node:assert/strict';
import { as, type Registered, type TestApp } from '../../../test/support/app.ts';

export interface Purchases {
  api: ReturnType<typeof as>;
  supplierId: string;
}

/** A company VAT-registered from 2017, and one supplier (with a VAT number unless told). */
export async function purchasesSetup(
  t: TestApp,
  b: Registered,
  opts: { supplierVatNumber?: string | null } = {},
): Promise<Purchases> {
  const api = as(t.app, b.token, b.companyId);
  const res = await api({
    method: 'PATCH',
    url: `/api/companies/${b.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' },
  });
  assert.equal(res.statusCode, 200, res.body);
  const vatNumber = opts.supplierVatNumber === undefined ? '4987654321' : opts.supplierVatNumber;
  const c = await api({
    method: 'POST',
    url: '/api/contacts',
    payload: {
      name: 'Karoo Office Supplies CC',
      contactType: 'SUPPLIER',
      ...(vatNumber ? { vatNumber } : {}),
    },
  });
  assert.equal(c.statusCode, 201, c.body);
  return { api, supplierId: c.json().id };
}

/** 1,000.00 standard-rated (VAT 150.00) and 200.00 exempt (no VAT): total 1,350.00. */
export const TWO_LINES = [
  { description: 'Printer paper', quantity: 10, unitPrice: 100 },
  { description: 'Postage (exempt)', quantity: 1, unitPrice: 200, taxCode: 'exempt' },
];

export function createBill(p: Purchases, o: Record<string, unknown> = {}) {
  return p.api({
    method: 'POST',
    url: '/api/bills',
    payload: {
      contactId: p.supplierId,
      billNumber: 'KOS-1001',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: TWO_LINES,
      ...o,
    },
  });
}

export async function created(p: Purchases, o: Record<string, unknown> = {}) {
  const res = await createBill(p, o);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

export async function act(p: Purchases, id: string, action: string, payload?: object) {
  const res = await p.api({
    method: 'POST',
    url: `/api/bills/${id}/${action}`,
    ...(payload ? { payload } : {}),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Created, submitted and approved (posted). */
export async function approved(p: Purchases, o: Record<string, unknown> = {}) {
  const bill = await created(p, o);
  await act(p, bill.id, 'submit');
  return act(p, bill.id, 'approve');
}

export function payBill(p: Purchases, id: string, amount: number, date = '2026-03-10') {
  return p.api({ method: 'POST', url: `/api/bills/${id}/payments`, payload: { amount, date } });
}
