// Leave requests and balances (issue 21): requests with their approval, adjustments, and an
// employee's balances as of a date (Basic Conditions of Employment Act ss 20–27).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  createLeaveAdjustment,
  getLeaveAdjustment,
  leaveBalances,
  listLeaveAdjustments,
} from './leave.adjustments.ts';
import {
  LeaveAdjustment,
  LeaveAdjustmentCreate,
  LeaveAdjustmentListQuery,
  LeaveBalances,
  LeaveBalancesQuery,
  LeaveRequest,
  LeaveRequestCreate,
  LeaveRequestListQuery,
} from './leave.schemas.ts';
import {
  approveLeaveRequest,
  cancelLeaveRequest,
  createLeaveRequest,
  getLeaveRequest,
  listLeaveRequests,
  rejectLeaveRequest,
} from './leave.service.ts';

const { read, write, approve } = routeGroup({ module: 'payroll', tag: 'Leave', companyScoped: true });

const DAYS =
  'Days are working days: Monday to Friday for up to five days a week, Monday to Saturday for up to six, ' +
  'every day above six; South African public holidays (a Sunday one moves to the Monday) are never counted.';

export const leaveRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/leave-requests',
    operationId: 'createLeaveRequest',
    errors: ['CONFLICT', 'LEAVE_OVERLAP', 'LEAVE_BALANCE_EXCEEDED'],
    summary: 'Ask for leave: pending until approved',
    description:
      `${DAYS} halfDay (one day only) takes 0.5. An employee of no company of the caller's, dates outside the ` +
      'employment, endDate before startDate, or no working day between the dates: 400 naming the field. A pending ' +
      'or approved request of the employee on any of the days: 409 LEAVE_OVERLAP. annual, sick and ' +
      'family_responsibility beyond the balance as of startDate, less the days already pending: 409 ' +
      'LEAVE_BALANCE_EXCEEDED naming the days available. 201; 200 with the request when clientId was already used.',
    body: LeaveRequestCreate,
    response: { 201: LeaveRequest, 200: LeaveRequest },
    handler: async ({ body }, ctx) => createLeaveRequest(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/leave-requests',
    operationId: 'listLeaveRequests',
    summary: 'Leave requests, latest leave first, paged',
    description:
      'Filters (before paging): employeeId, status, type, from (leave ending on or after), to (starting on or ' +
      'before). sort: date (the first day of leave), createdAt or updatedAt, `-` for descending; default -date; ' +
      'ties by id. updatedSince: requests changed at or after the instant (a decision or cancellation included).',
    query: LeaveRequestListQuery,
    response: { 200: Paged(LeaveRequest) },
    handler: async ({ query }, ctx) => listLeaveRequests(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/leave-requests/{id}',
    operationId: 'getLeaveRequest',
    summary: 'One leave request',
    params: IdParams,
    response: { 200: LeaveRequest },
    handler: async ({ params }, ctx) => getLeaveRequest(ctx, params.id),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/leave-requests/{id}/approve',
    operationId: 'approveLeaveRequest',
    errors: ['CONFLICT', 'LEAVE_BALANCE_EXCEEDED'],
    summary: 'Approve a pending request (payroll:approve)',
    description:
      'Only a pending request (409 otherwise). The balance is checked again, without the pending days: 409 ' +
      'LEAVE_BALANCE_EXCEEDED when requests approved since have used it.',
    params: IdParams,
    response: { 200: LeaveRequest },
    handler: async ({ params }, ctx) => approveLeaveRequest(ctx, params.id),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/leave-requests/{id}/reject',
    operationId: 'rejectLeaveRequest',
    errors: ['CONFLICT'],
    summary: 'Reject a pending request (payroll:approve)',
    description: 'Only a pending request (409 otherwise).',
    params: IdParams,
    response: { 200: LeaveRequest },
    handler: async ({ params }, ctx) => rejectLeaveRequest(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/leave-requests/{id}/cancel',
    operationId: 'cancelLeaveRequest',
    errors: ['CONFLICT'],
    summary: 'Cancel a request: pending, or approved and not yet started',
    description:
      'Approved leave whose first day is today or past: 409 (the days were taken; an adjustment corrects a ' +
      'balance). Rejected or cancelled: 409. Its days return to the balance.',
    params: IdParams,
    response: { 200: LeaveRequest },
    handler: async ({ params }, ctx) => cancelLeaveRequest(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/employees/{id}/leave-balances',
    operationId: 'getEmployeeLeaveBalances',
    summary: "An employee's leave balances as of a date, each type",
    description:
      'annual: days_per_week × 3 (15 on five days) a 12-month cycle from the start date, accrued pro rata by ' +
      'calendar days employed in the cycle, rounded down to 2 decimals. sick: days_per_week × 6 (30) a ' +
      '36-month cycle; in the first six months one day per 26 working days since the start. ' +
      'family_responsibility: 3 a year of employment from four months after the start, for four or more days ' +
      'a week. parental and unpaid: days taken only (entitled and available null). available = entitled − ' +
      'taken (approved requests starting in the cycle, future ones included) + adjusted (effective in the ' +
      `cycle up to asOf); pending days are shown apart. ${DAYS} asOf before the start date: 400.`,
    params: IdParams,
    query: LeaveBalancesQuery,
    response: { 200: LeaveBalances },
    handler: async ({ params, query }, ctx) => leaveBalances(ctx, params.id, query.asOf),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/leave-adjustments',
    operationId: 'createLeaveAdjustment',
    summary: "Adjust an employee's leave balance (an opening balance, a correction)",
    description:
      'days are added to (negative: taken from) the balance of the type in the cycle holding effectiveOn, from ' +
      'that day on. An adjustment is never changed: another of the opposite sign undoes it. An employee of no ' +
      'company of the caller’s, or effectiveOn outside the employment: 400 naming the field.',
    body: LeaveAdjustmentCreate,
    response: { 201: LeaveAdjustment },
    handler: async ({ body }, ctx) => createLeaveAdjustment(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/leave-adjustments',
    operationId: 'listLeaveAdjustments',
    summary: 'Leave adjustments, latest effective first, paged',
    description: 'Filter: employeeId.',
    query: LeaveAdjustmentListQuery,
    response: { 200: Paged(LeaveAdjustment) },
    handler: async ({ query }, ctx) => listLeaveAdjustments(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/leave-adjustments/{id}',
    operationId: 'getLeaveAdjustment',
    summary: 'One leave adjustment',
    params: IdParams,
    response: { 200: LeaveAdjustment },
    handler: async ({ params }, ctx) => getLeaveAdjustment(ctx, params.id),
  }),
];
