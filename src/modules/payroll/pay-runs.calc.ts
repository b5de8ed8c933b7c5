// One employee's payslip for one period, from the employee's record, the period's inputs and the
// statutory figures in effect (statutoryFor(periodEnd)); pure, exact (decimal.js), every amount
// rounded to the cent once. The method, per figure:
//   * basic: a salary × the share of the period employed (prorata.ts, calendar days: a starter
//     or leaver is paid for the days employed); hourly: the rate × the hours worked (the input,
//     or the contracted hours of the period × the share employed);
//   * overtime: hours × 1.5 × the hourly rate (BCEA s10(2)); a salaried employee's hourly rate is
//     the salary × periods a year ÷ 52 ÷ hours a week;
//   * commission, bonus (an annual payment: PAYE by the difference method), travel allowance
//     (80% of it is taxable: Fourth Schedule para 1 "remuneration" (cA)), other allowances;
//   * fringe benefits: the employer's retirement contribution (3817) and medical contribution
//     (3810, the monthly figure × 12 ÷ periods a year) are taxable remuneration, not cash;
//   * PAYE: paye.ts on the regular taxable remuneration (everything taxable but the bonus), the
//     bonus as the annual payment, the retirement contributions (employee's and employer's), age
//     at the end of the tax year, the medical credit, the share employed;
//   * UIF: on the cash remuneration less commission (Unemployment Insurance Contributions Act:
//     commission is not remuneration for UIF) and the fringe benefits, the taxable part of the
//     travel allowance in, to the ceiling;
//   * SDL: on all taxable remuneration (leviable amount), unless the employer is exempt;
//   * ETI: a monthly figure (the incentive is claimed a month), on the regular cash remuneration
//     (the bonus out), hours below 160 grossed up (eti.ts, ETI Act s7(5)). The hours are always
//     the ones paid: hourly, the hours worked; salaried, the contract's hours a week × 52 ÷ periods
//     × the share employed, less unpaid leave (a part-timer on a salary is not a full month); both
//     plus overtime. The wage (the basic) is held to the minimum for its ordinary hours (s4(1)):
//     the higher of the National Minimum Wage of the period's end and the employee's
//     wage-regulating measure, or for an employee exempt from the NMW the fixed R2 500 for 160
//     hours (s4(1)(b)); below it no ETI, the payslip saying why (a 100% penalty otherwise, s4(2)).
//     A monthly period is its month. A
//     weekly or fortnightly period belongs to the calendar month its end falls in (as the EMP201
//     groups them) and takes the month to date by the difference method: eti(the month's
//     remuneration, wage and hours so far, this payslip's included, at the month's last day) −
//     the ETI on the month's earlier payslips (`etiBefore`, summed by the caller). After the
//     month's last run its payslips sum to the month's ETI; an increment may be negative (a big
//     last week takes the month over R7 500): the EMP201 is monthly, so it stands;
//   * net: gross cash less PAYE, UIF (employee), the employee's retirement and medical
//     contributions and other deductions;
//   * warnings: what the payroll officer must see (payslip-warnings.ts): no income tax number, an
//     ETI refused below the minimum wage.
import type { Decimal } from 'decimal.js';
import { cents, money, ZERO } from '../../platform/money/money.ts';
import { type EtiResult, type EtiStop, eti } from './calc/eti.ts';
import { IRP5 } from './calc/irp5.ts';
import { PERIODS_PER_YEAR, paye } from './calc/paye.ts';
import { periodFraction } from './calc/prorata.ts';
import { sdl } from './calc/sdl.ts';
import { ageAtYearEnd } from './calc/tax.ts';
import { uif } from './calc/uif.ts';
import type { PayrollEmployee } from './employees.payable.ts';
import type { PayslipLineKind } from './pay-runs.tables.ts';
import type { PayFrequency } from './payroll.tables.ts';
import { etiWageWarning, type PayslipWarning, taxNumberWarning } from './payslip-warnings.ts';
import type { Statutory } from './statutory.ts';

/** IRP5 3713: other allowances (not in calc/irp5.ts's list yet). */
const OTHER_ALLOWANCES_CODE = '3713';

export interface PeriodInputs {
  ordinaryHours: Decimal | null;
  overtimeHours: Decimal;
  commission: Decimal;
  bonus: Decimal;
  travelAllowance: Decimal;
  otherAllowances: Decimal;
  otherDeductions: Decimal;
  /** Approved unpaid leave in the period, in working days (from leave_requests, not an input). */
  unpaidDays?: Decimal;
}

export const NO_INPUTS: PeriodInputs = {
  ordinaryHours: null,
  overtimeHours: ZERO,
  commission: ZERO,
  bonus: ZERO,
  travelAllowance: ZERO,
  otherAllowances: ZERO,
  otherDeductions: ZERO,
};

