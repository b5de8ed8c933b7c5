// Kysely types of the purchase order tables (migrations/0040_purchase_orders.sql).
import type { Generated } from 'kysely';
import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';
import type { LineStockColumn } from '../inventory/index.ts';

export const PURCHASE_ORDER_STATUSES = [
  'draft',
  'sent',
  'partially_received',
  'received',
  'billed',
  'cancelled',
] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

export interface PurchaseOrdersTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  number: string;
  status: PurchaseOrderStatus;
  issue_date: DateString;
  expected_date: DateString | null;
  currency: Generated<string>;
  reference: string | null;
  notes: string | null;
  delivery_address: string | null;
  vat_registered: boolean;
  subtotal: Numeric;
  vat_total: Numeric;
  total: Numeric;
  sent_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface PurchaseOrderLinesTable {
  tenant_id: string;
  id: string;
  purchase_order_id: string;
  line_no: number;
  description: string;
  quantity: Numeric;
  unit_price: Numeric;
  tax_code: string;
  vat_rate: Numeric;
  account_id: string;
  product_id: string | null;
  /** migrations/0049_inventory.sql */
  variant_id: Generated<string | null>;
  /** migrations/0050_inventory_lines.sql: the unit the quantity is in (inventory/lines.ts). */
  stock: LineStockColumn;
  net_amount: Numeric;
  vat_amount: Numeric;
  total_amount: Numeric;
  retired_at: Timestamp | null;
}

export interface PurchaseOrderReceiptsTable {
  tenant_id: string;
  id: string;
  purchase_order_id: string;
  date: DateString;
  note: string | null;
  created_at: DefaultTimestamp;
  /** migrations/0057_receipt_reversal.sql: a reversed receipt stays, marked (reversal.ts). */
  reversed_at: Timestamp | null;
  reversed_by_type: 'user' | 'api_key' | 'system' | null;
  reversed_by: string | null;
  reversal_date: DateString | null;
  reversal_reason: string | null;
}

export interface PurchaseOrderReceiptLinesTable {
  tenant_id: string;
  id: string;
  receipt_id: string;
  purchase_order_line_id: string;
  quantity: Numeric;
  /** migrations/0050_inventory_lines.sql: batch and serials received (inventory/lines.ts). */
  stock: LineStockColumn;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    purchase_orders: PurchaseOrdersTable;
    purchase_order_lines: PurchaseOrderLinesTable;
    purchase_order_receipts: PurchaseOrderReceiptsTable;
    purchase_order_receipt_lines: PurchaseOrderReceiptLinesTable;
  }
}
