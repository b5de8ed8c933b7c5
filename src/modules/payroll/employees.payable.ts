// What pay runs read of an employee: the record with its amounts as exact decimal strings (for
// decimal.js, never a float), the ETI's start resolved, and the bank account still sealed (only
// a bank file opens it). Called with the request's tenant transaction only: the tenant is the
// transaction's own (bp_current_tenant(), the app.tenant_id the transaction was opened with).
import type { Tx } from '../../platform/db/tenant.ts';
import { notFound } from '../../platform/http/problem.ts';
import { currentTenant, type EmployeeRow, employeeFieldsOf, findEmployeeRow } from './employees.queries.ts';
import type { BankAccountType, PayBasis, PayFrequency } from './payroll.tables.ts';

export interface PayrollEmployee {
  id: string;
  companyId: string;
  contactId: string;
  employeeNumber: string;
  firstName: string;
  lastName: string;
  idNumber: string | null;
  passportNumber: string | null;
  passportCountry: string | null;
  /** YYYY-MM-DD: the age rebates go by the age at the end of the tax year */
  dateOfBirth: string;
  taxNumber: string | null;
  startDate: string;
  /** the last day employed; null while employed */
  endDate: string | null;
  terminationReason: string | null;
  payFrequency: PayFrequency;
  payBasis: PayBasis;
  /** rand a full period (salary) or an hour (hourly), "12345.00" */
  rate: string;
  hoursPerWeek: string;
  daysPerWeek: string;
  medicalScheme: boolean;
  /** members covered besides the employee */
  medicalDependants: number;
  /** a month */
  medicalEmployeeContribution: string;
  medicalEmployerContribution: string;
  /** a period */
  retirementEmployeeContribution: string;
  retirementEmployerContribution: string;
  uifApplies: boolean;
  sdlApplies: boolean;
  etiEligible: boolean;
  /** The NMW does not bind the wage (NMW Act s15 exemption, or outside it): ETI Act s4(1)(b). */
  minimumWageExempt: boolean;
  /** A wage-regulating measure's minimum an hour, "12.34"; null: none binds the employee. */
  minimumHourlyWage: string | null;
  /** the day the ETI's 24 months count from: etiStartDate, or the start date */
  etiFrom: string;
  /** null: no account given. `sealed` opens with openSecret(secretKeysOf(deps), sealed). */
  bankAccount: {
    bankName: string | null;
    branchCode: string | null;
    accountType: BankAccountType | null;
    accountHolder: string | null;
    sealed: string;
    last4: string;
  } | null;
}

function payrollEmployeeOf(row: EmployeeRow): PayrollEmployee {
  return {
    id: row.id,
    companyId: row.company_id,
    contactId: row.contact_id,
    ...employeeFieldsOf(row),
    etiFrom: row.eti_start_date ?? row.start_date,
    bankAccount:
      row.bank_account_sealed === null || row.bank_account_last4 === null
        ? null
        : {
            bankName: row.bank_name,
            branchCode: row.bank_branch_code,
            accountType: row.bank_account_type,
            accountHolder: row.bank_account_holder,
            sealed: row.bank_account_sealed,
            last4: row.bank_account_last4,
          },
  };
}

/** A live employee of the company; 404 (Employee not found) for none, a deleted one, or another company's. */
export async function getEmployee(tx: Tx, companyId: string, id: string): Promise<PayrollEmployee> {
  const row = await findEmployeeRow(tx, currentTenant, companyId, id);
  if (!row) throw notFound('Employee');
  return payrollEmployeeOf(row);
}

/**
 * The live employees of the company employed on at least one day of [from, to] (both
 * YYYY-MM-DD, inclusive): started on or before `to`, and not ended before `from`. By employee
 * number, then id.
 */
export async function listPayableEmployees(
  tx: Tx,
  companyId: string,
  from: string,
  to: string,
): Promise<PayrollEmployee[]> {
  const rows = await tx
    .selectFrom('employees')
    .selectAll()
    .where('tenant_id', '=', currentTenant)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('start_date', '<=', to)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', from)]))
    .orderBy('employee_number')
    .orderBy('id')
    .execute();
  return rows.map(payrollEmployeeOf);
}
