// Kysely types of payroll's statutory tables (migrations/0052_payroll_statutory.sql; 0070 adds the
// national minimum wage): reference tables, the same for every tenant, read only.
import type { DateString, Numeric } from '../../platform/db/schema.ts';

export const ETI_PERIODS = ['first', 'second'] as const;
export type EtiPeriod = (typeof ETI_PERIODS)[number];

export const ETI_BAND_KINDS = ['rate', 'fixed', 'taper'] as const;
export type EtiBandKind = (typeof ETI_BAND_KINDS)[number];

export interface PayrollTaxYearsTable {
  code: string;
  starts_on: DateString;
  ends_on: DateString;
  rebate_primary: Numeric;
  rebate_secondary: Numeric;
  rebate_tertiary: Numeric;
  threshold_under_65: Numeric;
  threshold_65_to_74: Numeric;
  threshold_75_and_over: Numeric;
  medical_credit_main: Numeric;
  medical_credit_first_dependant: Numeric;
  medical_credit_additional: Numeric;
  retirement_deduction_rate: Numeric;
  retirement_deduction_cap: Numeric;
  source: string;
}

export interface PayrollTaxBracketsTable {
  tax_year: string;
  from_amount: Numeric;
  base_tax: Numeric;
  rate: Numeric;
}

export interface PayrollUifRatesTable {
  effective_from: DateString;
  employee_rate: Numeric;
  employer_rate: Numeric;
  monthly_ceiling: Numeric;
  source: string;
}

export interface PayrollSdlRatesTable {
  effective_from: DateString;
  rate: Numeric;
  exemption_threshold: Numeric;
  source: string;
}

export interface PayrollEtiRulesTable {
  effective_from: DateString;
  effective_to: DateString;
  min_age: number;
  max_age: number;
  months: number;
  first_period_months: number;
  max_remuneration: Numeric;
  minimum_wage: Numeric;
  minimum_wage_hours: Numeric;
  source: string;
}

export interface PayrollEtiBandsTable {
  rules_from: DateString;
  period: EtiPeriod;
  from_amount: Numeric;
  to_amount: Numeric;
  kind: EtiBandKind;
  rate: Numeric | null;
  amount: Numeric | null;
}

/** The National Minimum Wage an ordinary hour from the day it took effect (migration 0070). */
export interface PayrollMinimumWagesTable {
  effective_from: DateString;
  hourly: Numeric;
  source: string;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    payroll_minimum_wages: PayrollMinimumWagesTable;
    payroll_tax_years: PayrollTaxYearsTable;
    payroll_tax_brackets: PayrollTaxBracketsTable;
    payroll_uif_rates: PayrollUifRatesTable;
    payroll_sdl_rates: PayrollSdlRatesTable;
    payroll_eti_rules: PayrollEtiRulesTable;
    payroll_eti_bands: PayrollEtiBandsTable;
  }
}
