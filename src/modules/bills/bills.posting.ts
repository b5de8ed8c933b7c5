// Approving a bill posts it, voiding an approved one reverses that entry. The approval's entry,
// dated the bill's issue date (VAT Act s16(2): input tax in the period the tax invoice is held):
//   Dr expense or asset per line (net)      tagged with the line's input tax code and rate
//   Dr VAT input (VAT, one line per code and rate)
//   Cr creditors control (total)             the supplier, the bill as its open item, its due date
// A company not VAT-registered on the issue date claims no input tax (s16(2)): each line's VAT is
// part of its cost, and nothing is tagged.

import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import { billStock, unbillStock, undoStock } from '../inventory/index.ts';
import {
  assertBaseCurrency,
  ledgerCtxOf,
  type PostingLine,
  post,
  reverse,
  systemAccount,
  type TaxedAmount,
  vatLinesByCode,
} from '../ledger/index.ts';
import { lockOrderRow, receiptMismatch, reopenOrder } from './bills.orders.ts';
import {
  type BillLineRow,
  type BillRecord,
  type BillRow,
  billLines,
  billSettlements,
} from './bills.queries.ts';
import { lockBill, recordOf } from './bills.service.ts';
import { type BillTaxCode, INPUT_TAX_CODE } from './bills.vat.ts';

const label = (row: BillRow) => `Bill ${row.bill_number}`;

/** The columns a bill line and a supplier credit note line share. */
export type TaxedLine = Pick<
  BillLineRow,
  'account_id' | 'description' | 'tax_code' | 'vat_rate' | 'net_amount' | 'vat_amount' | 'total_amount'
> & {
  cost_centre_id?: string | null;
  /** A line to GRNI names the order line it bills (inventory/flows.order-match.ts). */
  open_item_id?: string | null;
};

/**
 * The lines of a bill's entry (`mirror`: of a credit note against one, every side turned):
 * each line's cost (net, tagged with its input tax code and rate; its total when the company
 * claims no input tax), the VAT input by code and rate, and `counter`, the account that takes
 * the total (creditors control with the open item, or the bank).
 */
export async function purchaseEntryLines(
  ctx: TenantCtx,
  doc: { companyId: string; vatRegistered: boolean; total: Decimal; label: string; mirror: boolean },
  counter: Omit<PostingLine, 'debit' | 'credit'>,
  lines: TaxedLine[],
): Promise<PostingLine[]> {
  const lctx = ledgerCtxOf(ctx);
  const claims = doc.vatRegistered;
  // A bill's cost and VAT are debits, a credit note's credits; a negative line the other side.
  const side = (amount: Decimal) =>
    doc.mirror !== amount.isNegative() ? { credit: amount.abs() } : { debit: amount.abs() };
  const out: PostingLine[] = [
    { ...counter, ...(doc.mirror ? { debit: doc.total } : { credit: doc.total }), description: doc.label },
  ];
  const taxed: TaxedAmount[] = [];
  for (const l of lines) {
    const code = claims ? INPUT_TAX_CODE[l.tax_code as BillTaxCode] : null;
    const cost = claims ? money(l.net_amount) : money(l.total_amount);
    out.push({
      accountId: l.account_id,
      ...side(cost),
      description: l.description,
      costCentreId: l.cost_centre_id ?? null,
      ...(l.open_item_id ? { openItemId: l.open_item_id } : {}),
      ...(code ? { taxCode: code, taxRate: money(l.vat_rate) } : {}),
    });
    if (code) taxed.push({ code, rate: money(l.vat_rate), vat: money(l.vat_amount) });
  }
  out.push(
    ...(await vatLinesByCode(taxed, () => systemAccount(lctx, doc.companyId, 'vat_input'), side, doc.label)),
  );
  return out;
}

/** Creditors control, the supplier and the bill as its open item. */
export async function creditorsLine(
  ctx: Pick<WorkCtx, 'db' | 'tenantId' | 'principal'>,
  row: BillRow,
): Promise<Omit<PostingLine, 'debit' | 'credit'>> {
  return {
    accountId: await systemAccount(ledgerCtxOf(ctx), row.company_id, 'creditors_control'),
    contactId: row.contact_id,
    openItemId: row.id,
    dueDate: row.due_date,
  };
}

