// Kysely types of the expense tables (migrations/0038_expenses.sql).
import type { ColumnType, Generated } from 'kysely';
import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const CLAIM_STATUSES = [
  'submitted',
  'partially_approved',
  'approved',
  'reimbursed',
  'rejected',
] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const PAID_WITH = ['company_card', 'personal'] as const;
export type PaidWith = (typeof PAID_WITH)[number];

/** One approval of a claim or trip, as stored (jsonb) and answered. */
export interface ApprovalEntry {
  userId: string | null;
  keyId: string | null;
  name: string;
  roleId: string;
  approvedAt: string;
}

/** The jsonb list: read as parsed, written as its JSON text. */
type Approvals = ColumnType<ApprovalEntry[], string | undefined, string>;

export interface ExpenseClaimsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string | null;
  account_id: string;
  cost_centre_id: string | null;
  description: string;
  vendor: string | null;
  supplier_vat_number: string | null;
  category: string | null;
  currency: Generated<string>;
  status: ClaimStatus;
  date: DateString;
  paid_with: PaidWith;
  tax_code: string;
  amount: Numeric;
  vat_amount: Numeric;
  vat_rate: Numeric;
  vat_claimable: boolean;
  vat_warning: string | null;
  approvals: Approvals;
  created_by: string | null;
  rejection_reason: string | null;
  rejected_at: Timestamp | null;
  approved_at: Timestamp | null;
  entry_id: string | null;
  reversal_entry_id: string | null;
  reimbursed_at: Timestamp | null;
  reimbursement_date: DateString | null;
  reimbursement_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface ExpenseReceiptsTable {
  tenant_id: string;
  claim_id: string;
  content_type: string;
  size_bytes: number;
  bytes: Uint8Array;
  uploaded_at: DefaultTimestamp;
}

export interface ExpenseApprovalLimitsTable {
  tenant_id: string;
  id: string;
  role_id: string;
  max_amount: Numeric;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface ExpenseApprovalPoliciesTable {
  tenant_id: string;
  second_approval_from: Numeric;
  approvers: number;
  updated_at: DefaultTimestamp;
}

export interface MileageRatesTable {
  effective_from: DateString;
  rate_per_km: Numeric;
  source: string;
}

export interface MileageSettingsTable {
  tenant_id: string;
  rate_per_km: Numeric | null;
  updated_at: DefaultTimestamp;
}

export interface MileageTripsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string | null;
  date: DateString;
  km: Numeric;
  purpose: string;
  from_place: string | null;
  to_place: string | null;
  vehicle: string | null;
  rate_per_km: Numeric;
  rate_effective_from: DateString | null;
  rate_source: 'sars' | 'tenant';
  amount: Numeric;
  status: ClaimStatus;
  approvals: Approvals;
  created_by: string | null;
  rejection_reason: string | null;
  rejected_at: Timestamp | null;
  approved_at: Timestamp | null;
  entry_id: string | null;
  reimbursed_at: Timestamp | null;
  reimbursement_date: DateString | null;
  reimbursement_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    expense_claims: ExpenseClaimsTable;
    expense_receipts: ExpenseReceiptsTable;
    expense_approval_limits: ExpenseApprovalLimitsTable;
    expense_approval_policies: ExpenseApprovalPoliciesTable;
    mileage_rates: MileageRatesTable;
    mileage_settings: MileageSettingsTable;
    mileage_trips: MileageTripsTable;
  }
}
