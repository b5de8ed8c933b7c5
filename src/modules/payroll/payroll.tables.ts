// Kysely types of payroll's first part (migrations/0051_payroll.sql; 0055 and 0070 add columns):
// employees, leave requests and leave adjustments.
import type { ColumnType } from 'kysely';
import type { DateString, DefaultTimestamp, Numeric, Timestamp } from '../../platform/db/schema.ts';

export const PAY_FREQUENCIES = ['monthly', 'fortnightly', 'weekly'] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];

export const PAY_BASES = ['salary', 'hourly'] as const;
export type PayBasis = (typeof PAY_BASES)[number];

export const BANK_ACCOUNT_TYPES = ['cheque', 'savings', 'transmission'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

export const LEAVE_TYPES = ['annual', 'sick', 'family_responsibility', 'parental', 'unpaid'] as const;
export type LeaveType = (typeof LEAVE_TYPES)[number];

export const LEAVE_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A NUMERIC with a default: read as a string (Defaulted<Numeric> would nest two ColumnTypes). */
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;

export interface EmployeesTable {
  tenant_id: string;
  id: string;
  company_id: string;
  contact_id: string;
  employee_number: string;
  first_name: string;
  last_name: string;
  id_number: string | null;
  passport_number: string | null;
  passport_country: string | null;
  date_of_birth: DateString;
  tax_number: string | null;
  job_title: string | null;
  start_date: DateString;
  end_date: DateString | null;
  termination_reason: string | null;
  pay_frequency: PayFrequency;
  pay_basis: PayBasis;
  rate: Numeric;
  hours_per_week: DefaultedNumeric;
  days_per_week: DefaultedNumeric;
  bank_name: string | null;
  bank_branch_code: string | null;
  bank_account_type: BankAccountType | null;
  bank_account_holder: string | null;
  bank_account_sealed: string | null;
  bank_account_last4: string | null;
  medical_scheme: Defaulted<boolean>;
  medical_dependants: Defaulted<number>;
  medical_employee_contribution: DefaultedNumeric;
  medical_employer_contribution: DefaultedNumeric;
  retirement_employee_contribution: DefaultedNumeric;
  retirement_employer_contribution: DefaultedNumeric;
  uif_applies: Defaulted<boolean>;
  sdl_applies: Defaulted<boolean>;
  eti_eligible: Defaulted<boolean>;
  eti_start_date: DateString | null;
  /** 0070: the NMW does not bind this wage (NMW Act s15 exemption, or outside the Act). */
  minimum_wage_exempt: Defaulted<boolean>;
  /** 0070: a wage-regulating measure's minimum an hour, where one binds the employee. */
  minimum_hourly_wage: Numeric | null;
  client_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface LeaveRequestsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  employee_id: string;
  leave_type: LeaveType;
  starts_on: DateString;
  ends_on: DateString;
  days: Numeric;
  status: Defaulted<LeaveStatus>;
  reason: string | null;
  decided_by: string | null;
  decided_at: Timestamp | null;
  decision_note: string | null;
  client_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface LeaveAdjustmentsTable {
  tenant_id: string;
  id: string;
  company_id: string;
  employee_id: string;
  leave_type: LeaveType;
  effective_on: DateString;
  days: Numeric;
  reason: string;
  created_by: string | null;
  created_at: DefaultTimestamp;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    employees: EmployeesTable;
    leave_requests: LeaveRequestsTable;
    leave_adjustments: LeaveAdjustmentsTable;
  }
}
