// Kysely types of online payments (migrations/0047_online_payments.sql): the gateways'
// credentials per company, payment links, and the inbox of the gateways' notifications.
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const GATEWAYS = ['gatewaya', 'gatewayb'] as const;
export type Gateway = (typeof GATEWAYS)[number];

export const LINK_STATUSES = ['active', 'revoked'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const NOTIFICATION_KINDS = ['payment', 'refund', 'other'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_STATUSES = [
  'received',
  'matched',
  'review',
  'refused',
  'duplicate',
  'dismissed',
] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One check made of a notification, as the inbox shows it. */
export interface NotificationCheck {
  check: string;
  passed: boolean;
  detail: string;
}

export interface PaymentGatewayAccountsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  gateway: Gateway;
  merchant_id: string | null;
  merchant_key_sealed: string | null;
  passphrase_sealed: string | null;
  secret_key_sealed: string | null;
  webhook_secret_sealed: string | null;
  amount_tolerance: ColumnType<string, string | number | undefined, string | number>;
  clearing_account_id: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PaymentLinksTable {
  tenant_id: string;
  id: string;
  company_id: string;
  invoice_id: string;
  gateway: Gateway;
  token: string;
  amount: Numeric;
  currency: Generated<string>;
  status: Generated<LinkStatus>;
  expires_at: Timestamp;
  checkout_id: string | null;
  checkout_url: string | null;
  revoked_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PaymentNotificationsTable {
  tenant_id: string;
  id: string;
  gateway: Gateway;
  company_id: string | null;
  gateway_account_id: string | null;
  kind: Generated<NotificationKind>;
  event_id: string | null;
  external_payment_id: string | null;
  gateway_status: string | null;
  amount: Numeric | null;
  fee: Numeric | null;
  currency: string | null;
  reference: string | null;
  link_id: string | null;
  invoice_id: string | null;
  raw_body: string;
  content_type: string | null;
  source_ip: string | null;
  trusted: Generated<boolean>;
  /** jsonb: written as JSON text */
  checks: ColumnType<NotificationCheck[], string | undefined, string>;
  status: Generated<NotificationStatus>;
  outcome: Generated<string>;
  payment_id: string | null;
  fee_entry_id: string | null;
  resolved_by_type: 'user' | 'api_key' | 'system' | null;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
  dismiss_reason: string | null;
  received_at: DefaultTimestamp;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    payment_gateway_accounts: PaymentGatewayAccountsTable;
    payment_links: PaymentLinksTable;
    payment_notifications: PaymentNotificationsTable;
  }
}
