// Kysely types of the contacts module's tables (migrations/0009_contacts.sql).
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const CONTACT_TYPES = ['CUSTOMER', 'SUPPLIER', 'EMPLOYEE', 'TAX_PRACTITIONER'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export interface ContactsTable {
  tenant_id: string;
  id: string;
  contact_type: ContactType;
  name: string;
  trading_name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  vat_number: string | null;
  registration_no: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  province: string | null;
  postal_code: string | null;
  country: string | null;
  postal_address_line1: string | null;
  postal_address_line2: string | null;
  postal_city: string | null;
  postal_province: string | null;
  postal_postal_code: string | null;
  postal_country: string | null;
  currency: Generated<string>;
  notes: string | null;
  credit_limit: Numeric | null;
  payment_terms: Generated<number>;
  is_active: Generated<boolean>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** migrations/0049_inventory.sql: the contact's own price list. */
  price_list_id: Generated<string | null>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export const CONSENT_CHANNELS = ['email', 'sms', 'whatsapp', 'phone', 'post'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const CONSENT_STATUSES = ['granted', 'refused', 'withdrawn'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
export const CONSENT_METHODS = [
  'verbal',
  'written',
  'web_form',
  'email',
  'sms_reply',
  'existing_customer',
  'imported',
  'other',
] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

export interface ContactConsentsTable {
  tenant_id: string;
  id: string;
  contact_id: string;
  channel: ConsentChannel;
  status: ConsentStatus;
  method: ConsentMethod;
  note: string | null;
  recorded_by_type: 'user' | 'api_key';
  recorded_by: string;
  recorded_by_name: string;
  recorded_at: Timestamp;
  created_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    contacts: ContactsTable;
    contact_consents: ContactConsentsTable;
  }
}
