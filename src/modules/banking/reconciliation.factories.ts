// Test helpers of reconciliation: a company with a bank account, a customer and a supplier.
import assert from 'node:assert/strict';
import type { Registered, TestApp } from '../../../test/support/app.ts';
import { released, type Sales, salesSetup } from '../invoices/invoices.factories.ts';
import { type Banking, bankingSetup, ingest } from './banking.factories.ts';

export interface Recon extends Banking {
  sales: Sales;
}

export async function reconSetup(t: TestApp, b: Registered): Promise<Recon> {
  const sales = await salesSetup(t, b);
  const k = await bankingSetup(t, b);
  return { ...k, sales };
}

/** A released invoice of `net` (standard-rated: total net × 1.15), issued 2026-03-02, due 2026-04-01. */
export async function invoiceOf(r: Recon, net: number, o: Record<string, unknown> = {}) {
  return released(r.sales, { lines: [{ description: 'Consulting', quantity: 1, unitPrice: net }], ...o });
}

/** One bank line in, answered by its id. */
export async function lineOf(
  t: TestApp,
  r: Recon,
  amount: string,
  description: string,
  date = '2026-04-03',
  reference?: string,
) {
  const { ids } = await ingest(t, r, [{ date, amount, description, ...(reference ? { reference } : {}) }]);
  assert.equal(ids.length, 1);
  return ids[0]!;
}

export async function match(r: Recon, payload: object, status = 201) {
  const res = await r.api({ method: 'POST', url: '/api/reconciliation/matches', payload });
  assert.equal(res.statusCode, status, res.body);
  return res.json();
}

export async function suggestions(r: Recon, id: string) {
  const res = await r.api({ method: 'GET', url: `/api/reconciliation/transactions/${id}/suggestions` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().suggestions as {
    kind: string;
    score: number;
    certain: boolean;
    reasons: string[];
    label: string;
    accept: Record<string, unknown>;
  }[];
}

export async function bankLine(r: Recon, id: string) {
  const res = await r.api({ method: 'GET', url: `/api/reconciliation/transactions/${id}/suggestions` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
