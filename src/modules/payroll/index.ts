// The payroll module's public surface (issue 21): employees, leave, and (next) pay periods and
// payslips with PAYE, UIF, SDL and ETI from the statutory tables. Company-scoped: every route
// takes X-Company-Id, and an employee is employed by one company.

export { getEmployee, listPayableEmployees, type PayrollEmployee } from './employees.payable.ts';
export { unpaidLeaveDays } from './leave.unpaid.ts';
export { payrollEvents } from './payroll.events.ts';
export { taxNumberProblem } from './tax-number.ts';
export { checkZaIdNumber } from './za-id-number.ts';
