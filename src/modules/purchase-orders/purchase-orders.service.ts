// Purchase orders: create (numbered PO-0001 per company; idempotent on clientId), read, list,
// change while a draft, delete (a draft) or cancel. An order is a commitment, not a
// transaction: nothing here touches the ledger. Receipts and billing are in
// purchase-orders.receiving.ts, the PDF and e-mail in purchase-orders.send.ts.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money, toSql } from '../../platform/money/money.ts';
import { takeNumber } from '../../platform/numbering/counters.ts';
import { companyOf } from '../../platform/work/context.ts';
import { type BillsCtx, pricedLines } from '../bills/index.ts';
import { assertLineStock, assertLiveProducts, stockColumn, stockInput } from '../inventory/index.ts';
import { vatRegisteredOn } from '../ledger/index.ts';
import {
  findOrderRow,
  type OrderRecord,
  type OrderRow,
  orderLines,
  orderRecords,
} from './purchase-orders.queries.ts';
import {
  PURCHASE_ORDER_DEFAULT_SORT,
  type PURCHASE_ORDER_SORT_KEYS,
  type PurchaseOrderCreate,
  type PurchaseOrderLineInput,
  type PurchaseOrderListQuery,
  type PurchaseOrderUpdate,
} from './purchase-orders.schemas.ts';

export async function recordOf(ctx: BillsCtx, row: OrderRow): Promise<OrderRecord> {
  return (await orderRecords(ctx.db, ctx.tenantId, [row]))[0]!;
}

export async function getOrder(ctx: TenantCtx, id: string): Promise<OrderRecord> {
  const row = await findOrderRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Purchase order');
  return recordOf(ctx, row);
}

/** Locks the order; 404 when it is not the company's live order. */
export async function lockOrder(ctx: BillsCtx, id: string): Promise<OrderRow> {
  const row = await findOrderRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Purchase order');
  return row;
}

