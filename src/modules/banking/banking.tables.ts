// Kysely types of the banking tables (migrations/0042_banking.sql).
import type { ColumnType, Generated } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';

export const BANKS = ['fnb', 'absa', 'standard_bank', 'nedbank', 'capitec', 'investec', 'other'] as const;
export type Bank = (typeof BANKS)[number];

export const BANK_TRANSACTION_STATUSES = ['unreconciled', 'reconciled', 'excluded'] as const;
export type BankTransactionStatus = (typeof BANK_TRANSACTION_STATUSES)[number];

export const STATEMENT_FORMATS = ['ofx', 'camt053', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface BankAccountsTable {
  tenant_id: string;
  /** The ledger account's id: a bank account is one. */
  id: string;
  company_id: string;
  bank: Generated<Bank>;
  account_number: string | null;
  branch_code: string | null;
  currency: Generated<string>;
  opening_balance: ColumnType<string, string | number | undefined, string | number>;
  opening_date: DateString | null;
  opening_entry_id: string | null;
  statement_balance: Numeric | null;
  statement_date: DateString | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BankStatementsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  bank_account_id: string;
  source: 'file' | 'feed';
  format: StatementFormat | null;
  profile: string | null;
  file_name: string | null;
  file_sha256: string | null;
  file_size: number | null;
  period_from: DateString | null;
  period_to: DateString | null;
  opening_balance: Numeric | null;
  closing_balance: Numeric | null;
  balance_check: Generated<'ok' | 'gap' | 'not_given'>;
  balance_gap: Numeric | null;
  rows_read: Generated<number>;
  rows_new: Generated<number>;
  rows_duplicate: Generated<number>;
  rows_error: Generated<number>;
  report: DefaultJson;
  created_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BankTransactionsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  bank_account_id: string;
  date: DateString;
  value_date: DateString | null;
  /** Signed: + money in, - money out. */
  amount: Numeric;
  description: Generated<string>;
  reference: string | null;
  payee: string | null;
  external_id: string | null;
  running_balance: Numeric | null;
  source: 'file' | 'feed';
  statement_id: string | null;
  source_line: number | null;
  /** The nth line of this date and amount in the account (the "never twice" key). */
  sequence: number;
  pending: Generated<boolean>;
  superseded_at: Timestamp | null;
  superseded_by: string | null;
  status: Generated<BankTransactionStatus>;
  excluded_reason: string | null;
  reconciled_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bank_accounts: BankAccountsTable;
    bank_statements: BankStatementsTable;
    bank_transactions: BankTransactionsTable;
  }
}
