// Test helpers: purchase orders made and moved through the API, on the bills' purchases setup
// (a VAT-registered company and one supplier).
import assert from 'node:assert/strict';
import type { Purchases } from '../bills/bills.factories.ts';

/** 10 reams at 100.00, standard-rated: 1,000.00 + VAT 150.00 = 1,150.00. */
export const REAMS = [{ description: 'A4 paper, ream', quantity: 10, unitPrice: 100 }];

export function createOrder(p: Purchases, o: Record<string, unknown> = {}) {
  return p.api({
    method: 'POST',
    url: '/api/purchase-orders',
    payload: { contactId: p.supplierId, issueDate: '2026-03-02', lines: REAMS, ...o },
  });
}

export async function order(p: Purchases, o: Record<string, unknown> = {}) {
  const res = await createOrder(p, o);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** Made and sent (to an address given: the supplier may have none). */
export async function sentOrder(p: Purchases, o: Record<string, unknown> = {}) {
  const po = await order(p, o);
  const res = await p.api({
    method: 'POST',
    url: `/api/purchase-orders/${po.id}/send`,
    payload: { to: 'orders@karoo.example.co.za' },
  });
  assert.equal(res.statusCode, 202, res.body);
  return res.json().purchaseOrder;
}

export function receive(
  p: Purchases,
  id: string,
  lines: Array<{ lineId: string; quantity: number }>,
  date = '2026-03-05',
) {
  return p.api({ method: 'POST', url: `/api/purchase-orders/${id}/receipts`, payload: { date, lines } });
}

export async function received(
  p: Purchases,
  id: string,
  lines: Array<{ lineId: string; quantity: number }>,
  date?: string,
) {
  const res = await receive(p, id, lines, date);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

export function billOrder(p: Purchases, id: string, billNumber = 'KOS-1001', issueDate = '2026-03-10') {
  return p.api({
    method: 'POST',
    url: `/api/purchase-orders/${id}/bill`,
    payload: { billNumber, issueDate, dueDate: '2026-04-09' },
  });
}

/** The field a 400 names. */
export function fieldOf(res: { json(): unknown }): string | undefined {
  const b = res.json() as { field?: string; errors?: Array<{ field?: string }> };
  return b.errors?.[0]?.field ?? b.field;
}