/** The supplier: a live SUPPLIER contact of the tenant (another tenant's, or none, is 404). */
export async function supplierOf(ctx: BillsCtx, contactId: string) {
  const c = await ctx.db
    .selectFrom('contacts')
    .select(['name', 'contact_type', 'email', 'vat_number'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!c) throw notFound('Contact');
  if (c.contact_type !== 'SUPPLIER')
    throw badRequest('contactId', `${c.name} is a ${c.contact_type.toLowerCase()}, not a supplier`);
  return c;
}

type LineInput = Static<typeof PurchaseOrderLineInput>;

/** The lines priced as a bill's would be on `issueDate`, ready to insert for order `orderId`. */
async function lineRows(
  ctx: BillsCtx,
  companyId: string,
  orderId: string,
  lines: LineInput[],
  issueDate: string,
) {
  // Every product a line names is looked up when the order is written (400 naming
  // lines[i].productId), so an order that could not be received is never sent (issue 34).
  await assertLiveProducts(ctx, lines, 'lines');
  await assertLineStock(ctx, lines, 'lines');
  const { totals, rows } = await pricedLines(ctx, companyId, lines, issueDate);
  return {
    totals,
    rows: rows.map((r, i) => ({
      tenant_id: r.tenant_id,
      id: r.id,
      purchase_order_id: orderId,
      line_no: r.line_no,
      description: r.description,
      quantity: r.quantity,
      unit_price: r.unit_price,
      tax_code: r.tax_code,
      vat_rate: r.vat_rate,
      account_id: r.account_id,
      product_id: lines[i]!.productId ?? null,
      stock: stockColumn(lines[i]!),
      net_amount: r.net_amount,
      vat_amount: r.vat_amount,
      total_amount: r.total_amount,
    })),
  };
}

/**
 * The order's lines as they stand can be received: each product (and variant) still live, each
 * unit still the product's (400 naming lines[i].productId, .variantId or .unit). Checked when
 * the order is sent, so that an order the receipt would refuse is never e-mailed to a supplier
 * (a product deleted after the draft was written).
 */
export async function assertReceivable(ctx: BillsCtx, orderId: string): Promise<void> {
  const lines = (await orderLines(ctx.db, ctx.tenantId, [orderId])).get(orderId)!;
  const named = lines.map((l) => ({
    productId: l.product_id,
    variantId: l.variant_id,
    quantity: Number(l.quantity),
    ...stockInput(l.stock),
  }));
  await assertLiveProducts(ctx, named, 'lines');
  await assertLineStock(ctx, named, 'lines');
}

/** PO-0001: the company's next purchase order number (the sales documents' gap-free counter). */
const orderNumber = sql<string>`(select 'PO-' || case when length(n::text) >= 4 then n::text else lpad(n::text, 4, '0') end from taken)`;

/** POST /api/purchase-orders: 201 with the new draft, 200 with the one a repeated clientId made. */
export async function createOrder(
  ctx: TenantCtx,
  input: Static<typeof PurchaseOrderCreate>,
): Promise<OrderRecord> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'purchase_orders',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    const existing = await ctx.db
      .selectFrom('purchase_orders')
      .selectAll()
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return recordOf(ctx, existing);
  }
  if (input.expectedDate && input.expectedDate < input.issueDate)
    throw badRequest('expectedDate', 'must not be before issueDate');
  await supplierOf(ctx, input.contactId);
  const { totals, rows } = await lineRows(ctx, companyId, id, input.lines, input.issueDate);
  const row = await ctx.db
    .with('taken', (db) => takeNumber(db, ctx.tenantId, companyId, 'purchase_order'))
    .insertInto('purchase_orders')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: input.contactId,
      number: orderNumber,
      status: 'draft',
      issue_date: input.issueDate,
      expected_date: input.expectedDate ?? null,
      currency: input.currency ?? 'ZAR',
      reference: input.reference ?? null,
      notes: input.notes ?? null,
      delivery_address: input.deliveryAddress ?? null,
      vat_registered: await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.issueDate),
      subtotal: toSql(totals.subtotal),
      vat_total: toSql(totals.vatTotal),
      total: toSql(totals.total),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('purchase_order_lines').values(rows).execute();
  ctx.reply.code(201);
  return recordOf(ctx, row);
}