/** POST /api/bills/{id}/approve: a draft or a bill awaiting approval is approved and posted. */
export async function approveBill(
  ctx: TenantCtx,
  id: string,
  opts: { acceptMismatch?: boolean | undefined } = {},
): Promise<BillRecord> {
  const row = await lockBill(ctx, id);
  if (row.status !== 'awaiting_approval' && row.status !== 'draft')
    throw conflict(`Only a bill awaiting approval is approved; this one is ${row.status}`, {
      code: 'NOT_AWAITING_APPROVAL',
    });
  // Matched against its order again now: goods received since the bill came may settle it.
  const held = row.purchase_order_id ? await receiptMismatch(ctx, row.purchase_order_id, id) : null;
  if (held && !opts.acceptMismatch)
    throw conflict(`${held}. Approve it with acceptMismatch: true if that is right`, {
      code: 'RECEIPT_MISMATCH',
    });
  await assertBaseCurrency(ctx, row.company_id, row.currency, 'bill');
  if (money(row.total).isZero()) throw badRequest('lines', 'a bill of zero posts nothing');
  const lines = (await billLines(ctx.db, ctx.tenantId, [id])).get(id)!;
  // Tracked goods: to inventory (bought without an order) or GRNI (received on the order).
  const entryId = crypto.randomUUID();
  const stock = await billStock(ctx, row, lines, entryId);
  await post(ledgerCtxOf(ctx), {
    entryId,
    companyId: row.company_id,
    date: row.issue_date,
    description: `${label(row)} from the supplier`,
    reference: row.reference ?? row.bill_number,
    source: { type: 'bill', id: row.id },
    lines: (
      await purchaseEntryLines(
        ctx,
        {
          companyId: row.company_id,
          vatRegistered: row.vat_registered,
          total: money(row.total),
          label: label(row),
          mirror: false,
        },
        await creditorsLine(ctx, row),
        stock.lines,
      )
    ).concat(stock.extra),
  });
  const approvedBy =
    ctx.principal.type === 'user' || ctx.principal.type === 'api_key' ? ctx.principal.userId : null;
  const updated = await ctx.db
    .updateTable('bills')
    .set({
      status: 'approved',
      entry_id: entryId,
      approved_at: ctx.deps.now(),
      approved_by: approvedBy,
      receipt_mismatch: held,
      ...(held ? { receipt_mismatch_accepted_by: approvedBy } : {}),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

/**
 * POST /api/bills/{id}/void: an approved bill's entry is reversed (dated its issue date unless
 * `date` says otherwise); a bill never posted is voided with nothing to reverse. Refused while
 * payments stand on it (409 HAS_PAYMENTS: reverse them first).
 */
export async function voidBill(
  ctx: TenantCtx,
  id: string,
  date: string | undefined,
): Promise<BillRecord & { ledgerNotice: string }> {
  const row = await lockBill(ctx, id);
  if (row.status === 'void') throw conflict('This bill is already void', { code: 'ALREADY_VOID' });
  const s = (await billSettlements(ctx.db, ctx.tenantId, [id])).get(id)!;
  const moved = money(s.paid).plus(money(s.offset)).plus(money(s.refunded));
  if (!moved.isZero())
    throw conflict(
      `${moved.toFixed(2)} has been paid or credited on this bill; reverse the payments and credit notes before voiding it`,
      { code: 'HAS_PAYMENTS' },
    );
  if (date && date < row.issue_date) throw badRequest('date', 'must not be before the issue date');
  await lockOrderRow(ctx, row.purchase_order_id);
  const voidEntryId = row.entry_id
    ? await reverse(ledgerCtxOf(ctx), row.entry_id, {
        ...(date ? { date } : {}),
        description: `Void of ${label(row)}`,
        source: { type: 'bill', id: row.id },
      })
    : null;
  // The price difference it added to goods received on its order comes off them again.
  if (voidEntryId) await unbillStock(ctx, row, date ?? row.issue_date);
  // Goods the bill brought in (no order) go back out (flows.undo.ts).
  await undoStock(ledgerCtxOf(ctx), {
    companyId: row.company_id,
    sourceId: row.id,
    date: date ?? row.issue_date,
    description: `Void of ${label(row)}: goods returned`,
    source: { type: 'bill', id: row.id },
    outType: 'return_out',
  });
  const updated = await ctx.db
    .updateTable('bills')
    .set({ status: 'void', void_entry_id: voidEntryId, voided_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await reopenOrder(ctx, row.purchase_order_id);
  const ledgerNotice = voidEntryId
    ? `The approval's entry was reversed (entry ${voidEntryId}): the expense, the input VAT and what was owed ` +
      'to the supplier are cancelled.'
    : 'The bill was never posted: nothing in the ledger changed.';
  return { ...(await recordOf(ctx, updated)), ledgerNotice };
}