export interface CalcLine {
  kind: PayslipLineKind;
  irp5Code: string | null;
  description: string;
  quantity: Decimal | null;
  rate: Decimal | null;
  amount: Decimal;
}

export interface PayslipFigures {
  taxYear: string;
  unpaidDays: Decimal;
  fraction: Decimal;
  daysWorked: number;
  gross: Decimal;
  taxable: Decimal;
  paye: Decimal;
  uifEmployee: Decimal;
  uifEmployer: Decimal;
  sdl: Decimal;
  eti: Decimal;
  /** Why an ETI-eligible employee's payslip claims none; null when it claims, or not eligible. */
  etiReason: EtiStop | null;
  etiBasis: EtiBasis;
  warnings: PayslipWarning[];
  retirementEmployee: Decimal;
  retirementEmployer: Decimal;
  medicalEmployee: Decimal;
  medicalEmployer: Decimal;
  otherDeductions: Decimal;
  net: Decimal;
  lines: CalcLine[];
}

/** The ETI basis a payslip keeps (payslips.eti_*, migrations 0054 and 0070). */
export interface EtiBasis {
  remuneration: Decimal;
  wage: Decimal;
  /** Every hour employed and paid (overtime in): the 160 hours of s7(5). */
  hours: Decimal;
  /** The ordinary hours the wage pays: the minimum wage's hours (s4(1)). */
  ordinaryHours: Decimal;
}

/** The sums over the employee's earlier current payslips of the month (weekly and fortnightly). */
export interface EtiMonthToDate extends EtiBasis {
  eti: Decimal;
}

export const NO_ETI_BEFORE: EtiMonthToDate = {
  remuneration: ZERO,
  wage: ZERO,
  hours: ZERO,
  ordinaryHours: ZERO,
  eti: ZERO,
};

