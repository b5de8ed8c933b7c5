// Payslips (issue 21): paged (a growing list, the spec's), the current payslip of each employee
// of each calculated period; one with its lines and their IRP5 codes.
import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { IdParams, Payslip, PayslipListQuery, PayslipSummary } from './pay-runs.schemas.ts';
import { listPayslips, readPayslip } from './payslips.service.ts';

const read = {
  module: 'payroll',
  companyScoped: true,
  tag: 'Payslips',
  access: 'read' as const,
  permission: ['payroll', 'read'] as [Resource, Action],
} as const;

export const payslipsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payslips',
    operationId: 'listPayslips',
    summary: "The company's payslips (paged): latest period first, then by employee number",
    description: 'Filters: periodId, employeeId. limit defaults to 50, at most 200.',
    query: PayslipListQuery,
    response: { 200: Paged(PayslipSummary) },
    handler: async ({ query }, ctx) => listPayslips(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payslips/{id}',
    operationId: 'getPayslip',
    summary: 'One payslip with its lines (earnings, fringe benefits, deductions, employer, ETI)',
    params: IdParams,
    response: { 200: Payslip },
    handler: async ({ params }, ctx) => readPayslip(ctx, params.id),
  }),
];
