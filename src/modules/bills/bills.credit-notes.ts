// Supplier credit notes (migrations/0037): a supplier's credit against one of its approved bills,
// at the bill's tax codes and rates and its VAT registration (VAT Act s21: the adjustment follows
// the supply), never more than what remains of the bill (its total less the credit notes already
// against it). Posted when captured, the mirror of the bill's entry (bills.posting.ts) against:
//   offset   creditors control, the bill's open item: what is owed falls (never below nothing)
//   refund   the bank: the supplier paid it back (never more than was paid on the bill)
// The reversed input tax reduces VAT201 field 14 or 15 in the note's period.

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import {
  assertLineStock,
  assertLiveProducts,
  stockAnswer,
  stockColumn,
  supplierReturnStock,
} from '../inventory/index.ts';
import { bankAccount, ledgerCtxOf, post } from '../ledger/index.ts';
import { settleBill } from './bills.payments.ts';
import { creditorsLine, purchaseEntryLines } from './bills.posting.ts';
import {
  amountDueOf,
  billLines,
  billSettlements,
  findBillRow,
  remainingToCreditOf,
  toTaxedLine,
} from './bills.queries.ts';
import type {
  SupplierCreditNote,
  SupplierCreditNoteCreate,
  SupplierCreditNoteListQuery,
} from './bills.schemas.ts';
import { pricedLines, supplierNumberTaken } from './bills.service.ts';
import type { BillCreditNoteLinesTable, BillCreditNotesTable } from './bills.tables.ts';

type Note = Static<typeof SupplierCreditNote>;
type NoteRow = Selectable<BillCreditNotesTable> & { bill_number: string; supplier_name: string };

const POSTED = ['approved', 'partially_paid', 'paid'];

function noteQuery(ctx: TenantCtx) {
  return ctx.db
    .selectFrom('bill_credit_notes as n')
    .innerJoin('bills as b', (j) =>
      j.onRef('b.tenant_id', '=', 'n.tenant_id').onRef('b.id', '=', 'n.bill_id'),
    )
    .innerJoin('contacts as c', (j) =>
      j.onRef('c.tenant_id', '=', 'n.tenant_id').onRef('c.id', '=', 'n.contact_id'),
    )
    .selectAll('n')
    .select(['b.bill_number', 'c.name as supplier_name'])
    .where('n.tenant_id', '=', ctx.tenantId)
    .where('n.company_id', '=', companyOf(ctx));
}

async function toNotes(ctx: TenantCtx, rows: NoteRow[]): Promise<Note[]> {
  const ids = rows.map((r) => r.id);
  const lines: Selectable<BillCreditNoteLinesTable>[] = ids.length
    ? await ctx.db
        .selectFrom('bill_credit_note_lines')
        .selectAll()
        .where('tenant_id', '=', ctx.tenantId)
        .where('credit_note_id', 'in', ids)
        .orderBy('line_no')
        .execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    creditNoteNumber: r.credit_note_number,
    creditedBillId: r.bill_id,
    creditedBillNumber: r.bill_number,
    contactId: r.contact_id,
    supplierName: r.supplier_name,
    settlement: r.settlement,
    status: r.status,
    reason: r.reason,
    supplierReturnId: r.supplier_return_id,
    issueDate: r.issue_date,
    net: toNumber(r.net),
    vat: toNumber(r.vat),
    total: toNumber(r.total),
    bankAccountId: r.bank_account_id,
    refundedAt: r.refunded_at?.toISOString() ?? null,
    entryId: r.entry_id,
    createdAt: r.created_at.toISOString(),
    lines: lines
      .filter((l) => l.credit_note_id === r.id)
      .map((l) => ({
        ...toTaxedLine(l),
        productId: l.product_id,
        variantId: l.variant_id,
        ...stockAnswer(l.stock),
      })),
  }));
}

export async function getSupplierCreditNote(ctx: TenantCtx, id: string): Promise<Note> {
  const row = await noteQuery(ctx).where('n.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Credit note');
  return (await toNotes(ctx, [row]))[0]!;
}

export async function listSupplierCreditNotes(
  ctx: TenantCtx,
  query: Static<typeof SupplierCreditNoteListQuery>,
): Promise<Note[]> {
  let q = noteQuery(ctx);
  if (query.billId) q = q.where('n.bill_id', '=', query.billId);
  if (query.contactId) q = q.where('n.contact_id', '=', query.contactId);
  return toNotes(ctx, await q.orderBy('n.issue_date').orderBy('n.created_at').orderBy('n.id').execute());
}

