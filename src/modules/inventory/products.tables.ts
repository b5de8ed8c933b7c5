// Kysely types of the inventory module's tables (migrations/0014_products.sql).
import type { Generated } from 'kysely';
import type { DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';
import type { ProductPurchaseTaxCode, ProductSalesTaxCode } from './products.tax.ts';

export interface ProductsTable {
  tenant_id: string;
  id: string;
  sku: string;
  name: string;
  description: string | null;
  unit_price: Numeric;
  /** No longer read (migrations/0076): the sales tax code says the rate. */
  vat_rate: Numeric | null;
  /** migrations/0076 (issue 34, item 19): by tax code, as document lines take it. */
  sales_tax_code: Generated<ProductSalesTaxCode>;
  purchase_tax_code: Generated<ProductPurchaseTaxCode>;
  /** Why the code was chosen for the product's earlier vatRate; null once the code is set by hand. */
  tax_note: string | null;
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
