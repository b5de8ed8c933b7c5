// Reading claims: a row, and the record GET answers (with its receipt's details and how many
// approvals it needs). A page is read with its receipts in one more statement.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import type { BillTaxCode } from '../bills/index.ts';
import type { Expense } from './expenses.schemas.ts';
import type { ExpenseClaimsTable } from './expenses.tables.ts';

export type ClaimRow = Selectable<ExpenseClaimsTable>;
export type ExpenseRecord = Static<typeof Expense>;

export function findClaimRow(
  tx: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  opts: { lock?: boolean; includeDeleted?: boolean } = {},
): Promise<ClaimRow | undefined> {
  let q = tx
    .selectFrom('expense_claims')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  if (!opts.includeDeleted) q = q.where('deleted_at', 'is', null);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** How many approvals a claim of `amount` needs under the policy. */
export function approvalsNeeded(
  amount: string,
  policy: { secondApprovalFrom: { toString(): string }; approvers: number },
) {
  return policy.approvers === 2 &&
    money(amount).greaterThanOrEqualTo(money(policy.secondApprovalFrom.toString()))
    ? 2
    : 1;
}

export async function claimRecords(
  tx: Tx,
  tenantId: string,
  rows: ClaimRow[],
  policy: { secondApprovalFrom: { toString(): string }; approvers: number },
): Promise<ExpenseRecord[]> {
  const ids = rows.map((r) => r.id);
  const receipts = ids.length
    ? await tx
        .selectFrom('expense_receipts')
        .select(['claim_id', 'content_type', 'size_bytes', 'uploaded_at'])
        .where('tenant_id', '=', tenantId)
        .where('claim_id', 'in', ids)
        .execute()
    : [];
  const byClaim = new Map(receipts.map((r) => [r.claim_id, r]));
  return rows.map((r) => {
    const receipt = byClaim.get(r.id);
    return {
      id: r.id,
      tenantId: r.tenant_id,
      companyId: r.company_id,
      contactId: r.contact_id,
      accountId: r.account_id,
      costCentreId: r.cost_centre_id,
      description: r.description,
      vendor: r.vendor,
      supplierVatNumber: r.supplier_vat_number,
      category: r.category,
      currency: r.currency,
      status: r.status,
      date: r.date,
      amount: toNumber(r.amount),
      vatAmount: toNumber(r.vat_amount),
      vatRate: toNumber(r.vat_rate),
      vatClaimable: r.vat_claimable,
      vatWarning: r.vat_warning,
      paidWith: r.paid_with,
      taxCode: r.tax_code as BillTaxCode,
      approvals: r.approvals,
      approvalsNeeded: approvalsNeeded(r.amount, policy),
      rejectionReason: r.rejection_reason,
      entryId: r.entry_id,
      reimbursementEntryId: r.reimbursement_entry_id,
      reimbursedAt: iso(r.reimbursed_at),
      receipt: receipt
        ? {
            contentType: receipt.content_type,
            sizeBytes: receipt.size_bytes,
            uploadedAt: iso(receipt.uploaded_at)!,
            url: `/api/expenses/${r.id}/receipt`,
          }
        : null,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
      deletedAt: iso(r.deleted_at),
    };
  });
}
