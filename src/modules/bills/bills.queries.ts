// Reading bills: a row, its lines, what has been paid on it, and the record GET answers. A page
// of bills is read with its lines, payments and supplier names in three statements, never a
// query per bill.

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import { toQuantity, toUnitPrice } from '../../platform/money/quantity.ts';
import { stockAnswer } from '../inventory/index.ts';
import type { Bill } from './bills.schemas.ts';
import type { BillLinesTable, BillsTable } from './bills.tables.ts';
import type { BillTaxCode } from './bills.vat.ts';

export type BillRow = Selectable<BillsTable>;
export type BillLineRow = Selectable<BillLinesTable>;
export type BillRecord = Static<typeof Bill>;

export function findBillRow(
  tx: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  opts: { lock?: boolean; includeDeleted?: boolean } = {},
): Promise<BillRow | undefined> {
  let q = tx
    .selectFrom('bills')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  if (!opts.includeDeleted) q = q.where('deleted_at', 'is', null);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function billLines(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, BillLineRow[]>> {
  const out = new Map<string, BillLineRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await tx
    .selectFrom('bill_lines')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('bill_id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('line_no')
    .execute();
  for (const r of rows) out.get(r.bill_id)!.push(r);
  return out;
}

/** What has moved on a bill: paid (payments not reversed), offset and refunded by credit notes. */
export interface BillSettlement {
  paid: string;
  offset: string;
  refunded: string;
}

const NOTHING: BillSettlement = { paid: '0', offset: '0', refunded: '0' };

/** Each bill's settlement, in two statements for any number of bills. */
export async function billSettlements(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, BillSettlement>> {
  const out = new Map<string, BillSettlement>(ids.map((id) => [id, { ...NOTHING }]));
  if (!ids.length) return out;
  const paid = await tx
    .selectFrom('bill_payments')
    .select(['bill_id', (eb) => eb.fn.sum<string>('amount').as('paid')])
    .where('tenant_id', '=', tenantId)
    .where('bill_id', 'in', ids)
    .where('reversed_at', 'is', null)
    .groupBy('bill_id')
    .execute();
  for (const r of paid) out.get(r.bill_id)!.paid = r.paid;
  const credited = await tx
    .selectFrom('bill_credit_notes')
    .select(['bill_id', 'settlement', (eb) => eb.fn.sum<string>('total').as('total')])
    .where('tenant_id', '=', tenantId)
    .where('bill_id', 'in', ids)
    .where('status', '<>', 'void')
    .groupBy(['bill_id', 'settlement'])
    .execute();
  for (const r of credited) {
    const s = out.get(r.bill_id)!;
    if (r.settlement === 'offset') s.offset = r.total;
    else s.refunded = r.total;
  }
  return out;
}

/**
 * What is still owed on the bill: its total less payments and offset credit notes; nothing on a
 * void or rejected one. The one statement of it: the bill's answer, its lists, payments, the
 * payment run and reconciliation read it (issue 35, item 4: the list zeroed a void bill where
 * reconciliation did not).
 */
export function amountDueOf(row: BillRow, s: BillSettlement): string {
  if (row.status === 'void' || row.status === 'rejected') return '0.00';
  return money(row.total).minus(money(s.paid)).minus(money(s.offset)).toFixed(2);
}

/** What remains of the bill to credit: its total less every credit note against it (s21). */
export function remainingToCreditOf(row: BillRow, s: BillSettlement): string {
  return money(row.total).minus(money(s.offset)).minus(money(s.refunded)).toFixed(2);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** What a bill line and a supplier credit note line answer alike. */
export function toTaxedLine(
  l: Pick<
    BillLineRow,
    | 'line_no'
    | 'description'
    | 'quantity'
    | 'unit_price'
    | 'tax_code'
    | 'vat_rate'
    | 'account_id'
    | 'net_amount'
    | 'vat_amount'
    | 'total_amount'
  >,
) {
  return {
    lineNo: l.line_no,
    description: l.description,
    quantity: toQuantity(l.quantity),
    unitPrice: toUnitPrice(l.unit_price),
    taxCode: l.tax_code as BillTaxCode,
    vatRate: toNumber(l.vat_rate),
    accountId: l.account_id,
    netAmount: toNumber(l.net_amount),
    vatAmount: toNumber(l.vat_amount),
    totalAmount: toNumber(l.total_amount),
  };
}

export function toBill(row: BillRow, lines: BillLineRow[], s: BillSettlement, vendor: string): BillRecord {
  const standard = lines.filter((l) => l.tax_code === 'standard' || l.tax_code === 'standard_capital');
  return {
    id: row.id,
    tenantId: row.tenant_id,
    companyId: row.company_id,
    contactId: row.contact_id,
    vendor,
    billNumber: row.bill_number,
    reference: row.reference,
    notes: row.notes,
    category: row.category,
    status: row.status,
    currency: row.currency,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    subtotal: toNumber(row.subtotal),
    vatAmount: toNumber(row.vat_total),
    vatRate: standard.length ? toNumber(standard[0]!.vat_rate) : null,
    amount: toNumber(row.total),
    amountPaid: toNumber(s.paid),
    amountCredited: toNumber(money(s.offset).plus(money(s.refunded))),
    amountDue: toNumber(amountDueOf(row, s)),
    supplierVatNumber: row.supplier_vat_number,
    vatWarning: row.vat_warning,
    costCentreId: row.cost_centre_id,
    purchaseOrderId: row.purchase_order_id,
    purchaseOrderNumber: row.purchase_order_number,
    receiptMismatch: row.receipt_mismatch,
    recurring: row.recurring,
    frequency: row.frequency as BillRecord['frequency'],
    nextDate: row.next_date,
    endDate: row.end_date,
    recurrenceActive: row.recurrence_active,
    recurrenceError: row.recurrence_error,
    recurringFromId: row.recurring_from_id,
    rejectionReason: row.rejection_reason,
    onHold: row.on_hold,
    holdReason: row.hold_reason,
    disputed: row.disputed,
    disputeReason: row.dispute_reason,
    entryId: row.entry_id,
    voidEntryId: row.void_entry_id,
    approvedAt: iso(row.approved_at),
    paidAt: iso(row.paid_at),
    voidedAt: iso(row.voided_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: iso(row.deleted_at),
    lines: lines.map((l) => ({
      id: l.id,
      ...toTaxedLine(l),
      costCentreId: l.cost_centre_id,
      productId: l.product_id,
      variantId: l.variant_id,
      ...stockAnswer(l.stock),
      purchaseOrderLineId: l.purchase_order_line_id,
    })),
  };
}

/** The records of these rows, with their lines, payments and suppliers' names. */
export async function billRecords(tx: Tx, tenantId: string, rows: BillRow[]): Promise<BillRecord[]> {
  const ids = rows.map((r) => r.id);
  const contactIds = [...new Set(rows.map((r) => r.contact_id))];
  // One after another: a transaction runs one statement at a time.
  const lines = await billLines(tx, tenantId, ids);
  const settled = await billSettlements(tx, tenantId, ids);
  const names = contactIds.length
    ? await tx
        .selectFrom('contacts')
        .select(['id', 'name'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', contactIds)
        .execute()
    : [];
  const name = new Map(names.map((n) => [n.id, n.name]));
  return rows.map((r) => toBill(r, lines.get(r.id)!, settled.get(r.id)!, name.get(r.contact_id) ?? ''));
}
