// Kysely types of the reconciliation tables (migrations/0045_reconciliation.sql).
import type { DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const MATCH_KINDS = ['invoice', 'bill', 'existing', 'create', 'transfer', 'mixed'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export interface BankMatchesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  bank_account_id: string;
  bank_transaction_id: string;
  kind: MatchKind;
  amount: Numeric;
  created_by_type: 'user' | 'api_key' | 'system';
  created_by: string | null;
  auto: boolean;
  undone_at: Timestamp | null;
  undone_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BankMatchItemsTable {
  tenant_id: string;
  match_id: string;
  line_no: number;
  company_id: string;
  bank_account_id: string;
  journal_entry_id: string;
  invoice_payment_id: string | null;
  bill_payment_id: string | null;
  customer_credit_id: string | null;
  /** The entry's movement on the bank account, signed like the bank line. */
  amount: Numeric;
  undone_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bank_matches: BankMatchesTable;
    bank_match_items: BankMatchItemsTable;
  }
}
