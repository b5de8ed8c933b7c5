// Pay periods (issue 21): open → calculated → finalised (locked) → paid, and the EMP201 figures.
// The list is paged: a weekly payroll adds 52 periods a year, and nothing is ever removed.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { emp201 } from './pay-runs.emp201.ts';
import { finalisePeriod, payPeriod } from './pay-runs.ledger.ts';
import {
  Emp201,
  InputParams,
  PayrollPeriod,
  PayrollPeriodCreate,
  PayrollPeriodListQuery,
  PayslipInput,
  PayslipInputBody,
  PeriodPay,
} from './pay-runs.schemas.ts';
import { calculatePeriod, createPeriod, listPeriods, putInputs, readPeriod } from './pay-runs.service.ts';

const { read, write } = routeGroup({ module: 'payroll', tag: 'Payroll periods', companyScoped: true });

export const payRunsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payroll-periods',
    operationId: 'listPayrollPeriods',
    summary: "The company's pay periods (paged), latest first",
    description:
      'Filters: status, frequency, from (periods ending on or after), to (periods starting on or before). ' +
      'limit defaults to 50, at most 200.',
    query: PayrollPeriodListQuery,
    response: { 200: Paged(PayrollPeriod) },
    handler: async ({ query }, ctx) => listPeriods(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/payroll-periods',
    operationId: 'createPayrollPeriod',
    errors: ['CONFLICT'],
    summary: 'Open a pay period (201), or answer the one a clientId already made (200)',
    description:
      'periodEnd and payDate are not before periodStart (400 naming the field). A period overlapping another ' +
      'of the same frequency is a 409 naming periodStart.',
    body: PayrollPeriodCreate,
    response: createdOrExisting(PayrollPeriod),
    handler: async ({ body }, ctx) => createPeriod(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payroll-periods/{id}',
    operationId: 'getPayrollPeriod',
    summary: 'One pay period with its totals',
    params: IdParams,
    response: { 200: PayrollPeriod },
    handler: async ({ params }, ctx) => readPeriod(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/payroll-periods/{id}/inputs/{employeeId}',
    operationId: 'putPayslipInputs',
    errors: ['PERIOD_FINALISED'],
    summary: "Set an employee's inputs for the period (replaced whole; left out is 0)",
    description:
      'Overtime hours (1.5× the hourly rate), commission, bonus, travel and other allowances, other ' +
      'deductions; ordinaryHours for an hourly employee. Only while the period is open or calculated ' +
      '(409 PERIOD_FINALISED after); calculate again to see them on the payslip.',
    params: InputParams,
    body: PayslipInputBody,
    response: { 200: PayslipInput },
    handler: async ({ params, body }, ctx) => putInputs(ctx, params.id, params.employeeId, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/payroll-periods/{id}/calculate',
    operationId: 'calculatePayrollPeriod',
    errors: ['PERIOD_FINALISED', 'PAYROLL_TABLES_MISSING'],
    summary: 'Calculate the payslips: one per employee of the frequency employed in the period',
    description:
      'Open or calculated → calculated. Starters and leavers are paid pro rata (calendar days); PAYE, UIF, SDL ' +
      "and ETI use the statutory tables in effect on the period's end (422 PAYROLL_TABLES_MISSING naming what " +
      'is missing). Calculating again replaces the payslips. A finalised or paid period: 409 PERIOD_FINALISED. ' +
      "The period's warnings list what to see to first (an employee without an income tax number, an ETI " +
      'refused below the minimum wage), each with its employee.',
    params: IdParams,
    response: { 200: PayrollPeriod },
    handler: async ({ params }, ctx) => calculatePeriod(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/payroll-periods/{id}/finalise',
    operationId: 'finalisePayrollPeriod',
    errors: ['PERIOD_FINALISED', 'CONFLICT', 'PERIOD_LOCKED'],
    summary: 'Finalise (lock) a calculated period and post its journal entry',
    description:
      'Calculated → finalised: its payslips never change again (a correction goes in the next period). Posts ' +
      'one balanced entry dated the period end: Dr salaries (gross and the employer’s retirement and medical ' +
      'contributions), UIF employer, SDL; Cr PAYE payable (less the ETI), employment tax incentive, UIF ' +
      'payable, SDL payable, retirement fund and medical aid payable, payroll deductions payable and salaries ' +
      'payable (net). An open period: 409 CONFLICT; finalised or paid: 409 PERIOD_FINALISED.',
    params: IdParams,
    response: { 200: PayrollPeriod },
    handler: async ({ params }, ctx) => finalisePeriod(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/payroll-periods/{id}/pay',
    operationId: 'payPayrollPeriod',
    errors: ['CONFLICT', 'PERIOD_LOCKED'],
    summary: 'Mark a finalised period paid: the net pay out of the bank, and payroll.run.paid',
    description:
      'Finalised → paid: posts Dr salaries payable / Cr the bank account (bankAccountId: a bank account of ' +
      'the company, else 400 naming it), dated the pay date, and emits payroll.run.paid once (the run’s ' +
      'dates, employee count and totals, never an employee’s pay). Paid already, or not finalised: 409.',
    params: IdParams,
    body: PeriodPay,
    response: { 200: PayrollPeriod },
    handler: async ({ params, body }, ctx) => payPeriod(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payroll-periods/{id}/emp201',
    operationId: 'getPayrollPeriodEmp201',
    summary: 'The EMP201 figures of the month the period ends in',
    description:
      'Every finalised or paid period of the company ending in that month: PAYE, the ETI claimed, PAYE less ' +
      'ETI, UIF (employees’ and employer’s), SDL and the amount payable; payeLessEti, uif and sdl are the ' +
      'credits the periods’ entries made to 2300, 2310 and 2320. An ETI larger than the PAYE rolls over to the ' +
      'next month (ETI Act s9(1)) within the reconciliation period (March to August, September to February): ' +
      'etiBroughtForward + eti is available, etiUtilised (at most the PAYE) reduces the payable, the rest is ' +
      'etiCarriedForward, which in August and February is what the reconciliation claims from SARS (s10(1)). ' +
      "issues: the month's payslip warnings, once per employee and code.",
    params: IdParams,
    response: { 200: Emp201 },
    handler: async ({ params }, ctx) => emp201(ctx, params.id),
  }),
];
