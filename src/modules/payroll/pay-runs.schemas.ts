// TypeBox schemas of pay periods, their inputs, payslips and the EMP201 figures: money as JSON
// numbers to the cent (stored NUMERIC), dates as YYYY-MM-DD.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { idParams, Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { PayFrequency } from './employees.schemas.ts';
import { PAYSLIP_LINE_KINDS, PERIOD_STATUSES } from './pay-runs.tables.ts';
import { PAYSLIP_WARNING_CODES } from './payslip-warnings.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });
const Amount = (description: string) => Type.Number({ description });
const Input = (description: string) =>
  Type.Optional(
    Type.Number({ minimum: 0, maximum: 999_999_999_999, description: `${description}; up to two decimals` }),
  );

export const PayrollPeriodStatus = named(
  'PayrollPeriodStatus',
  stringEnum(PERIOD_STATUSES, {
    description:
      'open → calculated (POST /calculate) → finalised (locked) → paid. Inputs and recalculation only ' +
      'while open or calculated.',
  }),
);

const WarningCode = stringEnum(PAYSLIP_WARNING_CODES, {
  description:
    'NO_TAX_NUMBER: the employee has no income tax number (the IRP5 and the EMP501 need it); ' +
    'ETI_BELOW_MINIMUM_WAGE: no ETI, the wage is below the minimum for its ordinary hours (ETI Act s4(1))',
});
const warningProps = {
  code: WarningCode,
  detail: Type.String({ description: 'What is wrong, with the figures, in words' }),
};
export const PayslipWarning = named('PayslipWarning', Type.Object(warningProps));
export const PeriodWarning = named(
  'PayrollPeriodWarning',
  Type.Object({
    employeeId: Uuid,
    employeeNumber: Type.String(),
    ...warningProps,
  }),
);

/** The rules calc/eti.ts names when an ETI-eligible employee's payslip claims none. */
export const ETI_REASONS = [
  'no_rules',
  'age',
  'not_started',
  'months_used',
  'remuneration_too_high',
  'below_minimum_wage',
] as const;

/** How the API writes a PAYE tax year (year of assessment): as payroll_tax_years.code, 2026/27. */
export const TAX_YEAR_PATTERN = '^[0-9]{4}/[0-9]{2}$';

const Totals = {
  employeeCount: Type.Integer({ description: 'Payslips in the period' }),
  gross: Amount('Cash earnings of all payslips'),
  paye: Amount('PAYE deducted (before the ETI)'),
  uifEmployee: Amount('UIF deducted from employees'),
  uifEmployer: Amount("UIF: the employer's contribution"),
  sdl: Amount('Skills development levy'),
  eti: Amount('Employment tax incentive claimed (may be negative on a weekly or fortnightly run)'),
  retirementEmployee: Amount('Retirement fund contributions deducted'),
  retirementEmployer: Amount("Retirement fund: the employer's contributions"),
  medicalEmployee: Amount('Medical scheme contributions deducted'),
  medicalEmployer: Amount("Medical scheme: the employer's contributions"),
  otherDeductions: Amount('Other deductions'),
  net: Amount('Net pay'),
};

