// Kysely types of the ledger's tables (migrations/0008_ledger.sql).
import type { Generated } from 'kysely';
import type { DateString, DefaultTimestamp, Numeric } from '../../platform/db/schema.ts';

export interface LedgerSettingsTable {
  tenant_id: string;
  company_id: string;
  lock_date: DateString | null;
  financial_year_end_month: Generated<number>;
  updated_at: DefaultTimestamp;
}

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type AccountSubtype =
  | 'bank'
  | 'receivable'
  | 'current_asset'
  | 'inventory'
  | 'fixed_asset'
  | 'non_current_asset'
  | 'payable'
  | 'current_liability'
  | 'non_current_liability'
  | 'equity'
  | 'retained_earnings'
  | 'revenue'
  | 'other_income'
  | 'cost_of_sales'
  | 'expense'
  | 'income_tax';

export interface AccountsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  system_key: string | null;
  is_control: Generated<boolean>;
  is_active: Generated<boolean>;
  description: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface JournalEntriesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  date: DateString;
  description: string;
  reference: string | null;
  source_type: string;
  source_id: string | null;
  reverses_entry_id: string | null;
  created_by_type: string | null;
  created_by: string | null;
  created_at: DefaultTimestamp;
}

export type TaxCode =
  | 'standard'
  | 'standard_capital'
  | 'zero'
  | 'zero_export'
  | 'exempt'
  /** The VAT on a bad debt recovered, output tax again (s22(2), VAT201 field 12). */
  | 'bad_debt_recovered'
  /** Commercial accommodation of 28 days or less (VAT201 field 7), and of more (field 5, s10(10)). */
  | 'accommodation_short'
  | 'accommodation_long'
  /** Output tax on a change in use or a second-hand export (s18(1), fields 10 and 11). */
  | 'change_in_use'
  /** Output tax on imported services (s7(1)(c), field 12). */
  | 'imported_services'
  | 'input_standard'
  | 'input_capital'
  | 'input_zero'
  | 'input_exempt'
  | 'input_import'
  /** Input tax on capital goods imported (field 14A). */
  | 'input_capital_import'
  /** Input tax on a change in use into taxable use (s18(4), field 16). */
  | 'input_change_in_use'
  /** Other input tax adjustments (field 18). */
  | 'input_other'
  /** The VAT of a bad debt written off, claimed back as input tax (s22(1), VAT201 field 17). */
  | 'input_bad_debt';

export interface JournalLinesTable {
  tenant_id: string;
  id: string;
  entry_id: string;
  line_no: number;
  company_id: string;
  date: DateString;
  account_id: string;
  debit: Numeric;
  credit: Numeric;
  description: string | null;
  contact_id: string | null;
  open_item_id: string | null;
  due_date: DateString | null;
  tax_code: TaxCode | null;
  tax_rate: Numeric | null;
  /** migrations/0041_cost_centres.sql: optional on insert */
  cost_centre_id: Generated<string | null>;
}

export interface CostCentresTable {
  tenant_id: string;
  id: string;
  company_id: string;
  code: string;
  name: string;
  description: string | null;
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CostCentreBalancesTable {
  tenant_id: string;
  company_id: string;
  cost_centre_id: string;
  account_id: string;
  date: DateString;
  debit: Numeric;
  credit: Numeric;
}

export interface AccountBalancesTable {
  tenant_id: string;
  company_id: string;
  account_id: string;
  date: DateString;
  debit: Numeric;
  credit: Numeric;
}

/** The same per calendar month (migrations/0011_reports.sql); month is its first day. */
export interface AccountMonthBalancesTable {
  tenant_id: string;
  company_id: string;
  account_id: string;
  month: DateString;
  debit: Numeric;
  credit: Numeric;
}

export interface TaxBalancesTable {
  tenant_id: string;
  company_id: string;
  tax_code: TaxCode;
  tax_rate: Numeric;
  date: DateString;
  base_debit: Numeric;
  base_credit: Numeric;
  tax_debit: Numeric;
  tax_credit: Numeric;
}

export interface CashFlowBalancesTable {
  tenant_id: string;
  company_id: string;
  account_id: string;
  date: DateString;
  amount: Numeric;
}

export interface OpenItemsTable {
  tenant_id: string;
  company_id: string;
  account_id: string;
  item_id: string;
  contact_id: string | null;
  due_date: DateString | null;
  first_date: DateString;
  last_date: DateString;
  balance: Numeric;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    ledger_settings: LedgerSettingsTable;
    accounts: AccountsTable;
    journal_entries: JournalEntriesTable;
    journal_lines: JournalLinesTable;
    cost_centres: CostCentresTable;
    cost_centre_balances: CostCentreBalancesTable;
    account_balances: AccountBalancesTable;
    account_month_balances: AccountMonthBalancesTable;
    tax_balances: TaxBalancesTable;
    cash_flow_balances: CashFlowBalancesTable;
    open_items: OpenItemsTable;
  }
}
