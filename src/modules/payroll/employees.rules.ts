// The rules an employee's record keeps, checked on the whole record as it will be after a create
// or a change (so a change is held to the same rules as a create): each broken rule is a 400
// naming its field. Pure but for `today` and the keys that seal a bank account number.
import { Decimal } from 'decimal.js';
import type { Insertable } from 'kysely';
import type { Static } from 'typebox';
import { badRequest } from '../../platform/http/problem.ts';
import { type SecretKeys, sealSecret } from '../../platform/secrets/index.ts';
import type { EmployeeCreate } from './employees.schemas.ts';
import type { EmployeesTable, PayBasis, PayFrequency } from './payroll.tables.ts';
import { taxNumberProblem } from './tax-number.ts';
import { checkZaIdNumber } from './za-id-number.ts';

type Decimalish = string | number;

/** The record as it will be: every field known (dateOfBirth undefined: derive it from idNumber). */
export interface EmployeeState {
  employeeNumber: string;
  firstName: string;
  lastName: string;
  idNumber: string | null;
  passportNumber: string | null;
  passportCountry: string | null;
  dateOfBirth: string | undefined;
  taxNumber: string | null;
  jobTitle: string | null;
  startDate: string;
  endDate: string | null;
  terminationReason: string | null;
  payFrequency: PayFrequency;
  payBasis: PayBasis;
  rate: Decimalish;
  hoursPerWeek: Decimalish;
  daysPerWeek: Decimalish;
  medicalScheme: boolean;
  medicalDependants: number;
  medicalEmployeeContribution: Decimalish;
  medicalEmployerContribution: Decimalish;
  retirementEmployeeContribution: Decimalish;
  retirementEmployerContribution: Decimalish;
  uifApplies: boolean;
  sdlApplies: boolean;
  etiEligible: boolean;
  etiStartDate: string | null;
  minimumWageExempt: boolean;
  minimumHourlyWage: Decimalish | null;
}

export type EmployeeColumns = Omit<
  Insertable<EmployeesTable>,
  | 'tenant_id'
  | 'id'
  | 'company_id'
  | 'contact_id'
  | 'client_id'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
  | 'bank_name'
  | 'bank_branch_code'
  | 'bank_account_type'
  | 'bank_account_holder'
  | 'bank_account_sealed'
  | 'bank_account_last4'
>;

function text(field: string, value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(field, 'must not be blank');
  return trimmed;
}

