// Kysely types of the sandbox module's table (migrations/0015_sandbox.sql).
import type { DefaultTimestamp } from '../../platform/db/schema.ts';

export interface SandboxSamplesTable {
  tenant_id: string;
  id: string;
  /** the sandbox company */
  company_id: string;
  contact_id: string | null;
  product_id: string | null;
  invoice_id: string | null;
  position: number;
  created_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    sandbox_samples: SandboxSamplesTable;
  }
}