export const PayrollPeriod = named(
  'PayrollPeriod',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    frequency: PayFrequency,
    periodStart: Day,
    periodEnd: Day,
    payDate: Day,
    status: PayrollPeriodStatus,
    ...Totals,
    warnings: Type.Array(PeriodWarning, {
      description: "The payslips' warnings, each with its employee; empty before calculating",
    }),
    sdlExempt: nullable(Type.Boolean(), {
      description:
        'Whether the employer was exempt from SDL for this run (SDL Act s4(b)): its leviable amount expected ' +
        'over twelve months (sdlLeviableExpected) at most R500 000; null before calculating',
    }),
    sdlLeviableExpected: nullable(Type.Number(), {
      description:
        "The employer's leviable amount expected over twelve months the exemption was judged on, across all its " +
        'pay runs: the greater of what the company paid in the twelve months to the period end (every run, this ' +
        'one in) and what its employees’ contracts pay in the twelve months after it; null before calculating',
    }),
    entryId: nullable(Uuid, { description: 'The finalising journal entry' }),
    paymentEntryId: nullable(Uuid, { description: 'The entry paying the net pay out of the bank' }),
    bankAccountId: nullable(Uuid),
    calculatedAt: nullable(Timestamp),
    finalisedAt: nullable(Timestamp),
    paidAt: nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

/** payroll.run.paid's data: the run, never a person (no employee, no one payslip's figure). */
export const PayrollRunPaid = named(
  'PayrollRunPaid',
  Type.Object({
    periodId: Uuid,
    frequency: PayFrequency,
    periodStart: Day,
    periodEnd: Day,
    payDate: Day,
    paidAt: Timestamp,
    employeeCount: Type.Integer({ description: 'How many employees the run paid' }),
    totals: Type.Object({
      gross: Amount('Gross pay of the run'),
      paye: Amount('PAYE withheld'),
      uif: Amount("UIF: the employees' and the employer's"),
      sdl: Amount('Skills development levy'),
      eti: Amount('Employment tax incentive claimed'),
      net: Amount('Net pay out of the bank'),
    }),
  }),
);

export const PayrollPeriodCreate = Type.Object(
  {
    clientId: clientIdProperty,
    frequency: PayFrequency,
    periodStart: Day,
    periodEnd: Type.String({ format: 'date', description: 'Not before periodStart' }),
    payDate: Day,
  },
  {
    additionalProperties: false,
    examples: [
      { frequency: 'monthly', periodStart: '2026-04-01', periodEnd: '2026-04-30', payDate: '2026-04-25' },
    ],
  },
);

export const PayrollPeriodListQuery = Type.Object(
  {
    ...pageQueryProperties,
    status: Type.Optional(PayrollPeriodStatus),
    frequency: Type.Optional(PayFrequency),
    from: Type.Optional(Type.String({ format: 'date', description: 'Periods ending on or after' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Periods starting on or before' })),
  },
  { additionalProperties: false },
);

export const PayslipInputBody = Type.Object(
  {
    ordinaryHours: Type.Optional(
      nullable(Type.Number({ minimum: 0, maximum: 9999, description: 'Hourly employees: hours worked' })),
    ),
    // numeric(10,2) in payroll_inputs: a schema maximum beyond the column was the database's
    // unnamed "A number is out of range" (issue 35); 9 999 as ordinaryHours.
    overtimeHours: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 9999,
        description: 'Overtime hours, paid at 1.5× the hourly rate; up to two decimals',
      }),
    ),
    commission: Input('Commission (IRP5 3606)'),
    bonus: Input('Bonus (an annual payment, IRP5 3605: PAYE by the difference method)'),
    travelAllowance: Input('Travel allowance (IRP5 3701: 80% taxable)'),
    otherAllowances: Input('Other taxable allowances (IRP5 3713)'),
    otherDeductions: Input('Other deductions from net pay'),
  },
  {
    additionalProperties: false,
    examples: [{ overtimeHours: 4, commission: 1500, travelAllowance: 2000 }],
  },
);

export const PayslipInput = named(
  'PayslipInput',
  Type.Object({
    periodId: Uuid,
    employeeId: Uuid,
    ordinaryHours: nullable(Type.Number()),
    overtimeHours: Type.Number(),
    commission: Type.Number(),
    bonus: Type.Number(),
    travelAllowance: Type.Number(),
    otherAllowances: Type.Number(),
    otherDeductions: Type.Number(),
    updatedAt: Timestamp,
  }),
);

export const PeriodPay = Type.Object(
  {
    bankAccountId: uuid({
      description: "A bank account of the company (its ledger account's id)",
    }),
  },
  { additionalProperties: false, examples: [{ bankAccountId: '00000000-0000-4000-8000-000000000000' }] },
);

export const PayslipLine = named(
  'PayslipLine',
  Type.Object({
    kind: stringEnum(PAYSLIP_LINE_KINDS, {
      description:
        'earning (cash), fringe_benefit (taxable, not cash), deduction, employer (contributions), eti (the ' +
        'employer’s incentive, IRP5 4118), tax_certificate (for the IRP5 only, neither paid nor deducted: the ' +
        'employer’s retirement and medical contributions deemed paid by the employee under 4001 and 4005, the ' +
        'medical scheme fees tax credit 4116). Summing a tax year’s lines by irp5Code gives the certificate’s figures',
    }),
    irp5Code: nullable(Type.String({ description: 'The IRP5 source code; null for none' })),
    description: Type.String(),
    quantity: nullable(Type.Number()),
    rate: nullable(Type.Number()),
    amount: Type.Number(),
  }),
);

const payslipProps = {
  id: Uuid,
  periodId: Uuid,
  employeeId: Uuid,
  employeeNumber: Type.String(),
  employeeName: Type.String(),
  periodStart: Day,
  periodEnd: Day,
  payDate: Day,
  status: PayrollPeriodStatus,
  taxYear: Type.String({
    pattern: TAX_YEAR_PATTERN,
    description:
      'The PAYE tax year (year of assessment, 1 March to the end of February) as SARS writes it: ' +
      "'2026/27' is 1 March 2026 to 28 February 2027, SARS's 2027 tax year",
    examples: ['2026/27'],
  }),
  periodFraction: Type.Number({ description: 'The share of the period employed' }),
  daysWorked: Type.Integer(),
  unpaidDays: Type.Number({ description: 'Approved unpaid leave in the period, working days' }),
  gross: Amount('Cash earnings'),
  taxable: Amount('Taxable remuneration (fringe benefits and 80% of a travel allowance in)'),
  paye: Amount('PAYE'),
  uifEmployee: Amount('UIF deducted'),
  uifEmployer: Amount("UIF: the employer's"),
  sdl: Amount('SDL'),
  eti: Amount(
    "ETI claimed; weekly and fortnightly: the month to date less the month's earlier payslips (may be negative)",
  ),
  retirementEmployee: Type.Number(),
  retirementEmployer: Type.Number(),
  medicalEmployee: Type.Number(),
  medicalEmployer: Type.Number(),
  otherDeductions: Type.Number(),
  net: Amount('Net pay'),
  etiReason: nullable(stringEnum(ETI_REASONS), {
    description:
      "Why an ETI-eligible employee's payslip claims no ETI: no_rules (the scheme is not in force), age " +
      '(not 18 to 29 at the month end), not_started, months_used (the 24 months), remuneration_too_high ' +
      '(R7 500 or more, grossed up below 160 hours), below_minimum_wage (ETI Act s4(1), see warnings); ' +
      'null when it claims, or the employee is not ETI-eligible',
  }),
  warnings: Type.Array(PayslipWarning, { description: 'What to see to before finalising; empty: nothing' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const PayslipSummary = named('PayslipSummary', Type.Object(payslipProps));
export const Payslip = named('Payslip', Type.Object({ ...payslipProps, lines: Type.Array(PayslipLine) }));

export const PayslipListQuery = Type.Object(
  {
    ...pageQueryProperties,
    periodId: Type.Optional(Uuid),
    employeeId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const Emp201 = named(
  'Emp201',
  Type.Object({
    month: Type.String({ description: 'YYYY-MM: the month of the periods (by their end date)' }),
    periodIds: Type.Array(Uuid, { description: 'The finalised or paid periods ending in the month' }),
    paye: Amount('PAYE deducted'),
    eti: Amount('ETI claimed against it'),
    payeLessEti: Amount('PAYE less the ETI: the credit to 2300 PAYE payable'),
    uif: Amount('UIF, the employees’ and the employer’s: the credit to 2310'),
    sdl: Amount('SDL: the credit to 2320'),
    etiBroughtForward: Amount(
      "ETI not used in the reconciliation period's earlier months (ETI Act s9(1)); nil in March and September",
    ),
    etiUtilised: Amount('The ETI that reduces the PAYE: brought forward + eti, at most the PAYE'),
    etiCarriedForward: Amount(
      "ETI left over, added to next month's; in August and February, what the reconciliation claims from SARS (s10(1))",
    ),
    payable: Amount('The amount payable to SARS: PAYE less the ETI utilised, UIF and SDL'),
    issues: Type.Array(PeriodWarning, {
      description:
        "The warnings of the month's payslips, once per employee and code: an employee without an income tax " +
        'number (the IRP5 and EMP501 need it), an ETI refused below the minimum wage',
    }),
  }),
);

export const InputParams = idParams('id', 'employeeId');
