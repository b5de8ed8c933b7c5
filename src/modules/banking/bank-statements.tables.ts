// Kysely types of migrations/0043_bank_statements.sql: the CSV mappings a user saves.
import type { ColumnType } from 'kysely';
import type { DefaultTimestamp } from '../../platform/db/schema.ts';
import type { CsvMapping } from './statements/csv-profiles.ts';

export interface BankCsvMappingsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  name: string;
  mapping: ColumnType<CsvMapping, string, string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bank_csv_mappings: BankCsvMappingsTable;
  }
}
