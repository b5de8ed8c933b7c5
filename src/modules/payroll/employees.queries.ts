// SQL of employees and the answer's shape. Every query names the tenant (the first wall; RLS is
// the second) and the company (an employee is employed by one company).
import { Decimal } from 'decimal.js';
import { type Expression, type Selectable, sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import type { EmployeesTable } from './payroll.tables.ts';

export type EmployeeRow = Selectable<EmployeesTable>;

/** The fields an employee's record and a pay run's view of it share, as the row has them. */
export function employeeFieldsOf(row: EmployeeRow) {
  return {
    employeeNumber: row.employee_number,
    firstName: row.first_name,
    lastName: row.last_name,
    idNumber: row.id_number,
    passportNumber: row.passport_number,
    passportCountry: row.passport_country,
    dateOfBirth: row.date_of_birth,
    taxNumber: row.tax_number,
    jobTitle: row.job_title,
    startDate: row.start_date,
    endDate: row.end_date,
    terminationReason: row.termination_reason,
    payFrequency: row.pay_frequency,
    payBasis: row.pay_basis,
    rate: row.rate,
    hoursPerWeek: row.hours_per_week,
    daysPerWeek: row.days_per_week,
    medicalScheme: row.medical_scheme,
    medicalDependants: row.medical_dependants,
    medicalEmployeeContribution: row.medical_employee_contribution,
    medicalEmployerContribution: row.medical_employer_contribution,
    retirementEmployeeContribution: row.retirement_employee_contribution,
    retirementEmployerContribution: row.retirement_employer_contribution,
    uifApplies: row.uif_applies,
    sdlApplies: row.sdl_applies,
    etiEligible: row.eti_eligible,
    minimumWageExempt: row.minimum_wage_exempt,
    minimumHourlyWage: row.minimum_hourly_wage,
  };
}

/** A NUMERIC as a JSON number (the columns hold at most two decimals, so nothing is lost). */
const num = (v: string | number) => new Decimal(v).toNumber();

/** Terminated once the last day employed is behind us; a future end date is still active. */
export function statusOf(row: Pick<EmployeeRow, 'end_date'>, today: string): 'active' | 'terminated' {
  return row.end_date !== null && row.end_date < today ? 'terminated' : 'active';
}

export function toEmployee(row: EmployeeRow, today: string) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    companyId: row.company_id,
    contactId: row.contact_id,
    employeeNumber: row.employee_number,
    firstName: row.first_name,
    lastName: row.last_name,
    idNumber: row.id_number,
    passportNumber: row.passport_number,
    passportCountry: row.passport_country,
    dateOfBirth: row.date_of_birth,
    taxNumber: row.tax_number,
    jobTitle: row.job_title,
    startDate: row.start_date,
    endDate: row.end_date,
    terminationReason: row.termination_reason,
    status: statusOf(row, today),
    payFrequency: row.pay_frequency,
    payBasis: row.pay_basis,
    rate: num(row.rate),
    hoursPerWeek: num(row.hours_per_week),
    daysPerWeek: num(row.days_per_week),
    // Only the last four digits are kept in clear: the number itself is never answered.
    bankAccount:
      row.bank_account_last4 === null
        ? null
        : {
            bankName: row.bank_name,
            branchCode: row.bank_branch_code,
            accountType: row.bank_account_type,
            accountHolder: row.bank_account_holder,
            accountNumberMasked: maskedAccountNumber(row.bank_account_last4),
          },
    medicalScheme: row.medical_scheme,
    medicalDependants: row.medical_dependants,
    medicalEmployeeContribution: num(row.medical_employee_contribution),
    medicalEmployerContribution: num(row.medical_employer_contribution),
    retirementEmployeeContribution: num(row.retirement_employee_contribution),
    retirementEmployerContribution: num(row.retirement_employer_contribution),
    uifApplies: row.uif_applies,
    sdlApplies: row.sdl_applies,
    etiEligible: row.eti_eligible,
    etiStartDate: row.eti_start_date,
    minimumWageExempt: row.minimum_wage_exempt,
    minimumHourlyWage: row.minimum_hourly_wage === null ? null : num(row.minimum_hourly_wage),
    clientId: row.client_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at === null ? null : row.deleted_at.toISOString(),
  };
}

export type Employee = ReturnType<typeof toEmployee>;

/** The tenant of the transaction (app.tenant_id), for callers that hold only the transaction. */
export const currentTenant: Expression<string> = sql<string>`bp_current_tenant()`;

/** A live employee of the company (FOR UPDATE with lock), or undefined. */
export function findEmployeeRow(
  tx: Tx,
  tenantId: string | Expression<string>,
  companyId: string,
  id: string,
  opts: { lock?: boolean; deleted?: boolean } = {},
): Promise<EmployeeRow | undefined> {
  let q = tx
    .selectFrom('employees')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  if (!opts.deleted) q = q.where('deleted_at', 'is', null);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Another live employee of the company with this number (any case, trimmed), if any. */
export async function numberTaken(
  tx: Tx,
  tenantId: string,
  companyId: string,
  employeeNumber: string,
  exceptId: string | undefined,
): Promise<boolean> {
  let q = tx
    .selectFrom('employees')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where(sql`lower(btrim(employee_number))`, '=', employeeNumber.trim().toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Another live employee of the company with this ID number, if any. */
export async function idNumberTaken(
  tx: Tx,
  tenantId: string,
  companyId: string,
  idNumber: string,
  exceptId: string | undefined,
): Promise<boolean> {
  let q = tx
    .selectFrom('employees')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('id_number', '=', idNumber);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * The next free number E0001, E0002, ...: one more than the highest E-number the company has
 * used (deleted employees included, so a number is not given twice).
 */
export async function nextEmployeeNumber(tx: Tx, tenantId: string, companyId: string): Promise<string> {
  const { top } = await tx
    .selectFrom('employees')
    .select(sql<string | null>`max(substring(employee_number from '^E([0-9]{1,9})$')::bigint)`.as('top'))
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return `E${String(Number(top ?? 0) + 1).padStart(4, '0')}`;
}
