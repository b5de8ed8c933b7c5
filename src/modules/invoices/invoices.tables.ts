// Kysely types of the sales documents' tables (migrations/0012_invoices.sql).

import type { ColumnType, Generated } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';
import type { LineStockColumn } from '../inventory/index.ts';
import type { SalesTaxCode } from '../ledger/index.ts';

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
  /** A credit note or deposit whose remaining amount was refunded (migrations/0027). */
  'refunded',
  /** A deposit the customer forfeited (migrations/0027, deposits.ts). */
  'forfeited',
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
  /** migrations/0049_inventory.sql: the product (and variant) the line sells. */
  product_id: Generated<string | null>;
  variant_id: Generated<string | null>;
  /** migrations/0050_inventory_lines.sql: unit, batch and serials (inventory/lines.ts). */
  stock: LineStockColumn;
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
  source_type: 'credit_note' | 'deposit' | 'customer_credit';
  /** migrations/0027: generated from source_type and source_id, each checked by a foreign key. */
  source_document_id: Generated<string | null>;
  source_credit_id: Generated<string | null>;
  invoice_id: string;
  amount: Numeric;
  /** The output VAT an advance payment's application reverses (migrations/0027); else 0. */
  vat_amount: ColumnType<string, string | number | undefined, string | number>;
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

export type CreditKind = 'overpayment' | 'deposit_excess' | 'advance_payment';
export type CreditStatus = 'open' | 'applied' | 'refunded' | 'reversed' | 'forfeited';

/** Money a customer has with the company that no document owes yet (migrations/0027, customer-credits.ts). */
export interface CustomerCreditsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  kind: CreditKind;
  date: DateString;
  amount: Numeric;
  vat_amount: ColumnType<string, string | number | undefined, string | number>;
  vat_rate: Numeric | null;
  /** The account it sits on, as its own open item (open_item_id = id). */
  account_id: string;
  payment_id: string | null;
  document_id: string | null;
  bank_account_id: string | null;
  reference: string | null;
  entry_id: string;
  status: Generated<CreditStatus>;
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export type RefundSourceType = 'customer_credit' | 'credit_note' | 'deposit';

/** A payment out of a customer's credit, credit note or deposit (migrations/0027, refunds.ts). */
export interface CustomerRefundsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  source_type: RefundSourceType;
  source_id: string;
  source_document_id: Generated<string | null>;
  source_credit_id: Generated<string | null>;
  date: DateString;
  amount: Numeric;
  vat_amount: ColumnType<string, string | number | undefined, string | number>;
  bank_account_id: string;
  reference: string | null;
  entry_id: string;
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** A deposit the customer forfeited, with the VAT on it (migrations/0028, deposits.ts). */
export interface DepositForfeitsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  deposit_id: string;
  date: DateString;
  amount: Numeric;
  vat_amount: Numeric;
  vat_rate: Numeric | null;
  reason: string;
  entry_id: string;
  /** migrations/0075: the deposit's excess (a customer credit) it took; null: the deposit's own remainder. */
  credit_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    invoice_settings: InvoiceSettingsTable;
    invoice_templates: InvoiceTemplatesTable;
    invoices: InvoicesTable;
    invoice_lines: InvoiceLinesTable;
    invoice_payments: InvoicePaymentsTable;
    invoice_allocations: InvoiceAllocationsTable;
    invoice_write_offs: InvoiceWriteOffsTable;
    invoice_bad_debt_recoveries: InvoiceBadDebtRecoveriesTable;
    customer_credits: CustomerCreditsTable;
    customer_refunds: CustomerRefundsTable;
    deposit_forfeits: DepositForfeitsTable;
  }
}
