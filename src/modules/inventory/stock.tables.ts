// Kysely types of the stock tables (migrations/0049_inventory.sql).
import type { ColumnType, Generated } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';

/** A NUMERIC column with a default. */
type DefaultNumeric = ColumnType<string, string | number | undefined, string | number>;

export type CostMethod = 'average' | 'fifo';
export type Tracking = 'none' | 'batch' | 'serial';
export type LocationKind = 'warehouse' | 'bin' | 'transit';
export type MovementType =
  | 'opening'
  | 'purchase'
  | 'receipt'
  | 'sale'
  | 'return_in'
  | 'return_out'
  | 'adjustment'
  | 'count'
  | 'transfer_out'
  | 'transfer_in'
  | 'landed_cost'
  /** A supplier's bill priced differently from its order, on the receipt's units (value only). */
  | 'price_difference'
  | 'revaluation';

export interface ProductVariantsTable {
  tenant_id: string;
  id: string;
  product_id: string;
  sku: string;
  name: string;
  attributes: DefaultJson;
  barcode: string | null;
  unit_price: Numeric | null;
  weight: Numeric | null;
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface ProductUnitsTable {
  tenant_id: string;
  id: string;
  product_id: string;
  name: string;
  factor: Numeric;
  created_at: DefaultTimestamp;
  retired_at: Timestamp | null;
}

export interface StockLocationsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  parent_id: string | null;
  code: string;
  name: string;
  kind: LocationKind;
  is_default: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface StockBatchesTable {
  tenant_id: string;
  id: string;
  product_id: string;
  item_id: string;
  code: string;
  expiry_date: DateString | null;
  created_at: DefaultTimestamp;
}

export interface StockSerialsTable {
  tenant_id: string;
  id: string;
  product_id: string;
  item_id: string;
  serial: string;
  batch_id: string | null;
  company_id: string | null;
  location_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface StockMovementsTable {
  tenant_id: string;
  id: string;
  /** The order it was written in (migration 0056): created_at is too coarse on PGlite. */
  seq: Generated<string>;
  company_id: string;
  location_id: string;
  product_id: string;
  variant_id: string | null;
  item_id: string;
  batch_id: string | null;
  serial_id: string | null;
  date: DateString;
  type: MovementType;
  quantity: Numeric;
  unit_cost: Numeric;
  value: Numeric;
  source_type: string;
  source_id: string | null;
  source_line_id: string | null;
  entry_id: string | null;
  reverses_movement_id: string | null;
  created_at: DefaultTimestamp;
}

export interface StockBalancesTable {
  tenant_id: string;
  company_id: string;
  location_id: string;
  item_id: string;
  batch_key: string;
  product_id: string;
  quantity: Numeric;
  value: Numeric;
}

export interface StockMonthBalancesTable {
  tenant_id: string;
  company_id: string;
  location_id: string;
  item_id: string;
  month: DateString;
  product_id: string;
  quantity: Numeric;
  value: Numeric;
}

export interface StockCostsTable {
  tenant_id: string;
  company_id: string;
  item_id: string;
  product_id: string;
  quantity: DefaultNumeric;
  value: DefaultNumeric;
  last_unit_cost: DefaultNumeric;
  updated_at: DefaultTimestamp;
}

export interface StockLayersTable {
  tenant_id: string;
  id: string;
  /** The order it was written in (migration 0056): created_at is too coarse on PGlite. */
  seq: Generated<string>;
  company_id: string;
  item_id: string;
  movement_id: string;
  date: DateString;
  quantity: Numeric;
  quantity_left: Numeric;
  value_left: Numeric;
  created_at: DefaultTimestamp;
}

export interface StockTakesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  location_id: string;
  number: string | null;
  date: DateString;
  status: Generated<'counting' | 'approved' | 'cancelled'>;
  notes: string | null;
  entry_id: string | null;
  approved_at: Timestamp | null;
  approved_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface StockTakeLinesTable {
  tenant_id: string;
  id: string;
  stock_take_id: string;
  product_id: string;
  variant_id: string | null;
  item_id: string;
  batch_id: string | null;
  expected: Numeric;
  counted: Numeric | null;
}

export interface StockTransfersTable {
  tenant_id: string;
  id: string;
  company_id: string;
  from_location_id: string;
  to_location_id: string;
  status: Generated<'in_transit' | 'received' | 'cancelled'>;
  sent_date: DateString;
  received_date: DateString | null;
  reference: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface StockTransferLinesTable {
  tenant_id: string;
  id: string;
  transfer_id: string;
  line_no: number;
  product_id: string;
  variant_id: string | null;
  item_id: string;
  batch_id: string | null;
  serial_id: string | null;
  quantity: Numeric;
}

export interface LandedCostsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  date: DateString;
  method: 'value' | 'quantity' | 'weight';
  status: Generated<'draft' | 'posted'>;
  amount: DefaultNumeric;
  description: string | null;
  entry_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface LandedCostChargesTable {
  tenant_id: string;
  id: string;
  landed_cost_id: string;
  bill_id: string;
  bill_line_id: string;
  amount: Numeric;
}

export interface LandedCostAllocationsTable {
  tenant_id: string;
  id: string;
  landed_cost_id: string;
  movement_id: string;
  amount: DefaultNumeric;
}

/** A share of value added to a receipt's units after the fact (migration 0060, revalue.ts). */
export interface ReceiptRevaluationsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  receipt_movement_id: string;
  source_type: 'bill' | 'landed_cost';
  source_id: string;
  source_line_id: string | null;
  date: DateString;
  amount: Numeric;
  kept: Numeric;
  movement_id: string | null;
  entry_id: string;
  undoes_id: string | null;
  created_at: DefaultTimestamp;
}

export interface PriceListsTable {
  tenant_id: string;
  id: string;
  name: string;
  company_id: string | null;
  currency: Generated<string>;
  contact_tags: Generated<string[]>;
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface PriceListItemsTable {
  tenant_id: string;
  id: string;
  price_list_id: string;
  product_id: string;
  variant_id: string | null;
  unit_price: Numeric;
  retired_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    product_variants: ProductVariantsTable;
    product_units: ProductUnitsTable;
    stock_locations: StockLocationsTable;
    stock_batches: StockBatchesTable;
    stock_serials: StockSerialsTable;
    stock_movements: StockMovementsTable;
    stock_balances: StockBalancesTable;
    stock_month_balances: StockMonthBalancesTable;
    stock_costs: StockCostsTable;
    stock_layers: StockLayersTable;
    stock_takes: StockTakesTable;
    stock_take_lines: StockTakeLinesTable;
    stock_transfers: StockTransfersTable;
    stock_transfer_lines: StockTransferLinesTable;
    landed_costs: LandedCostsTable;
    landed_cost_charges: LandedCostChargesTable;
    landed_cost_allocations: LandedCostAllocationsTable;
    receipt_revaluations: ReceiptRevaluationsTable;
    price_lists: PriceListsTable;
    price_list_items: PriceListItemsTable;
  }
}