/** Trimmed; blank is none (null). */
function optionalText(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** An exact decimal with at most `places` decimals, as the NUMERIC column takes it. */
export function decimalOf(field: string, value: Decimalish, places = 2): string {
  const d = new Decimal(value);
  if (d.decimalPlaces() > places) {
    throw badRequest(field, places === 1 ? 'has more than one decimal' : `has more than ${places} decimals`);
  }
  return d.toFixed(places);
}

/** Identity: an ID number (checked, and the date of birth from it), or a passport with its country. */
function identity(s: EmployeeState, today: string) {
  const idNumber = optionalText(s.idNumber);
  const passportNumber = optionalText(s.passportNumber);
  const passportCountry = s.passportCountry ?? null;
  let dateOfBirth = s.dateOfBirth;
  if (idNumber !== null) {
    const check = checkZaIdNumber(idNumber, today);
    if (!check.ok) throw badRequest('idNumber', check.reason);
    // A date of birth given settles the century the number leaves open (1925 or 2025 for 25...),
    // so a record made today still passes when a later change re-checks it in another year.
    const otherCentury =
      dateOfBirth !== undefined &&
      dateOfBirth.slice(2) === check.dateOfBirth.slice(2) &&
      ['19', '20'].includes(dateOfBirth.slice(0, 2));
    if (dateOfBirth !== undefined && dateOfBirth !== check.dateOfBirth && !otherCentury) {
      throw badRequest(
        'dateOfBirth',
        `does not agree with the ID number, which gives ${check.dateOfBirth}: leave it out or correct one of them`,
      );
    }
    dateOfBirth = dateOfBirth ?? check.dateOfBirth;
  }
  if (passportNumber !== null && passportCountry === null)
    throw badRequest('passportCountry', 'is needed with passportNumber (the issuing country, e.g. ZW)');
  if (passportCountry !== null && passportNumber === null)
    throw badRequest('passportNumber', 'is needed with passportCountry');
  if (idNumber === null && passportNumber === null)
    throw badRequest('idNumber', 'give a South African ID number, or passportNumber with passportCountry');
  if (dateOfBirth === undefined)
    throw badRequest('dateOfBirth', 'is needed without an ID number (it drives the age rebates)');
  if (dateOfBirth > today) throw badRequest('dateOfBirth', 'is in the future');
  return {
    id_number: idNumber,
    passport_number: passportNumber,
    passport_country: passportCountry,
    date_of_birth: dateOfBirth,
  };
}

function medical(s: EmployeeState) {
  const employee = decimalOf('medicalEmployeeContribution', s.medicalEmployeeContribution);
  const employer = decimalOf('medicalEmployerContribution', s.medicalEmployerContribution);
  if (!s.medicalScheme) {
    // A credit or a contribution without a scheme is a mistake waiting for a payslip.
    if (s.medicalDependants !== 0) throw badRequest('medicalDependants', 'needs medicalScheme true');
    if (!new Decimal(employee).isZero())
      throw badRequest('medicalEmployeeContribution', 'needs medicalScheme true');
    if (!new Decimal(employer).isZero())
      throw badRequest('medicalEmployerContribution', 'needs medicalScheme true');
  }
  return {
    medical_scheme: s.medicalScheme,
    medical_dependants: s.medicalDependants,
    medical_employee_contribution: employee,
    medical_employer_contribution: employer,
  };
}

/** Every column but the links, the bank account and the bookkeeping ones, or a 400 naming the field. */
export function employeeColumns(s: EmployeeState, today: string): EmployeeColumns {
  const taxNumber = optionalText(s.taxNumber);
  if (taxNumber !== null) {
    const problem = taxNumberProblem(taxNumber);
    if (problem) throw badRequest('taxNumber', problem);
  }
  const ids = identity(s, today);
  if (ids.date_of_birth >= s.startDate) throw badRequest('startDate', 'must be after dateOfBirth');
  if (s.endDate !== null && s.endDate < s.startDate)
    throw badRequest('endDate', 'must not be before startDate');
  if (s.etiStartDate !== null && s.etiStartDate < s.startDate)
    throw badRequest('etiStartDate', 'must not be before startDate');
  return {
    employee_number: text('employeeNumber', s.employeeNumber),
    first_name: text('firstName', s.firstName),
    last_name: text('lastName', s.lastName),
    ...ids,
    tax_number: taxNumber,
    job_title: optionalText(s.jobTitle),
    start_date: s.startDate,
    end_date: s.endDate,
    termination_reason: s.endDate === null ? null : optionalText(s.terminationReason),
    pay_frequency: s.payFrequency,
    pay_basis: s.payBasis,
    rate: decimalOf('rate', s.rate),
    hours_per_week: decimalOf('hoursPerWeek', s.hoursPerWeek),
    days_per_week: decimalOf('daysPerWeek', s.daysPerWeek, 1),
    ...medical(s),
    retirement_employee_contribution: decimalOf(
      'retirementEmployeeContribution',
      s.retirementEmployeeContribution,
    ),
    retirement_employer_contribution: decimalOf(
      'retirementEmployerContribution',
      s.retirementEmployerContribution,
    ),
    uif_applies: s.uifApplies,
    sdl_applies: s.sdlApplies,
    eti_eligible: s.etiEligible,
    eti_start_date: s.etiStartDate,
    minimum_wage_exempt: s.minimumWageExempt,
    minimum_hourly_wage:
      s.minimumHourlyWage === null ? null : decimalOf('minimumHourlyWage', s.minimumHourlyWage),
  };
}

type BankInput = NonNullable<Static<typeof EmployeeCreate>['bankAccount']>;

/**
 * The bank columns for an account given (the number sealed, only its last four in clear), or
 * all null for none. `keys` is asked only when there is a number to seal: without SECRETS_KEY
 * it answers 503 naming it, and removing an account still works.
 */
export function bankColumns(input: BankInput | null, keys: () => SecretKeys) {
  if (input === null) {
    return {
      bank_name: null,
      bank_branch_code: null,
      bank_account_type: null,
      bank_account_holder: null,
      bank_account_sealed: null,
      bank_account_last4: null,
    };
  }
  const bankName = text('bankAccount.bankName', input.bankName ?? '');
  const accountHolder = text('bankAccount.accountHolder', input.accountHolder ?? '');
  const branchCode = input.branchCode ?? '';
  if (!/^[0-9]{6}$/.test(branchCode)) throw badRequest('bankAccount.branchCode', 'must be six digits');
  const accountNumber = input.accountNumber ?? '';
  if (!/^[0-9]{5,16}$/.test(accountNumber))
    throw badRequest('bankAccount.accountNumber', 'must be 5 to 16 digits, nothing else');
  const sealed = sealSecret(keys(), accountNumber);
  return {
    bank_name: bankName,
    bank_branch_code: branchCode,
    bank_account_type: input.accountType ?? 'cheque',
    bank_account_holder: accountHolder,
    bank_account_sealed: sealed,
    bank_account_last4: accountNumber.slice(-4),
  };
}