/** The last day of the calendar month `iso` falls in (the ETI's age test is at the month's end). */
export function monthEndOf(iso: string): string {
  const [y, m] = iso.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export interface PeriodOf {
  frequency: PayFrequency;
  start: string;
  end: string;
}

const DAY = 86_400_000;
const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;

/** Calendar days employed in the period. */
function daysEmployed(p: PeriodOf, e: PayrollEmployee): number {
  const from = Math.max(dayNo(p.start), dayNo(e.startDate));
  const to = Math.min(dayNo(p.end), e.endDate ? dayNo(e.endDate) : dayNo(p.end));
  return Math.max(0, to - from + 1);
}

export function calculatePayslip(
  p: PeriodOf,
  e: PayrollEmployee,
  inputs: PeriodInputs,
  st: Statutory,
  sdlIsExempt: boolean,
  /** Weekly and fortnightly: the month's earlier payslips (pay-runs.eti.ts); ignored for monthly. */
  etiBefore: EtiMonthToDate = NO_ETI_BEFORE,
): PayslipFigures {
  const periods = PERIODS_PER_YEAR[p.frequency];
  const fraction = periodFraction({ start: p.start, end: p.end }, e.startDate, e.endDate);
  const rate = money(e.rate);
  const hoursPerWeek = money(e.hoursPerWeek);
  const periodHours = hoursPerWeek.times(52).dividedBy(periods);
  const hourly = e.payBasis === 'hourly' ? rate : rate.times(periods).dividedBy(52).dividedBy(hoursPerWeek);
  const lines: CalcLine[] = [];
  const add = (l: CalcLine) => {
    if (!l.amount.isZero()) lines.push(l);
  };

  const hoursWorked =
    e.payBasis === 'hourly' ? (inputs.ordinaryHours ?? cents(periodHours.times(fraction))) : null;
  const fullBasic = hoursWorked ? cents(rate.times(hoursWorked)) : cents(rate.times(fraction));
  add({
    kind: 'earning',
    irp5Code: IRP5.SALARY,
    description: hoursWorked ? 'Wages' : fraction.lt(1) ? 'Basic salary (pro rata)' : 'Basic salary',
    quantity: hoursWorked ?? fraction,
    rate,
    amount: fullBasic,
  });
  // Unpaid leave (salaried only: an hourly employee is paid for the hours worked): a day's pay is
  // the salary × periods a year ÷ 52 ÷ days a week, at most the period's basic.
  const unpaidDays = hoursWorked ? ZERO : (inputs.unpaidDays ?? ZERO);
  const dayRate = rate.times(periods).dividedBy(52).dividedBy(money(e.daysPerWeek));
  const unpaidRaw = cents(dayRate.times(unpaidDays));
  const unpaid = unpaidRaw.gt(fullBasic) ? fullBasic : unpaidRaw;
  add({
    kind: 'earning',
    irp5Code: IRP5.SALARY,
    description: 'Unpaid leave',
    quantity: unpaidDays,
    rate: dayRate.toDecimalPlaces(4),
    amount: unpaid.negated(),
  });
  const basic = fullBasic.minus(unpaid);
  const overtimeRate = hourly.times('1.5');
  const overtime = cents(overtimeRate.times(inputs.overtimeHours));
  add({
    kind: 'earning',
    irp5Code: IRP5.OVERTIME,
    description: 'Overtime (1.5×)',
    quantity: inputs.overtimeHours,
    rate: overtimeRate.toDecimalPlaces(4),
    amount: overtime,
  });
  const cash = (kind: string, code: string, amount: Decimal) =>
    add({ kind: 'earning', irp5Code: code, description: kind, quantity: null, rate: null, amount });
  cash('Commission', IRP5.COMMISSION, inputs.commission);
  cash('Bonus', IRP5.ANNUAL_PAYMENT, inputs.bonus);
  cash('Travel allowance', IRP5.TRAVEL_ALLOWANCE, inputs.travelAllowance);
  cash('Other allowances', OTHER_ALLOWANCES_CODE, inputs.otherAllowances);

  const retirementEmployee = money(e.retirementEmployeeContribution);
  const retirementEmployer = money(e.retirementEmployerContribution);
  const monthlyToPeriod = (m: string) => cents(money(m).times(12).dividedBy(periods));
  const medicalEmployee = monthlyToPeriod(e.medicalEmployeeContribution);
  const medicalEmployer = monthlyToPeriod(e.medicalEmployerContribution);
  const fringe = (description: string, code: string, amount: Decimal) =>
    add({ kind: 'fringe_benefit', irp5Code: code, description, quantity: null, rate: null, amount });
  fringe('Retirement fund: employer contribution', IRP5.RETIREMENT_FRINGE_BENEFIT, retirementEmployer);
  fringe('Medical scheme: employer contribution', IRP5.MEDICAL_FRINGE_BENEFIT, medicalEmployer);

  const gross = basic
    .plus(overtime)
    .plus(inputs.commission)
    .plus(inputs.bonus)
    .plus(inputs.travelAllowance)
    .plus(inputs.otherAllowances);
  const taxableTravel = cents(inputs.travelAllowance.times('0.8'));
  const regularCash = basic.plus(overtime).plus(inputs.commission).plus(inputs.otherAllowances);
  const regular = regularCash.plus(taxableTravel).plus(retirementEmployer).plus(medicalEmployer);
  const taxable = regular.plus(inputs.bonus);

  const tax = paye(st.taxYear, {
    frequency: p.frequency,
    regular,
    annualPayments: inputs.bonus,
    retirementContributions: retirementEmployee.plus(retirementEmployer),
    age: ageAtYearEnd(st.taxYear, e.dateOfBirth),
    ...(e.medicalScheme ? { medical: { member: true, dependants: e.medicalDependants } } : {}),
    periodFraction: fraction,
  });
  const uifBase = basic.plus(overtime).plus(inputs.bonus).plus(inputs.otherAllowances).plus(taxableTravel);
  const u = uif(st.uif, { frequency: p.frequency, remuneration: uifBase, applies: e.uifApplies });
  const levy = sdl(st.sdl, { remuneration: taxable, exempt: sdlIsExempt, applies: e.sdlApplies });
  // The hours employed and paid (kept to 4 decimals, as the columns): an hourly employee's hours
  // worked, else the contract's hours of the period × the share employed less the unpaid leave
  // (a day is hours a week ÷ days a week); every hour paid adds the overtime.
  const hoursPerDay = hoursPerWeek.dividedBy(money(e.daysPerWeek));
  const salariedHours = periodHours.times(fraction).minus(unpaidDays.times(hoursPerDay));
  const ordinaryHours = (hoursWorked ?? (salariedHours.isNegative() ? ZERO : salariedHours)).toDecimalPlaces(
    4,
  );
  const etiBasis: EtiBasis = {
    remuneration: regularCash,
    wage: basic,
    hours: ordinaryHours.plus(inputs.overtimeHours),
    ordinaryHours,
  };
  // The wage test's hourly minimum (ETI Act s4(1)): the NMW unless the employee is exempt from it,
  // or a wage-regulating measure's when higher.
  const measure = e.minimumHourlyWage === null ? null : money(e.minimumHourlyWage);
  const nmw = e.minimumWageExempt ? null : st.minimumWage.hourly;
  const hourlyMinimum = nmw && measure ? (measure.gt(nmw) ? measure : nmw) : (nmw ?? measure);
  const wageRule = {
    ...(hourlyMinimum ? { hourlyMinimum } : {}),
    exemptFromMinimumWage: e.minimumWageExempt,
    dateOfBirth: e.dateOfBirth,
    etiStartDate: e.etiFrom,
  };
  let claim: EtiResult | null = null;
  let incentive = ZERO;
  if (e.etiEligible && p.frequency === 'monthly') {
    // The hours always passed: a salaried part-timer's month is the contract's hours (s7(5)).
    claim = eti(st.eti, { ...wageRule, ...etiBasis, monthEnd: p.end });
    incentive = claim.amount;
  } else if (e.etiEligible) {
    // Hours always passed: a week of 40 is a quarter of a month, four of them (160) a full one.
    claim = eti(st.eti, {
      ...wageRule,
      remuneration: etiBefore.remuneration.plus(etiBasis.remuneration),
      wage: etiBefore.wage.plus(etiBasis.wage),
      hours: etiBefore.hours.plus(etiBasis.hours),
      ordinaryHours: etiBefore.ordinaryHours.plus(etiBasis.ordinaryHours),
      monthEnd: monthEndOf(p.end),
    });
    incentive = claim.amount.minus(etiBefore.eti);
  }
  const warnings: PayslipWarning[] = [];
  if (!e.taxNumber) warnings.push(taxNumberWarning());
  if (claim?.reason === 'below_minimum_wage' && claim.wageTest)
    warnings.push(
      etiWageWarning({
        ...claim.wageTest,
        ordinaryHours:
          p.frequency === 'monthly' ? ordinaryHours : etiBefore.ordinaryHours.plus(ordinaryHours),
        hourlyMinimum: hourlyMinimum ?? null,
        minimumWage: st.minimumWage,
        measure,
        exempt: e.minimumWageExempt,
      }),
    );

  const deduction = (description: string, code: string | null, amount: Decimal) =>
    add({ kind: 'deduction', irp5Code: code, description, quantity: null, rate: null, amount });
  deduction('PAYE', IRP5.PAYE, tax.paye);
  deduction('UIF', IRP5.UIF, u.employee);
  deduction('Retirement fund', IRP5.RETIREMENT_FUND, retirementEmployee);
  deduction('Medical scheme', IRP5.MEDICAL_SCHEME_FEES, medicalEmployee);
  deduction('Other deductions', null, inputs.otherDeductions);
  const employer = (description: string, code: string, amount: Decimal) =>
    add({ kind: 'employer', irp5Code: code, description, quantity: null, rate: null, amount });
  employer('UIF: employer', IRP5.UIF, u.employer);
  employer('SDL', IRP5.SDL, levy);
  employer('Retirement fund: employer', IRP5.EMPLOYER_PENSION_CONTRIBUTION, retirementEmployer);
  employer('Medical scheme: employer', IRP5.EMPLOYER_MEDICAL_CONTRIBUTION, medicalEmployer);
  // For the tax certificate only (PAYE-AE-06-G4): the employer's contributions are "deemed paid"
  // by the employee, so 4001 and 4005 total the deduction line and these; 4116 is the medical
  // credit the PAYE took into account (at most the tax it reduced), to the cent.
  const certificate = (description: string, code: string, amount: Decimal) =>
    add({ kind: 'tax_certificate', irp5Code: code, description, quantity: null, rate: null, amount });
  certificate(
    'Retirement fund: the employer’s contribution, deemed paid by the employee',
    IRP5.RETIREMENT_FUND,
    retirementEmployer,
  );
  certificate(
    'Medical scheme: the employer’s contribution, deemed paid by the employee',
    IRP5.MEDICAL_SCHEME_FEES,
    medicalEmployer,
  );
  certificate('Medical scheme fees tax credit', IRP5.MEDICAL_TAX_CREDIT, cents(tax.medicalCredit));
  add({
    kind: 'eti',
    irp5Code: IRP5.ETI,
    description: 'Employment tax incentive',
    quantity: null,
    rate: null,
    amount: incentive,
  });

  const net = gross
    .minus(tax.paye)
    .minus(u.employee)
    .minus(retirementEmployee)
    .minus(medicalEmployee)
    .minus(inputs.otherDeductions);
  return {
    taxYear: st.taxYear.code,
    unpaidDays,
    fraction,
    daysWorked: daysEmployed(p, e),
    gross,
    taxable,
    paye: tax.paye,
    uifEmployee: u.employee,
    uifEmployer: u.employer,
    sdl: levy,
    eti: incentive,
    etiReason: claim?.reason ?? null,
    etiBasis,
    warnings,
    retirementEmployee,
    retirementEmployer,
    medicalEmployee,
    medicalEmployer,
    otherDeductions: inputs.otherDeductions,
    net,
    lines,
  };
}
