// Approving a claim posts it on the last approval needed; reimbursing a personal one pays it out;
// deleting an approved one reverses its entry. The approval's entry, dated the claim's date
// (VAT Act s16(2): input tax in the period the tax invoice is held):
//   Dr the claim's account (amount less the VAT claimed)   tagged with its input tax code and rate
//   Dr VAT input 1300 (the VAT, when claimable)            tagged likewise (VAT201 field 15, or 14)
//   Cr Employee reimbursements payable 2150 (personal; the claimant) or Credit card 2410 (card)
// Reimbursing: Dr Employee reimbursements payable 2150, Cr the bank (default Bank 1000).

import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { type BillTaxCode, INPUT_TAX_CODE } from '../bills/index.ts';
import {
  assertBaseCurrency,
  bankAccount,
  ledgerCtxOf,
  type PostingLine,
  post,
  reverse,
  systemAccount,
} from '../ledger/index.ts';
import { addApproval } from './expenses.policy.ts';
import type { ClaimRow, ExpenseRecord } from './expenses.queries.ts';
import { lockClaim, recordOf } from './expenses.service.ts';
import type { ApprovalEntry, ClaimStatus, PaidWith } from './expenses.tables.ts';

/** The account that takes what a claim or trip costs: the employee is owed, or the card. */
export async function counterLine(
  ctx: TenantCtx,
  companyId: string,
  paidWith: PaidWith,
  contactId: string | null,
): Promise<Omit<PostingLine, 'debit' | 'credit'>> {
  const lctx = ledgerCtxOf(ctx);
  return paidWith === 'personal'
    ? { accountId: await systemAccount(lctx, companyId, 'employee_reimbursements'), contactId }
    : { accountId: await systemAccount(lctx, companyId, 'credit_card') };
}

function claimLines(
  row: ClaimRow,
  account: string,
  counter: Omit<PostingLine, 'debit' | 'credit'>,
  vatInput: string,
) {
  const label = `Expense claim: ${row.description}`;
  const amount = money(row.amount);
  const vat = row.vat_claimable ? money(row.vat_amount) : money(0);
  const code = row.vat_claimable ? INPUT_TAX_CODE[row.tax_code as BillTaxCode] : null;
  const tag = code ? { taxCode: code, taxRate: money(row.vat_rate) } : {};
  const lines: PostingLine[] = [
    {
      accountId: account,
      debit: amount.minus(vat),
      description: label,
      costCentreId: row.cost_centre_id,
      ...tag,
    },
    { ...counter, credit: amount, description: label },
  ];
  if (!vat.isZero())
    lines.push({
      accountId: vatInput,
      debit: vat,
      description: `VAT ${money(row.vat_rate).toNumber()}% on ${label}`,
      ...tag,
    });
  return lines;
}

/**
 * Records the caller's approval (the rules: expenses.policy.ts); on the last one needed the claim
 * is approved and posted.
 */