/** POST /api/bills/credit-notes: 201 with the note, 200 with the one a repeated clientId made. */
export async function createSupplierCreditNote(
  ctx: TenantCtx,
  input: Static<typeof SupplierCreditNoteCreate>,
): Promise<Note> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'bill_credit_notes',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    return getSupplierCreditNote(ctx, id);
  }
  // The bill, locked: credit notes and payments on it take turns, so none goes past what remains.
  const bill = await findBillRow(ctx.db, ctx.tenantId, companyId, input.billId, { lock: true });
  if (!bill) throw notFound('Bill');
  if (!POSTED.includes(bill.status))
    throw conflict(`Only an approved bill is credited; bill ${bill.bill_number} is ${bill.status}`, {
      code: 'NOT_APPROVED',
    });
  if (input.issueDate < bill.issue_date)
    throw badRequest('issueDate', "must not be before the bill's issue date");
  // The bill's codes: a line's code must be one of them; its account defaults to that line's.
  const billLinesOf = (await billLines(ctx.db, ctx.tenantId, [bill.id])).get(bill.id)!;
  const lines = input.lines.map((l, i) => {
    const code = l.taxCode ?? (l.vatRate === undefined ? 'standard' : undefined);
    const match = billLinesOf.find((b) => (code ? b.tax_code === code : true));
    if (code && !match)
      throw badRequest(
        `lines[${i}].taxCode`,
        `bill ${bill.bill_number} has no ${code} line: a credit note takes the bill's tax codes (s21)`,
      );
    return { ...l, accountId: l.accountId ?? match?.account_id, costCentreId: match?.cost_centre_id ?? null };
  });
  await assertLiveProducts(ctx, input.lines, 'lines');
  await assertLineStock(ctx, input.lines, 'lines');
  const { amounts, totals, rows } = await pricedLines(ctx, companyId, lines, bill.issue_date);
  for (const [i, a] of amounts.entries())
    if (!billLinesOf.some((b) => b.tax_code === a.billTaxCode))
      throw badRequest(`lines[${i}].vatRate`, `bill ${bill.bill_number} has no ${a.billTaxCode} line (s21)`);
  if (!totals.total.greaterThan(0)) throw badRequest('lines', 'a credit note credits more than nothing');
  const s = (await billSettlements(ctx.db, ctx.tenantId, [bill.id])).get(bill.id)!;
  const remaining = money(remainingToCreditOf(bill, s));
  if (totals.total.greaterThan(remaining))
    throw badRequest(
      'lines',
      `${totals.total.toFixed(2)} is more than the ${remaining.toFixed(2)} that remains of bill ${bill.bill_number} ` +
        'to credit (its total less the credit notes already against it)',
    );
  const due = money(amountDueOf(bill, s));
  const refundable = money(s.paid).minus(money(s.refunded));
  if (input.settlement === 'offset' && totals.total.greaterThan(due))
    throw badRequest(
      'settlement',
      `only ${due.toFixed(2)} is still due on bill ${bill.bill_number}: offset at most that, or settle by refund`,
    );
  if (input.settlement === 'refund' && totals.total.greaterThan(refundable))
    throw badRequest(
      'settlement',
      `only ${refundable.toFixed(2)} was paid on bill ${bill.bill_number} and not refunded: a refund gives back no more`,
    );
  if (input.settlement === 'offset' && input.bankAccountId)
    throw badRequest('bankAccountId', 'an offset moves no money: only a refund names a bank account');
  await assertNewNoteNumber(ctx, companyId, bill.contact_id, input.creditNoteNumber);
  const bank = input.settlement === 'refund' ? await bankAccount(ctx, companyId, input.bankAccountId) : null;
  const lineRows = rows.map((r, i) => ({
    ...r,
    credit_note_id: id,
    product_id: input.lines[i]!.productId ?? null,
    variant_id: input.lines[i]!.variantId ?? null,
    stock: stockColumn(input.lines[i]!),
  }));
  const label = `Supplier credit note ${input.creditNoteNumber.trim()} on bill ${bill.bill_number}`;
  // Goods sent back leave stock at the cost they came in with (inventory/flows.returns.ts).
  const entryId = crypto.randomUUID();
  const stock = await supplierReturnStock(
    ctx,
    {
      id: bill.id,
      company_id: companyId,
      orderLineIds: billLinesOf.flatMap((b) => (b.purchase_order_line_id ? [b.purchase_order_line_id] : [])),
    },
    { id, date: input.issueDate },
    lineRows.map((r, i) => ({ ...r, stock: input.lines[i]! })),
    entryId,
  );
  await post(ledgerCtxOf(ctx), {
    entryId,
    companyId,
    date: input.issueDate,
    description: label,
    reference: input.creditNoteNumber.trim(),
    source: { type: 'bill_credit_note', id },
    lines: [
      ...(await purchaseEntryLines(
        ctx,
        { companyId, vatRegistered: bill.vat_registered, total: totals.total, label, mirror: true },
        bank ? { accountId: bank } : await creditorsLine(ctx, bill),
        // Each credited cost falls in the cost centre of the bill's line it matched.
        stock.lines.map((r, i) => ({ ...r, cost_centre_id: lines[i]!.costCentreId })),
      )),
      ...stock.extra,
    ],
  });
  await ctx.db
    .insertInto('bill_credit_notes')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: bill.contact_id,
      bill_id: bill.id,
      credit_note_number: input.creditNoteNumber.trim(),
      issue_date: input.issueDate,
      reason: input.reason ?? null,
      settlement: input.settlement,
      status: input.settlement === 'offset' ? 'applied' : 'refunded',
      supplier_return_id: input.supplierReturnId ?? null,
      net: toSql(totals.subtotal),
      vat: toSql(totals.vatTotal),
      total: toSql(totals.total),
      bank_account_id: bank,
      refunded_at: bank ? ctx.deps.now() : null,
      entry_id: entryId,
    })
    .execute();
  await ctx.db.insertInto('bill_credit_note_lines').values(lineRows).execute();
  await settleBill(ctx, bill);
  ctx.reply.code(201);
  return getSupplierCreditNote(ctx, id);
}

/** 409 DUPLICATE_CREDIT_NOTE_NUMBER when the supplier's credit note number is captured already. */
async function assertNewNoteNumber(ctx: TenantCtx, companyId: string, contactId: string, number: string) {
  const existing = await supplierNumberTaken(ctx, 'bill_credit_notes', { companyId, contactId, number });
  if (existing)
    throw conflict(
      `This supplier's credit note ${existing.number} is already captured (credit note ${existing.id})`,
      { code: 'DUPLICATE_CREDIT_NOTE_NUMBER', existingCreditNoteId: existing.id },
    );
}
