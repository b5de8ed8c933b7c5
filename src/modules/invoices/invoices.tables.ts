// Kysely types of the sales documents' tables (migrations/0012_invoices.sql).
import type { ColumnType, Generated } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';
import type { SalesTaxCode } from './vat.ts';

export const DOCUMENT_TYPES = [
  'invoice',
  'quote',
  'pro_forma',
  'sales_order',
  'delivery_note',
  'credit_note',
  'debit_note',
  'cash_sale',
  'deposit',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const STORED_STATUSES = [
  'draft',
  'open',
  'partially_paid',
  'paid',
  /** A credit note whose whole amount has been applied to invoices (migrations/0023). */
  'applied',
  /** A receivable whose whole remaining balance was written off as a bad debt (migrations/0025). */
  'written_off',
  'void',
  'accepted',
  'declined',
  'converted',
] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
/** What the API shows: the stored status, or overdue (derived from the due date). */
export const STATUSES = [...STORED_STATUSES, 'overdue'] as const;
export type Status = (typeof STATUSES)[number];

export interface InvoiceSettingsTable {
  tenant_id: string;
  company_id: string;
  prefixes: DefaultJson;
  number_digits: Generated<number>;
  default_payment_terms_days: Generated<number>;
  default_terms: string | null;
  default_notes: string | null;
  bank_name: string | null;
  bank_account_name: string | null;
  bank_account_number: string | null;
  bank_branch_code: string | null;
  bank_account_type: string | null;
  default_template_id: string | null;
  /** migrations/0017_invoices_sync.sql */
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface InvoiceTemplatesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  name: string;
  primary_colour: Generated<string>;
  accent_colour: Generated<string>;
  /** bytea: node-postgres reads a Buffer, PGlite a Uint8Array. */
  logo: ColumnType<Uint8Array, Uint8Array, Uint8Array> | null;
  logo_content_type: string | null;
  footer: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface DocumentCountersTable {
  tenant_id: string;
  company_id: string;
  document_type: DocumentType;
  next_number: ColumnType<string, string | number | undefined, string | number>;
}

export interface InvoicesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  document_type: DocumentType;
  number: string;
  status: StoredStatus;
  contact_id: string;
  issue_date: DateString;
  due_date: DateString;
  currency: Generated<string>;
  payment_terms_days: number | null;
  terms: string | null;
  reference: string | null;
  notes: string | null;
  vat_registered: boolean;
  subtotal: Numeric;
  discount_total: Numeric;
  vat_total: Numeric;
  total: Numeric;
  credited_invoice_id: string | null;
  converted_from_id: string | null;
  recurring_id: string | null;
  /** The run date of the recurring schedule it was generated for (migrations/0013_recurring.sql). */
  recurring_period: DateString | null;
  template_id: string | null;
  entry_id: string | null;
  void_entry_id: string | null;
  /** The credit note a void of a released tax invoice issued (migrations/0026_void_credit_note.sql). */
  voided_by_credit_note_id: Generated<string | null>;
  released_at: Timestamp | null;
  voided_at: Timestamp | null;
  sent_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface InvoiceLinesTable {
  tenant_id: string;
  id: string;
  invoice_id: string;
  line_no: number;
  description: string;
  quantity: Numeric;
  unit_price: Numeric;
  discount_rate: Numeric;
  /** migrations/0024_line_tax_codes.sql: the rate follows from it and the issue date. */
  tax_code: SalesTaxCode;
  vat_rate: Numeric;
  requested_vat_rate: Numeric | null;
  account_id: string;
  net_amount: Numeric;
  discount_amount: Numeric;
  vat_amount: Numeric;
  total_amount: Numeric;
  retired_at: Timestamp | null;
}

export interface InvoicePaymentsTable {
  tenant_id: string;
  id: string;
  invoice_id: string;
  company_id: string;
  amount: Numeric;
  date: DateString;
  method: string | null;
  reference: string | null;
  bank_account_id: string;
  entry_id: string;
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  /** migrations/0017_invoices_sync.sql: moved by the database on every change */
  updated_at: DefaultTimestamp;
}

export interface InvoiceAllocationsTable {
  tenant_id: string;
  id: string;
  source_id: string;
  source_type: 'credit_note' | 'deposit';
  invoice_id: string;
  amount: Numeric;
  date: DateString;
  entry_id: string;
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  /** migrations/0017_invoices_sync.sql: moved by the database on every change */
  updated_at: DefaultTimestamp;
}

/** A bad debt written off (migrations/0025, write-off.ts). */
export interface InvoiceWriteOffsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  invoice_id: string;
  date: DateString;
  amount: Numeric;
  vat_amount: Numeric;
  reason: string;
  entry_id: string;
  /** migrations/0034_write_off_undo.sql: an undone write-off stays, marked reversed. */
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** A bad debt recovered: money received after a write-off (migrations/0025, write-off.ts). */
export interface InvoiceBadDebtRecoveriesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  invoice_id: string;
  date: DateString;
  amount: Numeric;
  vat_amount: Numeric;
  bank_account_id: string;
  reference: string | null;
  entry_id: string;
  /** migrations/0034_write_off_undo.sql: an undone recovery stays, marked reversed. */
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    invoice_settings: InvoiceSettingsTable;
    invoice_templates: InvoiceTemplatesTable;
    document_counters: DocumentCountersTable;
    invoices: InvoicesTable;
    invoice_lines: InvoiceLinesTable;
    invoice_payments: InvoicePaymentsTable;
    invoice_allocations: InvoiceAllocationsTable;
    invoice_write_offs: InvoiceWriteOffsTable;
    invoice_bad_debt_recoveries: InvoiceBadDebtRecoveriesTable;
  }
}