type SortKey = (typeof PURCHASE_ORDER_SORT_KEYS)[number];
const SORT_COLUMNS = {
  date: ['issue_date', 'created_at'],
  number: ['number'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<SortKey, readonly string[]>;

export async function listOrders(
  ctx: TenantCtx,
  query: Static<typeof PurchaseOrderListQuery>,
): Promise<Page<OrderRecord>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  const p = paging(query);
  const order = sortOrder<SortKey>(query.sort, PURCHASE_ORDER_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('purchase_orders')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync learns of deleted orders too (deletedAt set); any other list shows live ones.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (query.from) q = q.where('issue_date', '>=', query.from);
  if (query.to) q = q.where('issue_date', '<=', query.to);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await orderRecords(ctx.db, ctx.tenantId, rows), total, p);
}

function assertDraft(row: OrderRow) {
  if (row.status !== 'draft')
    throw conflict(`Purchase order ${row.number} is ${row.status.replace('_', ' ')}: only a draft changes`, {
      code: 'NOT_A_DRAFT',
    });
}

/**
 * PATCH /api/purchase-orders/{id}: a draft's header and lines. New lines replace the old ones
 * (retired, not deleted); a new issue date prices the lines again at its rates.
 */
export async function updateOrder(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof PurchaseOrderUpdate>,
): Promise<OrderRecord> {
  const row = await lockOrder(ctx, id);
  assertDraft(row);
  const issueDate = input.issueDate ?? row.issue_date;
  const expectedDate = input.expectedDate === undefined ? row.expected_date : input.expectedDate;
  if (expectedDate && expectedDate < issueDate)
    throw badRequest('expectedDate', 'must not be before issueDate');
  if (input.contactId) await supplierOf(ctx, input.contactId);
  const set: Record<string, unknown> = { issue_date: issueDate, expected_date: expectedDate };
  if (input.contactId) set.contact_id = input.contactId;
  if (input.reference !== undefined) set.reference = input.reference;
  if (input.notes !== undefined) set.notes = input.notes;
  if (input.deliveryAddress !== undefined) set.delivery_address = input.deliveryAddress;
  if (input.lines || issueDate !== row.issue_date) {
    const lines: LineInput[] =
      input.lines ??
      (await orderLines(ctx.db, ctx.tenantId, [id])).get(id)!.map((l) => ({
        description: l.description,
        quantity: money(l.quantity).toNumber(),
        unitPrice: money(l.unit_price).toNumber(),
        taxCode: l.tax_code as NonNullable<LineInput['taxCode']>,
        accountId: l.account_id,
        productId: l.product_id,
        ...(l.stock?.unit ? { unit: l.stock.unit } : {}),
      }));
    const companyId = companyOf(ctx);
    const { totals, rows } = await lineRows(ctx, companyId, id, lines, issueDate);
    await ctx.db
      .updateTable('purchase_order_lines')
      .set({ retired_at: ctx.deps.now() })
      .where('tenant_id', '=', ctx.tenantId)
      .where('purchase_order_id', '=', id)
      .where('retired_at', 'is', null)
      .execute();
    await ctx.db.insertInto('purchase_order_lines').values(rows).execute();
    Object.assign(set, {
      subtotal: toSql(totals.subtotal),
      vat_total: toSql(totals.vatTotal),
      total: toSql(totals.total),
      vat_registered: await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, issueDate),
    });
  }
  const updated = await ctx.db
    .updateTable('purchase_orders')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

const NOTHING_POSTED = 'Nothing in the ledger changed: an order is a commitment, not a transaction.';

/**
 * POST /api/purchase-orders/{id}/cancel: a sent or partly received order of which nothing is
 * billed is cancelled (what was received stays recorded).
 */
export async function cancelOrder(ctx: TenantCtx, id: string): Promise<OrderRecord> {
  const row = await lockOrder(ctx, id);
  return recordOf(ctx, await cancelLocked(ctx, row));
}

async function cancelLocked(ctx: TenantCtx, row: OrderRow): Promise<OrderRow> {
  if (row.status === 'draft')
    throw conflict(`Purchase order ${row.number} is a draft: delete it instead of cancelling it`, {
      code: 'ORDER_NOT_SENT',
    });
  if (row.status === 'cancelled' || row.status === 'billed')
    throw conflict(`Purchase order ${row.number} is ${row.status} already`, { code: 'ORDER_CLOSED' });
  const lines = (await orderLines(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  if (lines.some((l) => !money(l.billed).isZero()))
    throw conflict(
      `Part of purchase order ${row.number} is billed: it is not cancelled (void the bills first)`,
      {
        code: 'ORDER_BILLED',
      },
    );
  if (row.status === 'received')
    throw conflict(`Purchase order ${row.number} is received in full: bill it rather than cancel it`, {
      code: 'CONFLICT',
    });
  return ctx.db
    .updateTable('purchase_orders')
    .set({ status: 'cancelled', cancelled_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * DELETE /api/purchase-orders/{id}: a draft is marked deleted; a sent or partly received order
 * is cancelled instead (it was sent to the supplier: it stays on record).
 */
export async function deleteOrder(
  ctx: TenantCtx,
  id: string,
): Promise<{ status: OrderRow['status']; ledgerNotice: string }> {
  const row = await lockOrder(ctx, id);
  if (row.status !== 'draft') {
    const cancelled = await cancelLocked(ctx, row);
    return {
      status: cancelled.status,
      ledgerNotice: `Purchase order ${row.number} was cancelled. ${NOTHING_POSTED}`,
    };
  }
  await ctx.db
    .updateTable('purchase_orders')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return {
    status: row.status,
    ledgerNotice: `Draft purchase order ${row.number} was deleted. ${NOTHING_POSTED}`,
  };
}