export async function approveExpense(ctx: TenantCtx, id: string): Promise<ExpenseRecord> {
  const row = await lockClaim(ctx, id);
  const { approvals, final } = await addApproval(ctx, {
    kind: 'claim',
    status: row.status,
    amount: money(row.amount),
    createdBy: row.created_by,
    contactId: row.contact_id,
    approvals: row.approvals,
  });
  let set: { status: ClaimStatus; approvals: string; entry_id?: string; approved_at?: Date } = {
    status: 'partially_approved',
    approvals: JSON.stringify(approvals),
  };
  if (final) {
    await assertBaseCurrency(ctx, row.company_id, row.currency, 'expense claim');
    const lctx = ledgerCtxOf(ctx);
    const entryId = await post(lctx, {
      companyId: row.company_id,
      date: row.date,
      description: `Expense claim: ${row.description}`,
      reference: row.vendor,
      source: { type: 'expense_claim', id: row.id },
      lines: claimLines(
        row,
        row.account_id,
        await counterLine(ctx, row.company_id, row.paid_with, row.contact_id),
        await systemAccount(lctx, row.company_id, 'vat_input'),
      ),
    });
    set = { ...set, status: 'approved', entry_id: entryId, approved_at: ctx.deps.now() };
  }
  const updated = await ctx.db
    .updateTable('expense_claims')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

/** What reimbursing needs of a claim or a trip, and what it posts. */
export async function postReimbursement(
  ctx: TenantCtx,
  s: {
    kind: 'claim' | 'trip';
    id: string;
    companyId: string;
    status: ClaimStatus;
    paidWith: PaidWith;
    date: string;
    amount: Decimal;
    contactId: string | null;
    label: string;
  },
  input: { date: string; bankAccountId?: string | undefined },
): Promise<string> {
  if (s.status === 'reimbursed')
    throw conflict(`This ${s.kind} is reimbursed already`, { code: 'EXPENSE_REIMBURSED' });
  if (s.status !== 'approved' || s.paidWith !== 'personal')
    throw conflict(
      s.paidWith === 'personal'
        ? `Only an approved ${s.kind} is reimbursed; this one is ${s.status.replace('_', ' ')}`
        : 'The company card paid this claim: nobody is owed',
      { code: 'NOT_REIMBURSABLE' },
    );
  if (input.date < s.date) throw badRequest('date', `must not be before the ${s.kind}'s date`);
  const bank = await bankAccount(ctx, s.companyId, input.bankAccountId);
  const payable = await counterLine(ctx, s.companyId, 'personal', s.contactId);
  return post(ledgerCtxOf(ctx), {
    companyId: s.companyId,
    date: input.date,
    description: `Reimbursed: ${s.label}`,
    source: { type: s.kind === 'claim' ? 'expense_reimbursement' : 'mileage_reimbursement', id: s.id },
    lines: [
      { ...payable, debit: s.amount, description: `Reimbursed: ${s.label}` },
      { accountId: bank, credit: s.amount, description: `Reimbursed: ${s.label}` },
    ],
  });
}

/** POST /api/expenses/{id}/reimburse: a personal approved claim is paid out to the employee. */
export async function reimburseExpense(
  ctx: TenantCtx,
  id: string,
  input: { date: string; bankAccountId?: string | undefined },
): Promise<ExpenseRecord> {
  const row = await lockClaim(ctx, id);
  const entryId = await postReimbursement(
    ctx,
    {
      kind: 'claim',
      id,
      companyId: row.company_id,
      status: row.status,
      paidWith: row.paid_with,
      date: row.date,
      amount: money(row.amount),
      contactId: row.contact_id,
      label: `Expense claim: ${row.description}`,
    },
    input,
  );
  const updated = await ctx.db
    .updateTable('expense_claims')
    .set({
      status: 'reimbursed',
      reimbursement_entry_id: entryId,
      reimbursement_date: input.date,
      reimbursed_at: ctx.deps.now(),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

/**
 * DELETE /api/expenses/{id}: a claim never posted is marked deleted; an approved one has its
 * entry reversed (dated its own date) and is marked deleted; a reimbursed one stays (409
 * EXPENSE_REIMBURSED: the money has left the bank).
 */
export async function deleteExpense(ctx: TenantCtx, id: string): Promise<{ ledgerNotice: string }> {
  const row = await lockClaim(ctx, id);
  if (row.status === 'reimbursed')
    throw conflict('This claim is reimbursed: the employee has been paid, so it stays', {
      code: 'EXPENSE_REIMBURSED',
    });
  const reversal = row.entry_id
    ? await reverse(ledgerCtxOf(ctx), row.entry_id, {
        description: `Deleted expense claim: ${row.description}`,
        source: { type: 'expense_claim', id: row.id },
      })
    : null;
  await ctx.db
    .updateTable('expense_claims')
    .set({ deleted_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return {
    ledgerNotice: reversal
      ? `The approval's entry was reversed (entry ${reversal}): the expense, the input VAT and what was owed are cancelled.`
      : `The claim was ${row.status.replace('_', ' ')} and never posted: nothing in the ledger changed.`,
  };
}

export type { ApprovalEntry };
