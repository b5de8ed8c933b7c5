// Kysely types of the recurring schedules' tables (migrations/0013_recurring.sql).

import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';
import type { Frequency } from '../../platform/schedules/recurring-dates.ts';
import type { SalesTaxCode } from '../ledger/index.ts';

/** What a schedule may make: invoices (docs/decisions.md, Recurring invoices). */
export const RECURRING_TYPES = ['invoice'] as const;
export type RecurringType = (typeof RECURRING_TYPES)[number];

export interface RecurringInvoicesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  document_type: RecurringType;
  frequency: Frequency;
  interval_count: number;
  start_date: DateString;
  next_date: DateString;
  anchor_date: DateString;
  end_date: DateString | null;
  payment_terms_days: number;
  currency: string;
  reference: string | null;
  terms: string | null;
  notes: string | null;
  template_id: string | null;
  auto_release: boolean;
  auto_send: boolean;
  active: boolean;
  last_run_date: DateString | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface RecurringInvoiceLinesTable {
  tenant_id: string;
  id: string;
  recurring_id: string;
  line_no: number;
  description: string;
  quantity: Numeric;
  unit_price: Numeric;
  discount_rate: Numeric | null;
  /** migrations/0024_line_tax_codes.sql; null: from vat_rate, or standard. */
  tax_code: SalesTaxCode | null;
  vat_rate: Numeric | null;
  account_id: string | null;
  /** migrations/0058_recurring_line_products.sql: given to every document made. */
  product_id: string | null;
  variant_id: string | null;
  unit: string | null;
  batch_code: string | null;
  retired_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    recurring_invoices: RecurringInvoicesTable;
    recurring_invoice_lines: RecurringInvoiceLinesTable;
  }
}
