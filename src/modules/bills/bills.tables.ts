// Kysely types of the bills tables (migrations/0036_bills.sql).
import type { ColumnType, Generated } from 'kysely';
import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';
import type { LineStockColumn } from '../inventory/index.ts';

export const BILL_STATUSES = [
  'draft',
  'awaiting_approval',
  'approved',
  'partially_paid',
  'paid',
  'rejected',
  'void',
] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];

// The recurring invoices' frequencies (platform/schedules/recurring-dates.ts): the same calendar.
export { FREQUENCIES as BILL_FREQUENCIES } from '../../platform/schedules/recurring-dates.ts';

export interface BillsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  bill_number: string;
  status: BillStatus;
  issue_date: DateString;
  due_date: DateString;
  currency: Generated<string>;
  reference: string | null;
  notes: string | null;
  category: string | null;
  supplier_vat_number: string | null;
  vat_warning: string | null;
  vat_registered: boolean;
  subtotal: Numeric;
  vat_total: Numeric;
  total: Numeric;
  cost_centre_id: string | null;
  purchase_order_id: string | null;
  purchase_order_number: string | null;
  /** Why the bill is held: it bills more than was received on its order (0040). */
  receipt_mismatch: string | null;
  receipt_mismatch_accepted_by: string | null;
  recurring: Generated<boolean>;
  frequency: string | null;
  next_date: DateString | null;
  end_date: DateString | null;
  recurrence_active: Generated<boolean>;
  recurrence_anchor: DateString | null;
  recurrence_error: string | null;
  recurring_from_id: string | null;
  recurring_period: DateString | null;
  rejection_reason: string | null;
  entry_id: string | null;
  void_entry_id: string | null;
  submitted_at: Timestamp | null;
  approved_at: Timestamp | null;
  approved_by: string | null;
  rejected_at: Timestamp | null;
  paid_at: Timestamp | null;
  voided_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
  // 0039: neither a payment run nor a single payment pays a held or disputed bill.
  on_hold: Generated<boolean>;
  hold_reason: string | null;
  disputed: Generated<boolean>;
  dispute_reason: string | null;
}

/** The columns a bill line and a supplier credit note line share. */
interface TaxedLineColumns {
  tenant_id: string;
  id: string;
  line_no: number;
  description: string;
  quantity: Numeric;
  unit_price: Numeric;
  tax_code: string;
  vat_rate: Numeric;
  account_id: string;
  net_amount: Numeric;
  vat_amount: Numeric;
  total_amount: Numeric;
}

export interface BillLinesTable extends TaxedLineColumns {
  bill_id: string;
  cost_centre_id: string | null;
  product_id: string | null;
  /** migrations/0049_inventory.sql */
  variant_id: Generated<string | null>;
  /** migrations/0050_inventory_lines.sql: unit, batch and serials (inventory/lines.ts). */
  stock: LineStockColumn;
  /** The purchase order line it bills (0040). */
  purchase_order_line_id: string | null;
  retired_at: Timestamp | null;
}

export interface BillPaymentsTable {
  tenant_id: string;
  id: string;
  bill_id: string;
  company_id: string;
  amount: Numeric;
  date: DateString;
  reference: string | null;
  bank_account_id: string;
  entry_id: string;
  reversed_at: Timestamp | null;
  reversal_entry_id: string | null;
  /** 0039: the payment run it was made in (its entry is the run's, shared with the run's others). */
  payment_run_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BillCreditNotesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  bill_id: string;
  credit_note_number: string;
  issue_date: DateString;
  reason: string | null;
  settlement: 'offset' | 'refund';
  status: 'applied' | 'refunded' | 'void';
  supplier_return_id: string | null;
  net: Numeric;
  vat: Numeric;
  total: Numeric;
  bank_account_id: string | null;
  refunded_at: Timestamp | null;
  entry_id: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BillCreditNoteLinesTable extends TaxedLineColumns {
  credit_note_id: string;
  /** migrations/0050_inventory_lines.sql: the product sent back, its unit, batch and serials. */
  product_id: Generated<string | null>;
  /** migrations/0059_supplier_credit_note_variants.sql */
  variant_id: Generated<string | null>;
  stock: LineStockColumn;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bills: BillsTable;
    bill_lines: BillLinesTable;
    bill_payments: BillPaymentsTable;
    bill_credit_notes: BillCreditNotesTable;
    bill_credit_note_lines: BillCreditNoteLinesTable;
  }
}
