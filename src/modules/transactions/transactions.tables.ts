// Kysely types of contact transactions and monthly billing aggregates (migrations/0048_crm.sql).
import type { ColumnType, Generated } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';

export const TRANSACTION_STATUSES = ['pending', 'invoiced', 'void'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const AGGREGATE_STATUSES = ['pending', 'invoiced'] as const;
export type AggregateStatus = (typeof AGGREGATE_STATUSES)[number];

export interface ContactTransactionsTable {
  tenant_id: string;
  id: string;
  contact_id: string;
  description: string;
  currency: Generated<string>;
  external_ref: string | null;
  metadata: DefaultJson;
  status: Generated<TransactionStatus>;
  invoice_id: string | null;
  invoice_company_id: string | null;
  quantity: ColumnType<string, string | number | undefined, string | number>;
  unit_price: Numeric;
  amount: Numeric;
  vat_rate: ColumnType<string, string | number | undefined, string | number>;
  occurred_at: Timestamp;
  invoiced_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BillingAggregatesTable {
  tenant_id: string;
  id: string;
  contact_id: string;
  /** the first day of the month billed */
  month: DateString;
  amount: Numeric;
  source: string;
  description: string;
  status: Generated<AggregateStatus>;
  invoice_id: string | null;
  invoice_company_id: string | null;
  invoiced_at: Timestamp | null;
  api_key_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    contact_transactions: ContactTransactionsTable;
    billing_aggregates: BillingAggregatesTable;
  }
}
