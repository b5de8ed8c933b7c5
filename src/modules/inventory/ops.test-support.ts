// Test support for batches, serials, stock takes, transfers and landed costs: a product set up
// for stock (tracking and cost method written straight to the row, as the products routes may
// not offer them yet), stock put in through moveStock with its entry posted against GRNI (as a
// purchase receipt would), and reads of balances and account totals. Tests only.
import { sql } from 'kysely';
import { as, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { post, systemAccount } from '../ledger/index.ts';
import { batchOf, defaultLocation, serialOf, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

interface Who {
  tenantId: string;
  companyId: string;
}

export async function productForTest(
  t: TestApp,
  who: Who,
  opts: { tracking?: 'none' | 'batch' | 'serial'; costMethod?: 'average' | 'fifo'; weight?: number } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, who.tenantId, (tx) =>
    tx
      .insertInto('products')
      .values({
        tenant_id: who.tenantId,
        id,
        sku: `T-${id.slice(0, 8)}`,
        name: `Test item ${id.slice(0, 4)}`,
        unit_price: '200',
        is_tracked: true,
        tracking: opts.tracking ?? 'none',
        cost_method: opts.costMethod ?? 'average',
        allow_negative: false,
        weight: opts.weight == null ? null : String(opts.weight),
      } as never)
      .execute(),
  );
  return id;
}

export interface Receive {
  productId: string;
  quantity: number;
  unitCost: number;
  date?: string;
  locationId?: string;
  batchCode?: string;
  expiryDate?: string;
  serial?: string;
  type?: 'purchase' | 'receipt' | 'sale';
}

/** Puts stock in (or, type sale with a negative quantity, takes it out) and posts its entry. */
export async function receiveForTest(t: TestApp, who: Who, r: Receive): Promise<string> {
  return withTenant(t.database.db, who.tenantId, async (tx) => {
    const ctx = { db: tx, tenantId: who.tenantId };
    const item = await stockItem(ctx, r.productId, null);
    const batchId = r.batchCode ? (await batchOf(ctx, item, r.batchCode, r.expiryDate)).id : null;
    const serialId = r.serial ? await serialOf(ctx, item, r.serial) : null;
    const entryId = crypto.randomUUID();
    const date = r.date ?? '2026-03-01';
    const sale = r.type === 'sale';
    const counter = await systemAccount(ctx, who.companyId, sale ? 'cost_of_sales' : 'grni');
    const moved = await moveStock(ctx, {
      companyId: who.companyId,
      locationId: r.locationId ?? null,
      productId: r.productId,
      batchId,
      serialId,
      date,
      type: r.type ?? 'purchase',
      quantity: r.quantity,
      unitCost: sale ? null : r.unitCost,
      source: { type: 'test' },
      entryId,
      counterAccountId: counter,
      item,
    });
    await post(ctx, {
      companyId: who.companyId,
      date,
      description: 'Test stock',
      source: { type: 'test' },
      entryId,
      lines: moved.lines,
    });
    return moved.movementId;
  });
}

/** On hand at a location (every batch), in the company. */
export async function onHandForTest(t: TestApp, who: Who, productId: string, locationId: string) {
  const r = await withTenant(t.database.db, who.tenantId, (tx) =>
    sql<{ q: string | null }>`select sum(quantity)::text as q from stock_balances
      where tenant_id = ${who.tenantId} and company_id = ${who.companyId}
        and location_id = ${locationId} and item_id = ${productId}`.execute(tx),
  );
  return Number(r.rows[0]?.q ?? 0);
}

/** The company's cost pool of the item: quantity and value. */
export async function poolForTest(t: TestApp, who: Who, productId: string) {
  const r = await withTenant(t.database.db, who.tenantId, (tx) =>
    tx
      .selectFrom('stock_costs')
      .select(['quantity', 'value'])
      .where('company_id', '=', who.companyId)
      .where('item_id', '=', productId)
      .executeTakeFirst(),
  );
  return { quantity: Number(r?.quantity ?? 0), value: Number(r?.value ?? 0) };
}

/** Debits less credits on the company's system account `key`. */
export async function balanceForTest(t: TestApp, who: Who, key: string) {
  const r = await withTenant(t.database.db, who.tenantId, (tx) =>
    sql<{ b: string | null }>`select sum(l.debit - l.credit)::text as b from journal_lines l
      join accounts a on a.tenant_id = l.tenant_id and a.id = l.account_id
      where l.tenant_id = ${who.tenantId} and l.company_id = ${who.companyId} and a.system_key = ${key}`.execute(
      tx,
    ),
  );
  return Number(r.rows[0]?.b ?? 0);
}

/** How many journal entries the company has. */
export async function entryCountForTest(t: TestApp, who: Who) {
  const r = await withTenant(t.database.db, who.tenantId, (tx) =>
    sql<{ n: string }>`select count(*)::text as n from journal_entries
      where tenant_id = ${who.tenantId} and company_id = ${who.companyId}`.execute(tx),
  );
  return Number(r.rows[0]!.n);
}

/** A second location of the company (a warehouse), made straight in the table. */
export async function locationForTest(t: TestApp, who: Who, code: string): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, who.tenantId, (tx) =>
    tx
      .insertInto('stock_locations')
      .values({ tenant_id: who.tenantId, id, company_id: who.companyId, code, name: code, kind: 'warehouse' })
      .execute(),
  );
  return id;
}

/** The company's default location (made on first use). */
export async function mainForTest(t: TestApp, who: Who): Promise<string> {
  return withTenant(t.database.db, who.tenantId, (tx) =>
    defaultLocation({ db: tx, tenantId: who.tenantId }, who.companyId),
  );
}

/** Debits less credits on one account. */
export async function accountBalanceForTest(t: TestApp, who: Who, accountId: string) {
  const r = await withTenant(t.database.db, who.tenantId, (tx) =>
    sql<{ b: string | null }>`select sum(debit - credit)::text as b from journal_lines
      where tenant_id = ${who.tenantId} and account_id = ${accountId}`.execute(tx),
  );
  return Number(r.rows[0]?.b ?? 0);
}

/** A second company of the tenant (the business plan allows three), for clientId clashes. */
export async function secondCompanyForTest(
  t: TestApp,
  who: Who & { token: string },
): Promise<ReturnType<typeof as>> {
  const res = await as(
    t.app,
    who.token,
  )({ method: 'POST', url: '/api/companies', payload: { name: 'Second' } });
  if (res.statusCode !== 201) throw new Error(`second company: ${res.statusCode} ${res.body}`);
  return as(t.app, who.token, res.json().id);
}
