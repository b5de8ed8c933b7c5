// Kysely types of the bank feeds (migrations/0046_bank_feeds.sql), and the column the feed
// adds to bank_transactions (interface merging: banking.tables.ts stays as it is).
import type { Generated } from 'kysely';
import type { DateString, DefaultTimestamp, Timestamp } from '../../platform/db/schema.ts';

export const BANK_FEED_STATUSES = ['active', 'disconnected'] as const;
export type BankFeedStatus = (typeof BANK_FEED_STATUSES)[number];

export const BANK_FEED_SYNC_STATUSES = ['ok', 'failed'] as const;
export type BankFeedSyncStatus = (typeof BANK_FEED_SYNC_STATUSES)[number];

export interface BankFeedsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  bank_account_id: string;
  provider: Generated<'investec'>;
  investec_account_id: string;
  investec_account_name: Generated<string>;
  investec_account_masked: Generated<string>;
  currency: Generated<string>;
  status: Generated<BankFeedStatus>;
  client_id_sealed: string;
  client_secret_sealed: string;
  api_key_sealed: string;
  sync_from: DateString;
  last_sync_at: Timestamp | null;
  last_sync_status: BankFeedSyncStatus | null;
  last_error: string | null;
  consecutive_failures: Generated<number>;
  needs_attention: Generated<boolean>;
  attention_reason: string | null;
  next_attempt_at: Timestamp | null;
  sync_count: Generated<number>;
  total_imported: Generated<number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  disconnected_at: Timestamp | null;
}

declare module './banking.tables.ts' {
  interface BankTransactionsTable {
    /** The feed that brought the line (null: a statement file). */
    feed_id: string | null;
  }
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bank_feeds: BankFeedsTable;
  }
}
