// Kysely types of the bank rules (migrations/0044_bank_rules.sql) and of the coding the rules
// (or a person) set on bank lines, merged into the banking foundation's table.
import type { Generated, Selectable } from 'kysely';
import type { DefaultTimestamp, Json, Timestamp } from '../../platform/db/schema.ts';

export const RULE_MATCHES = ['all', 'any'] as const;
export type RuleMatch = (typeof RULE_MATCHES)[number];

export interface BankRulesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  name: string;
  priority: number;
  match: Generated<RuleMatch>;
  conditions: Json;
  actions: Json;
  stop_processing: Generated<boolean>;
  bank_account_id: string | null;
  is_active: Generated<boolean>;
  deleted_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export type BankRuleRow = Selectable<BankRulesTable>;

declare module './banking.tables.ts' {
  interface BankTransactionsTable {
    /** Who set the coding: a rule, or a person (whose coding no rule overwrites). */
    coded_by: 'rule' | 'person' | null;
    /** The first rule that touched the line, and when. */
    rule_id: string | null;
    rule_applied_at: Timestamp | null;
    coded_account_id: string | null;
    coded_contact_id: string | null;
    coded_tax_code: string | null;
    coded_description: string | null;
    coded_cost_centre_id: string | null;
    coded_splits: Json | null;
  }
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    bank_rules: BankRulesTable;
  }
}
