// Test helpers for stock moved by sales and purchases: a VAT-registered company with a supplier
// and a customer, tracked products, and the balances the tests check.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Registered, TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { balanceOfCode, type Sales } from '../invoices/invoices.factories.ts';

export interface Books {
  t: TestApp;
  b: Registered;
  p: Purchases;
  s: Sales;
}

export async function booksSetup(t: TestApp, b: Registered): Promise<Books> {
  const p = await purchasesSetup(t, b);
  const c = await p.api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Thandi Stores (Pty) Ltd', contactType: 'CUSTOMER' },
  });
  assert.equal(c.statusCode, 201, c.body);
  return { t, b, p, s: { api: p.api, customerId: c.json().id } };
}

/** A tracked product; `set` changes columns the products API does not take (yet). */
export async function product(k: Books, sku: string, set: Record<string, unknown> = {}): Promise<string> {
  const res = await k.p.api({
    method: 'POST',
    url: '/api/inventory/products',
    payload: { sku, name: `Widget ${sku}`, unitPrice: 150, isTracked: true },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().id as string;
  if (Object.keys(set).length)
    await withTenant(k.t.database.db, k.b.tenantId, (tx) =>
      tx.updateTable('products').set(set).where('id', '=', id).execute(),
    );
  return id;
}

/** Balances (debits less credits) of inventory 1200, cost of sales 5000, GRNI 2160. */
export async function books(k: Books) {
  return {
    inventory: await balanceOfCode(k.s, '1200'),
    costOfSales: await balanceOfCode(k.s, '5000'),
    grni: await balanceOfCode(k.s, '2160'),
  };
}

/** On hand and value of a product in the company (its cost pool). */
export async function stock(k: Books, productId: string) {
  const r = await withTenant(k.t.database.db, k.b.tenantId, (tx) =>
    tx
      .selectFrom('stock_costs')
      .select(['quantity', 'value'])
      .where('item_id', '=', productId)
      .executeTakeFirst(),
  );
  return { quantity: Number(r?.quantity ?? 0), value: Number(r?.value ?? 0) };
}

/** How many stock movements the tenant has. */
export async function movementCount(k: Books): Promise<number> {
  const r = await withTenant(k.t.database.db, k.b.tenantId, (tx) =>
    tx.selectFrom('stock_movements').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  );
  return Number(r.n);
}

/** A bill of `lines` made and approved; its body. */
export async function approvedBill(k: Books, billNumber: string, lines: object[]) {
  const res = await k.p.api({
    method: 'POST',
    url: '/api/bills',
    payload: {
      contactId: k.p.supplierId,
      billNumber,
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const ok = await k.p.api({ method: 'POST', url: `/api/bills/${res.json().id}/approve` });
  assert.equal(ok.statusCode, 200, ok.body);
  return ok.json();
}
