// Reading purchase orders: a row, its lines with what was received and billed of each, its
// receipts and bills, and the record GET answers. A page is read in a fixed number of
// statements whatever its size, never a query per order.

import { type Selectable, sql } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import { toNumber } from '../../platform/money/money.ts';
import { toQuantity, toUnitPrice } from '../../platform/money/quantity.ts';
import { stockAnswer } from '../inventory/index.ts';
import type { PurchaseOrder } from './purchase-orders.schemas.ts';
import type { PurchaseOrderLinesTable, PurchaseOrdersTable } from './purchase-orders.tables.ts';

/** A receipt line's batch and serials (its unit is its order line's). */
function receiptStock(s: Parameters<typeof stockAnswer>[0]) {
  const { batchCode, batchExpiry, serials } = stockAnswer(s);
  return { batchCode, batchExpiry, serials };
}

export type OrderRow = Selectable<PurchaseOrdersTable>;
export type OrderLineRow = Selectable<PurchaseOrderLinesTable> & { received: string; billed: string };
export type OrderRecord = Static<typeof PurchaseOrder>;

export function findOrderRow(
  tx: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  opts: { lock?: boolean; includeDeleted?: boolean } = {},
): Promise<OrderRow | undefined> {
  let q = tx
    .selectFrom('purchase_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  if (!opts.includeDeleted) q = q.where('deleted_at', 'is', null);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

/** A bill counts while it is live: not void, rejected or deleted. */
const liveBill = sql`b.deleted_at is null and b.status not in ('void', 'rejected')`;

/** Each order's live lines, with the quantity received (receipts not reversed) and billed (live bills). */
export async function orderLines(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, OrderLineRow[]>> {
  const out = new Map<string, OrderLineRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await sql<OrderLineRow>`
    select l.*,
           coalesce((select sum(r.quantity) from purchase_order_receipt_lines r
                       join purchase_order_receipts pr on pr.tenant_id = r.tenant_id and pr.id = r.receipt_id
                      where r.tenant_id = l.tenant_id and r.purchase_order_line_id = l.id
                        and pr.reversed_at is null), 0)::text as received,
           coalesce((select sum(bl.quantity) from bill_lines bl
                       join bills b on b.tenant_id = bl.tenant_id and b.id = bl.bill_id
                      where bl.tenant_id = l.tenant_id and bl.purchase_order_line_id = l.id
                        and bl.retired_at is null and ${liveBill}), 0)::text as billed
      from purchase_order_lines l
     where l.tenant_id = ${tenantId} and l.purchase_order_id in (${sql.join(ids)}) and l.retired_at is null
     order by l.purchase_order_id, l.line_no`.execute(tx);
  for (const r of rows.rows) out.get(r.purchase_order_id)!.push(r);
  return out;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The records of these rows, with lines, receipts, bills and suppliers' names. */
export async function orderRecords(tx: Tx, tenantId: string, rows: OrderRow[]): Promise<OrderRecord[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const lines = await orderLines(tx, tenantId, ids);
  const receipts = await tx
    .selectFrom('purchase_order_receipts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('purchase_order_id', 'in', ids)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
  const receiptLines = receipts.length
    ? await tx
        .selectFrom('purchase_order_receipt_lines')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where(
          'receipt_id',
          'in',
          receipts.map((r) => r.id),
        )
        .execute()
    : [];
  const bills = await sql<{ id: string; purchase_order_id: string }>`
    select b.id, b.purchase_order_id from bills b
     where b.tenant_id = ${tenantId} and b.purchase_order_id in (${sql.join(ids)}) and ${liveBill}
     order by b.issue_date, b.created_at`.execute(tx);
  const names = await tx
    .selectFrom('contacts')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(rows.map((r) => r.contact_id))])
    .execute();
  const name = new Map(names.map((n) => [n.id, n.name]));
  return rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    companyId: row.company_id,
    number: row.number,
    contactId: row.contact_id,
    supplierName: name.get(row.contact_id) ?? '',
    status: row.status,
    issueDate: row.issue_date,
    expectedDate: row.expected_date,
    currency: row.currency,
    reference: row.reference,
    notes: row.notes,
    deliveryAddress: row.delivery_address,
    subtotal: toNumber(row.subtotal),
    vatTotal: toNumber(row.vat_total),
    total: toNumber(row.total),
    sentAt: iso(row.sent_at),
    cancelledAt: iso(row.cancelled_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: iso(row.deleted_at),
    lines: lines.get(row.id)!.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      description: l.description,
      quantity: toQuantity(l.quantity),
      quantityReceived: toQuantity(l.received),
      quantityBilled: toQuantity(l.billed),
      unitPrice: toUnitPrice(l.unit_price),
      taxCode: l.tax_code as OrderRecord['lines'][number]['taxCode'],
      vatRate: toNumber(l.vat_rate),
      accountId: l.account_id,
      productId: l.product_id,
      unit: l.stock?.unit ?? null,
      netAmount: toNumber(l.net_amount),
      vatAmount: toNumber(l.vat_amount),
      totalAmount: toNumber(l.total_amount),
    })),
    receipts: receipts
      .filter((r) => r.purchase_order_id === row.id)
      .map((r) => ({
        id: r.id,
        date: r.date,
        note: r.note,
        createdAt: r.created_at.toISOString(),
        reversedAt: iso(r.reversed_at),
        reversalDate: r.reversal_date,
        reason: r.reversal_reason,
        lines: receiptLines
          .filter((rl) => rl.receipt_id === r.id)
          .map((rl) => ({
            lineId: rl.purchase_order_line_id,
            quantity: toQuantity(rl.quantity),
            ...receiptStock(rl.stock),
          })),
      })),
    billIds: bills.rows.filter((b) => b.purchase_order_id === row.id).map((b) => b.id),
  }));
}
