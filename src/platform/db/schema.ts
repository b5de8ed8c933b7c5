// Kysely table types of the platform tables. A module adds its own tables by augmenting
// `DB` from its own folder:  declare module '../../platform/db/schema.ts' { interface DB { ... } }
import type { ColumnType, Generated } from 'kysely';

/** timestamptz: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** date: read and written as 'YYYY-MM-DD'. */
export type DateString = string;
/** numeric: read as a decimal string, written as string or number. */
export type Numeric = ColumnType<string, string | number, string | number>;
export type Json = ColumnType<unknown, string, string>;
/** timestamptz with a database default. */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb with a database default. */
export type DefaultJson = ColumnType<unknown, string | undefined, string>;

export interface TenantsTable {
  id: string;
  name: string;
  plan: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface UserLoginsTable {
  email: string;
  tenant_id: string;
  user_id: string;
}

export interface RolesTable {
  tenant_id: string;
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface UsersTable {
  tenant_id: string;
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  role: string;
  active: Generated<boolean>;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  totp_last_step: Generated<number | null>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  last_login_at: Timestamp | null;
  deactivated_at: Timestamp | null;
}

export interface SessionsTable {
  tenant_id: string;
  id: string;
  user_id: string;
  created_at: DefaultTimestamp;
  last_used_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  tenant_id: string;
  id: string;
  session_id: string;
  token_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RecoveryCodesTable {
  tenant_id: string;
  id: string;
  user_id: string;
  code_hash: string;
  created_at: DefaultTimestamp;
  used_at: Timestamp | null;
  retired_at: Timestamp | null;
}

export interface UserTokensTable {
  tenant_id: string;
  id: string;
  user_id: string;
  purpose: 'reset' | 'invite';
  token_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface CompaniesTable {
  tenant_id: string;
  id: string;
  name: string;
  trade_name: string | null;
  /** pty_ltd, sole_proprietor, ... (migrations/0022_company_chart.sql) */
  legal_form: Generated<string>;
  parent_id: string | null;
  ownership_percent: Numeric | null;
  base_currency: Generated<string>;
  vat_registered: Generated<boolean>;
  vat_registered_from: DateString | null;
  vat_number: string | null;
  /** The VAT category, A-E (migrations/0030_vat201.sql); B by default. */
  vat_category: Generated<string>;
  /** Printed on documents (migrations/0016_documents.sql). */
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  province: string | null;
  postal_code: string | null;
  country: string | null;
  registration_no: string | null;
  email: string | null;
  phone: string | null;
  is_sandbox: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface CompanyVatRegistrationsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  effective_from: DateString;
  registered: boolean;
  vat_number: string | null;
  created_at: DefaultTimestamp;
}

export interface AuditLogTable {
  tenant_id: string;
  id: string;
  occurred_at: DefaultTimestamp;
  actor_type: string;
  actor_id: string | null;
  action: string;
  resource: string;
  resource_id: string | null;
  company_id: string | null;
  request_id: string | null;
  ip: string | null;
  details: DefaultJson;
}

export interface EventsTable {
  tenant_id: string;
  id: string;
  company_id: string | null;
  type: string;
  data: Json;
  created_at: DefaultTimestamp;
  /** When its deliveries were made; NULL while pending (migration 0035). */
  dispatched_at: Generated<Date | null>;
}

export interface WebhooksTable {
  tenant_id: string;
  id: string;
  url: string;
  event_types: string[];
  description: string | null;
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: 'manual' | 'failing' | null;
  consecutive_failures: Generated<number>;
  created_by_type: 'user' | 'api_key';
  created_by: string;
  created_by_key_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  tenant_id: string;
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: ColumnType<
    'pending' | 'succeeded' | 'failed' | 'cancelled',
    'pending' | 'succeeded' | 'failed' | 'cancelled' | undefined,
    'pending' | 'succeeded' | 'failed' | 'cancelled'
  >;
  attempts: Generated<number>;
  last_response_status: number | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  finished_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  tenant_id: string;
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
  attempted_at: Timestamp;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface EmailsTable {
  tenant_id: string;
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: string;
  status: Generated<'queued' | 'sent' | 'stored' | 'failed'>;
  error: string | null;
  created_at: DefaultTimestamp;
  sent_at: Timestamp | null;
}

export interface ApiKeysTable {
  tenant_id: string;
  id: string;
  name: string;
  owner_type: 'user' | 'business';
  user_id: string | null;
  /** A business key's chosen role; NULL for a user key and for a business key that acts with its creator's */
  role: string | null;
  created_by: string;
  scopes: string[];
  rate_limit_per_minute: number | null;
  contact_id: string | null;
  display_prefix: string;
  last_four: string;
  /** NULL for an OAuth connection, which has no key of its own. */
  secret_hash: string | null;
  created_at: DefaultTimestamp;
  /** Moved by a trigger when the key changes, not when it is used (migration 0077). */
  updated_at: DefaultTimestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
  /** live: every company; test (bpk_test_): the sandbox company alone (migration 0021). */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, never>;
  /** The app an OAuth connection was made for; NULL for a key. */
  oauth_client_id: ColumnType<string | null, string | null | undefined, string | null>;
  refresh_hash: ColumnType<string | null, string | null | undefined, string | null>;
  previous_refresh_hash: ColumnType<string | null, string | null | undefined, string | null>;
  refresh_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface OauthAppsTable {
  tenant_id: string;
  id: string;
  name: string;
  redirect_uris: string[];
  secret_hash: string;
  secret_last_four: string;
  created_by: string;
  created_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
  deleted_by: string | null;
}

export interface OauthCodesTable {
  tenant_id: string;
  id: string;
  code_hash: string;
  client_id: string;
  app_name: string;
  user_id: string;
  scopes: string[];
  redirect_uri: string;
  code_challenge: string | null;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  key_id: string | null;
}

export interface DB {
  tenants: TenantsTable;
  user_logins: UserLoginsTable;
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  recovery_codes: RecoveryCodesTable;
  user_tokens: UserTokensTable;
  companies: CompaniesTable;
  company_vat_registrations: CompanyVatRegistrationsTable;
  audit_log: AuditLogTable;
  events: EventsTable;
  emails: EmailsTable;
  api_keys: ApiKeysTable;
  oauth_apps: OauthAppsTable;
  oauth_codes: OauthCodesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
