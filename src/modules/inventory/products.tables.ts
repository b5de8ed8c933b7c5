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
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    products: ProductsTable;
  }
}
