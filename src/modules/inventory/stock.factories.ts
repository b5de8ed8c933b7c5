// Test helpers for stock: a product set up for stock (cost method, tracking, negative stock),
// stock in and out by adjustment, and the figures a test compares (pool, on hand, ledger).
import assert from 'node:assert/strict';
import type { as, TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';

type Api = ReturnType<typeof as>;

let n = 0;

/** A tracked product; its stock settings are set directly (the products API may lack them). */
export async function stockProduct(
  t: TestApp,
  api: Api,
  tenantId: string,
  o: {
    costMethod?: 'average' | 'fifo';
    tracking?: 'none' | 'batch' | 'serial';
    allowNegative?: boolean;
  } = {},
): Promise<string> {
  n++;
  const res = await api({
    method: 'POST',
    url: '/api/inventory/products',
    payload: {
      sku: `STK-${n}-${Math.random().toString(36).slice(2, 7)}`,
      name: `Stock item ${n}`,
      unitPrice: 100,
      isTracked: true,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().id as string;
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .updateTable('products')
      .set({
        cost_method: o.costMethod ?? 'average',
        tracking: o.tracking ?? 'none',
        allow_negative: o.allowNegative ?? true,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute(),
  );
  return id;
}

export interface AdjustLine {
  productId: string;
  quantity: number;
  unitCost?: number;
  variantId?: string;
  batchCode?: string;
  serials?: string[];
}

/** POST /api/inventory/adjustments; answers the response (status not checked). */
export function adjustRaw(
  api: Api,
  date: string,
  lines: AdjustLine[],
  extra: { type?: 'adjustment' | 'opening'; locationId?: string } = {},
) {
  return api({
    method: 'POST',
    url: '/api/inventory/adjustments',
    payload: { date, reason: 'Test', lines, ...extra },
  });
}

/** An adjustment that must succeed; answers its body. */
export async function adjust(
  api: Api,
  date: string,
  lines: AdjustLine[],
  extra: { type?: 'adjustment' | 'opening'; locationId?: string } = {},
) {
  const res = await adjustRaw(api, date, lines, extra);
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as {
    id: string;
    value: number;
    movements: Array<{ id: string; value: number; type: string }>;
  };
}

/** The item's cost pool in the company: [quantity, value] as strings of fixed decimals. */
export async function pool(t: TestApp, tenantId: string, companyId: string, itemId: string) {
  const r = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('stock_costs')
      .select(['quantity', 'value'])
      .where('tenant_id', '=', tenantId)
      .where('company_id', '=', companyId)
      .where('item_id', '=', itemId)
      .executeTakeFirst(),
  );
  return [money(r?.quantity ?? 0).toFixed(4), money(r?.value ?? 0).toFixed(2)];
}

/** The balance of the company's inventory accounts (subtype inventory) up to `asOf`, from the lines. */
export async function inventoryInLedger(
  t: TestApp,
  tenantId: string,
  companyId: string,
  asOf = '9999-12-31',
) {
  const r = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('journal_lines as l')
      .innerJoin('accounts as a', (j) =>
        j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
      )
      .select((eb) => [eb.fn.sum<string>('l.debit').as('d'), eb.fn.sum<string>('l.credit').as('c')])
      .where('l.tenant_id', '=', tenantId)
      .where('l.company_id', '=', companyId)
      .where('a.subtype', '=', 'inventory')
      .where('l.date', '<=', asOf)
      .executeTakeFirstOrThrow(),
  );
  return money(r.d ?? 0)
    .minus(money(r.c ?? 0))
    .toFixed(2);
}
