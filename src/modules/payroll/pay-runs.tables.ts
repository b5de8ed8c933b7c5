// Kysely types of pay runs (migrations/0053_payroll_runs.sql; 0054 adds the payslips' ETI basis,
// 0070 their ordinary hours, ETI reason and warnings; 0071 the periods' SDL judgement):
// periods, the inputs that vary per period, payslips and their lines.
import type { ColumnType } from 'kysely';
import type {
  DateString,
  DefaultJson,
  DefaultTimestamp,
  Numeric,
  Timestamp,
} from '../../platform/db/schema.ts';
import type { EtiStop } from './calc/eti.ts';
import type { PayFrequency } from './payroll.tables.ts';

export const PERIOD_STATUSES = ['open', 'calculated', 'finalised', 'paid'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

/** tax_certificate (0072): for the IRP5 only (4001/4005 deemed paid, 4116), neither pay nor deducted. */
export const PAYSLIP_LINE_KINDS = [
  'earning',
  'fringe_benefit',
  'deduction',
  'employer',
  'eti',
  'tax_certificate',
] as const;
export type PayslipLineKind = (typeof PAYSLIP_LINE_KINDS)[number];

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;

export interface PayrollPeriodsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  frequency: PayFrequency;
  period_start: DateString;
  period_end: DateString;
  pay_date: DateString;
  status: Defaulted<PeriodStatus>;
  employee_count: Defaulted<number>;
  gross: DefaultedNumeric;
  paye: DefaultedNumeric;
  uif_employee: DefaultedNumeric;
  uif_employer: DefaultedNumeric;
  sdl: DefaultedNumeric;
  eti: DefaultedNumeric;
  retirement_employee: DefaultedNumeric;
  retirement_employer: DefaultedNumeric;
  medical_employee: DefaultedNumeric;
  medical_employer: DefaultedNumeric;
  other_deductions: DefaultedNumeric;
  net: DefaultedNumeric;
  entry_id: string | null;
  payment_entry_id: string | null;
  bank_account_id: string | null;
  calculated_at: Timestamp | null;
  finalised_at: Timestamp | null;
  finalised_by: string | null;
  paid_at: Timestamp | null;
  paid_by: string | null;
  client_id: string | null;
  /** 0070: the payslips' warnings, each with its employee (PeriodWarning[] as JSON). */
  warnings: DefaultJson;
  /** 0071: the leviable amount expected over twelve months the SDL exemption was judged on. */
  sdl_expected: Numeric | null;
  /** 0071: exempt from SDL (SDL Act s4(b)) by that judgement. */
  sdl_exempt: boolean | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PayslipInputsTable {
  tenant_id: string;
  period_id: string;
  employee_id: string;
  company_id: string;
  ordinary_hours: Numeric | null;
  overtime_hours: DefaultedNumeric;
  commission: DefaultedNumeric;
  bonus: DefaultedNumeric;
  travel_allowance: DefaultedNumeric;
  other_allowances: DefaultedNumeric;
  other_deductions: DefaultedNumeric;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PayslipsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  period_id: string;
  employee_id: string;
  tax_year: string;
  period_fraction: Numeric;
  days_worked: number;
  unpaid_days: DefaultedNumeric;
  gross: Numeric;
  taxable: Numeric;
  paye: Numeric;
  uif_employee: Numeric;
  uif_employer: Numeric;
  sdl: Numeric;
  eti: Numeric;
  retirement_employee: Numeric;
  retirement_employer: Numeric;
  medical_employee: Numeric;
  medical_employer: Numeric;
  other_deductions: Numeric;
  net: Numeric;
  /** The ETI basis (0054): regular cash remuneration, wage and hours, summed month to date. */
  eti_remuneration: DefaultedNumeric;
  eti_wage: DefaultedNumeric;
  eti_hours: DefaultedNumeric;
  /** 0070: the ordinary hours the wage pays (eti_hours: every hour paid, overtime in). */
  eti_ordinary_hours: DefaultedNumeric;
  /** 0070: why an ETI-eligible employee's payslip claims no ETI; null when it claims. */
  eti_reason: EtiStop | null;
  /** 0070: PayslipWarning[] as JSON. */
  warnings: DefaultJson;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  replaced_at: Timestamp | null;
}

export interface PayslipLinesTable {
  tenant_id: string;
  id: string;
  payslip_id: string;
  position: number;
  kind: PayslipLineKind;
  irp5_code: string | null;
  description: string;
  quantity: Numeric | null;
  rate: Numeric | null;
  amount: Numeric;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    payroll_periods: PayrollPeriodsTable;
    payslip_inputs: PayslipInputsTable;
    payslips: PayslipsTable;
    payslip_lines: PayslipLinesTable;
  }
}
