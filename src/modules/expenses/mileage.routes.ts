import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { APPROVAL_RULES, approve, read, write } from './expenses.routes.ts';
import { ExpenseReimburse, ExpenseReject } from './expenses.schemas.ts';
import {
  MileageCreate,
  MileageListQuery,
  MileageRate,
  MileageRateUpdate,
  MileageTrip,
} from './mileage.schemas.ts';
import {
  approveTrip,
  createTrip,
  getMileageRate,
  getTrip,
  listTrips,
  putMileageRate,
  reimburseTrip,
  rejectTrip,
} from './mileage.service.ts';

const mileage = { ...read, tag: 'Mileage' } as const;
const mileageWrite = { ...write, tag: 'Mileage' } as const;
const mileageApprove = { ...approve, tag: 'Mileage' } as const;

export const mileageRoutes: AnyRoute[] = [
  defineRoute({
    ...mileage,
    method: 'GET',
    path: '/api/mileage/rate',
    operationId: 'getMileageRate',
    companyScoped: false,
    summary: "The rate per km trips are paid at: SARS's, or the tenant's lower one",
    description:
      "SARS's prescribed rate per km (the simplified method; Income Tax Act s8(1)(b)(ii), SARS PAYE-GEN-01-G03-A01) " +
      'by the date it took effect: 2023-03-01 R4.64, 2024-03-01 R4.84, 2025-03-01 R4.76. A later year whose rate ' +
      "is not in the table yet uses the last one, and each trip names the rate's effective date.",
    response: { 200: MileageRate },
    handler: async (_input, ctx) => getMileageRate(ctx),
  }),
  defineRoute({
    ...mileageWrite,
    companyScoped: false,
    permission: ['expenses', 'manage'] as [Resource, Action],
    method: 'PUT',
    path: '/api/mileage/rate',
    operationId: 'putMileageRate',
    summary: "Set the tenant's own rate per km (at most SARS's), or null for SARS's",
    description: "Needs expenses:manage. Above SARS's current rate: 400 naming ratePerKm.",
    body: MileageRateUpdate,
    response: { 200: MileageRate },
    handler: async ({ body }, ctx) => putMileageRate(ctx, body),
  }),
  defineRoute({
    ...mileageWrite,
    method: 'POST',
    path: '/api/mileage',
    operationId: 'createMileageTrip',
    errors: ['NOT_FOUND', 'CONFLICT'],
    summary: 'Submit a business trip in a private car',
    description:
      "Priced at the rate of its date (GET /api/mileage/rate): SARS's, or the tenant's when lower; amount = km × " +
      'ratePerKm, half-up to the cent; the trip states ratePerKm, rateEffectiveFrom and rateSource. No VAT (no ' +
      'tax invoice for the use of one’s own car). A date before the table (2023-03-01): 400 naming date. km up ' +
      'to one decimal. contactId: an EMPLOYEE contact. 201; 200 with the existing trip when clientId was already used.',
    body: MileageCreate,
    response: { 201: MileageTrip, 200: MileageTrip },
    handler: async ({ body }, ctx) => createTrip(ctx, body),
  }),
  defineRoute({
    ...mileage,
    method: 'GET',
    path: '/api/mileage',
    operationId: 'listMileageTrips',
    summary: 'Mileage trips, newest first, paged',
    description: 'Filters: status, contactId, from/to (the trip date).',
    query: MileageListQuery,
    response: { 200: Paged(MileageTrip) },
    handler: async ({ query }, ctx) => listTrips(ctx, query),
  }),
  defineRoute({
    ...mileage,
    method: 'GET',
    path: '/api/mileage/{id}',
    operationId: 'getMileageTrip',
    summary: 'One mileage trip',
    params: IdParams,
    response: { 200: MileageTrip },
    handler: async ({ params }, ctx) => getTrip(ctx, params.id),
  }),
  defineRoute({
    ...mileageApprove,
    method: 'POST',
    path: '/api/mileage/{id}/approve',
    operationId: 'approveMileageTrip',
    errors: [
      'OWN_CLAIM',
      'APPROVAL_LIMIT_EXCEEDED',
      'SECOND_APPROVER_REQUIRED',
      'NOT_AWAITING_APPROVAL',
      'PERIOD_LOCKED',
    ],
    summary: 'Approve a trip; the last approval needed posts it',
    description:
      `The claim rules, with the trip's amount. ${APPROVAL_RULES} Posted on the last approval, dated the trip's ` +
      'date: Dr Travel: local (mileage) 6660, Cr Employee reimbursements payable 2150 (the employee).',
    params: IdParams,
    response: { 200: MileageTrip },
    handler: async ({ params }, ctx) => approveTrip(ctx, params.id),
  }),
  defineRoute({
    ...mileageApprove,
    method: 'POST',
    path: '/api/mileage/{id}/reject',
    operationId: 'rejectMileageTrip',
    errors: ['NOT_AWAITING_APPROVAL'],
    summary: 'Reject a trip awaiting approval, with the reason',
    params: IdParams,
    body: ExpenseReject,
    response: { 200: MileageTrip },
    handler: async ({ params, body }, ctx) => rejectTrip(ctx, params.id, body.reason),
  }),
  defineRoute({
    ...mileageWrite,
    method: 'POST',
    path: '/api/mileage/{id}/reimburse',
    operationId: 'reimburseMileageTrip',
    errors: ['NOT_REIMBURSABLE', 'EXPENSE_REIMBURSED', 'PERIOD_LOCKED'],
    summary: 'Pay an approved trip out to the employee',
    description:
      'Posts Dr Employee reimbursements payable 2150, Cr the bank (bankAccountId, default Bank 1000).',
    params: IdParams,
    body: ExpenseReimburse,
    response: { 200: MileageTrip },
    handler: async ({ params, body }, ctx) => reimburseTrip(ctx, params.id, body),
  }),
];
