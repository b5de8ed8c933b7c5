// A bill's lines as they are stored, from what is sent: the same on create (bills.service.ts) and
// when a draft's lines are replaced (PATCH, issue 34: the supplier's invoice may differ from the
// order it bills in price or quantity). Each line is linked to the order line it bills
// (bills.order-lines.ts), its stock fields checked, priced at the rates of the issue date, and
// given its cost centre; the order is checked (the company's, the supplier's, sent).

import type { Static } from 'typebox';
import { toSql } from '../../platform/money/money.ts';
import { assertLineStock, assertLiveProducts, stockColumn, withProductTaxCodes } from '../inventory/index.ts';
import { assertCostCentre, assertNotBelowZero } from '../ledger/index.ts';
import { linkOrderLines } from './bills.order-lines.ts';
import { closeOrder, orderForBill, receiptMismatch, reopenOrder } from './bills.orders.ts';
import type { BillRow } from './bills.queries.ts';
import type { BillLineInput } from './bills.schemas.ts';
import { type BillsCtx, pricedLines } from './bills.service.ts';
import { taxInvoiceCheck } from './bills.vat.ts';

export interface BillHeader {
  id: string;
  contactId: string;
  issueDate: string;
  purchaseOrderId?: string | null | undefined;
  costCentreId?: string | null | undefined;
}

/** The rows to insert for bill `bill.id`, its totals and its order (null when it bills none). */
export async function billLineRows(
  ctx: BillsCtx,
  companyId: string,
  bill: BillHeader,
  input: Array<Static<typeof BillLineInput>>,
) {
  const { lines, orderLineIds, orderId, orderField } = await linkOrderLines(ctx, companyId, bill, input);
  const order = orderId ? await orderForBill(ctx, companyId, bill.contactId, orderId, orderField) : null;
  // Every product and variant a line names is looked up when the bill is written (400 naming
  // lines[i].productId or .variantId), not first at approval (issue 34). A line billing an order
  // line bills goods already ordered: a product retired since does not stop the supplier being billed.
  await assertLiveProducts(
    ctx,
    lines.map((l, i) => (orderLineIds[i] ? {} : l)),
    'lines',
  );
  await assertLineStock(ctx, lines, 'lines');
  // A line naming a product and no code or rate of its own takes the product's purchase code.
  const taxed = await withProductTaxCodes(ctx, lines, 'purchase');
  const { totals, rows } = await pricedLines(ctx, companyId, taxed, bill.issueDate);
  // The input side's mirror of the sales rule: a supplier's invoice whose VAT is below zero would
  // reduce input tax without the supplier's credit note (s21): 422 naming vatAmount (the bill's
  // answer names its VAT so). A total below zero was refused already (pricedLines: 400 lines).
  assertNotBelowZero(totals, 'bill', { total: 'amount', vatTotal: 'vatAmount' });
  for (const [i, l] of lines.entries())
    if (l.costCentreId)
      await assertCostCentre(ctx.db, ctx.tenantId, companyId, l.costCentreId, `lines[${i}].costCentreId`);
  return {
    totals,
    orderId,
    order,
    rows: rows.map((r, i) => ({
      ...r,
      bill_id: bill.id,
      // A line's own cost centre, else the bill's: what its cost posts to.
      cost_centre_id: lines[i]!.costCentreId ?? bill.costCentreId ?? null,
      product_id: lines[i]!.productId ?? null,
      variant_id: lines[i]!.variantId ?? null,
      stock: stockColumn(lines[i]!),
      purchase_order_line_id: orderLineIds[i] ?? null,
    })),
  };
}

/**
 * PATCH with lines: a draft's (or a bill awaiting approval's) lines replaced whole by what the
 * supplier invoiced. The old lines are retired, not deleted; the totals, the tax invoice check
 * (with the bill's VAT number, else the supplier's now) and the three-way match are worked again.
 * Answers the bill's columns to set.
 */
export async function replaceBillLines(
  ctx: BillsCtx,
  row: BillRow,
  input: Array<Static<typeof BillLineInput>>,
): Promise<Partial<Record<keyof BillRow, unknown>>> {
  const { totals, rows, orderId, order } = await billLineRows(
    ctx,
    row.company_id,
    {
      id: row.id,
      contactId: row.contact_id,
      issueDate: row.issue_date,
      purchaseOrderId: row.purchase_order_id,
      costCentreId: row.cost_centre_id,
    },
    input,
  );
  const contact = await ctx.db
    .selectFrom('contacts')
    .select('vat_number')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.contact_id)
    .executeTakeFirst();
  const vatNumber = row.supplier_vat_number ?? contact?.vat_number ?? null;
  const claim = row.vat_registered
    ? taxInvoiceCheck({ total: totals.total, vatTotal: totals.vatTotal, vatNumber })
    : { vatNumber, warning: null };
  await ctx.db
    .updateTable('bill_lines')
    .set({ retired_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('bill_id', '=', row.id)
    .where('retired_at', 'is', null)
    .execute();
  await ctx.db.insertInto('bill_lines').values(rows).execute();
  // What the order's lines are billed for changed: its status follows, both ways.
  await reopenOrder(ctx, row.purchase_order_id);
  await closeOrder(ctx, orderId);
  return {
    subtotal: toSql(totals.subtotal),
    vat_total: toSql(totals.vatTotal),
    total: toSql(totals.total),
    supplier_vat_number: claim.vatNumber,
    vat_warning: claim.warning,
    purchase_order_id: orderId,
    purchase_order_number: order ? order.number : row.purchase_order_number,
    receipt_mismatch: orderId ? await receiptMismatch(ctx, orderId, row.id) : null,
  };
}
