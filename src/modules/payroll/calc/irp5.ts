// IRP5 / IT3(a) source codes a payslip line carries (SARS PAYE-AE-06-G4 "Guide for codes
// applicable to employees' tax certificates" and the PAYE Business Requirements Specification,
// section 6 "Source code descriptions", as quoted by PAGSA for BRS v23.0.0: 4001 "total pension
// fund contributions paid and 'deemed paid' by employee" (the deemed part being the 3817 fringe
// benefit), 4005 "medical scheme fees paid and 'deemed paid' by employee" (the 3810 benefit),
// 4116 "medical scheme fees tax credit considered by employer for PAYE purposes", 4472 / 4474
// the employer's pension / medical contributions, 4118 "the sum of the ETI amounts calculated ...
// in accordance with section 7 of the ETI Act"). Named constants, so a line says what it is and the
// EMP501 reconciliation totals by code: 4001 and 4005 are summed over the employee's deduction
// line and the tax_certificate line of the employer's share ("deemed paid"), so the sum is the
// total paid and deemed paid, as the guide asks.
export const IRP5 = {
  // income
  SALARY: '3601',
  ANNUAL_PAYMENT: '3605',
  COMMISSION: '3606',
  OVERTIME: '3607',
  TRAVEL_ALLOWANCE: '3701',
  MEDICAL_FRINGE_BENEFIT: '3810',
  RETIREMENT_FRINGE_BENEFIT: '3817',
  // totals
  GROSS_NON_TAXABLE: '3696',
  GROSS_TAXABLE: '3699',
  // deductions and contributions
  RETIREMENT_FUND: '4001',
  MEDICAL_SCHEME_FEES: '4005',
  PAYE: '4102',
  PAYE_ON_LUMP_SUMS: '4115',
  MEDICAL_TAX_CREDIT: '4116',
  ETI: '4118',
  UIF: '4141',
  SDL: '4142',
  PAYE_SDL_UIF_TOTAL: '4149',
  EMPLOYER_PENSION_CONTRIBUTION: '4472',
  EMPLOYER_MEDICAL_CONTRIBUTION: '4474',
} as const;

export type Irp5Code = (typeof IRP5)[keyof typeof IRP5];
