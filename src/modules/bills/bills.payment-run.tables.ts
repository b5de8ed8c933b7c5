// Kysely types of the supplier bank details and payment run tables (migrations/0039_payment_run.sql).
import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const ACCOUNT_TYPES = ['cheque', 'savings', 'transmission'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const BANK_PROFILES = ['generic', 'fnb', 'absa', 'standard_bank', 'nedbank'] as const;
export type BankProfile = (typeof BANK_PROFILES)[number];

export interface ContactBankDetailsTable {
  tenant_id: string;
  contact_id: string;
  bank_name: string;
  account_holder: string;
  account_number_sealed: string;
  account_last4: string;
  branch_code: string;
  account_type: AccountType;
  changed_at: Timestamp;
  changed_by: string | null;
  changed_by_name: string;
  confirmed_at: Timestamp | null;
  confirmed_by: string | null;
  confirmed_by_name: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface ContactBankDetailChangesTable {
  tenant_id: string;
  id: string;
  contact_id: string;
  changed_at: Timestamp;
  changed_by: string | null;
  changed_by_name: string;
  old_account_masked: string | null;
  new_account_masked: string;
  bank_name: string;
  branch_code: string;
}

export interface BillPaymentRunsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  date: DateString;
  bank_account_id: string;
  bank_profile: BankProfile;
  total: Numeric;
  bill_count: number;
  entry_id: string;
  created_by: string | null;
  created_by_name: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BillPaymentRunItemsTable {
  tenant_id: string;
  payment_id: string;
  run_id: string;
  line_no: number;
  payee: string;
  bank_name: string;
  account_number_sealed: string;
  account_last4: string;
  branch_code: string;
  account_type: AccountType;
  amount: Numeric;
  reference: string;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    contact_bank_details: ContactBankDetailsTable;
    contact_bank_detail_changes: ContactBankDetailChangesTable;
    bill_payment_runs: BillPaymentRunsTable;
    bill_payment_run_items: BillPaymentRunItemsTable;
  }
}
