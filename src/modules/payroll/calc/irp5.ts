// IRP5 / IT3(a) source codes a payslip line carries (SARS "Guide for employers in respect of
// employees' tax certificates" / PAYE-AE-06-G4 "Guide for codes applicable to employees' tax
// certificates"; the payroll research note lists them). Named constants, so a line says what it
// is and the EMP501 reconciliation can total by code.
export const IRP5 = {
  // income
  SALARY: '3601',
  ANNUAL_PAYMENT: '3605',
  COMMISSION: '3606',
  OVERTIME: '3607',
  TRAVEL_ALLOWANCE: '3701',
  MEDICAL_FRINGE_BENEFIT: '3810',
  // totals
  GROSS_NON_TAXABLE: '3696',
  GROSS_TAXABLE: '3699',
  // deductions and contributions
  RETIREMENT_FUND: '4001',
  MEDICAL_SCHEME_FEES: '4005',
  PAYE: '4102',
  PAYE_ON_LUMP_SUMS: '4115',
  MEDICAL_TAX_CREDIT: '4116',
  UIF: '4141',
  SDL: '4142',
  PAYE_SDL_UIF_TOTAL: '4149',
} as const;

export type Irp5Code = (typeof IRP5)[keyof typeof IRP5];
