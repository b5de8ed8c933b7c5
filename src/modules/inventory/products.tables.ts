// Kysely types of the inventory module's tables (migrations/0014_products.sql).
import type { Generated } from 'kysely';
import type { DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export interface ProductsTable {
  tenant_id: string;
  id: string;
  sku: string;
  name: string;
  description: string | null;
  unit_price: Numeric;
  vat_rate: Numeric | null;
  is_tracked: Generated<boolean>;
  is_active: Generated<boolean>;
  /** migrations/0049_inventory.sql: how its stock is kept. */
  cost_method: Generated<'average' | 'fifo'>;
  tracking: Generated<'none' | 'batch' | 'serial'>;
  allow_negative: Generated<boolean>;
  reorder_point: Numeric | null;
  reorder_quantity: Numeric | null;
  barcode: string | null;
  base_unit: Generated<string>;
  weight: Numeric | null;
  income_account_code: string | null;
  cost_account_code: string | null;
  inventory_account_code: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    products: ProductsTable;
  }
}
