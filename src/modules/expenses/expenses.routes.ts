import { Type } from 'typebox';
import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  getApprovalLimits,
  getApprovalPolicy,
  putApprovalLimits,
  putApprovalPolicy,
} from './expenses.policy.ts';
import { approveExpense, deleteExpense, reimburseExpense } from './expenses.posting.ts';
import { getReceipt, putReceipt, RECEIPT_LIMIT, RECEIPT_TYPES } from './expenses.receipts.ts';
import {
  ApprovalLimits,
  ApprovalLimitsUpdate,
  ApprovalPolicy,
  ApprovalPolicyUpdate,
  Expense,
  ExpenseCreate,
  ExpenseListQuery,
  ExpenseReimburse,
  ExpenseReject,
  ExpenseUpdate,
  LedgerNotice,
} from './expenses.schemas.ts';
import { createExpense, getExpense, listExpenses, rejectExpense, updateExpense } from './expenses.service.ts';

export const { read, write, approve } = routeGroup({
  module: 'expenses',
  tag: 'Expenses',
  companyScoped: true,
});
/** The approval policy and limits are the business's rules: changed by those who manage it. */
const manage = {
  ...routeGroup({ module: 'expenses', tag: 'Expenses' }).write,
  permission: ['admin', 'manage'] as [Resource, Action],
};

export const APPROVAL_RULES =
  'Needs expenses:approve. Nobody approves their own claim: the user who made it, or the user whose e-mail is ' +
  "the claimant contact's (403 OWN_CLAIM). An approver approves up to their role's maxAmount " +
  "(GET /api/expenses/approval-limits); a role with no limit row approves up to the policy's secondApprovalFrom " +
  '(above: 403 APPROVAL_LIMIT_EXCEEDED with limit). A claim at or above secondApprovalFrom, when ' +
  'the policy has approvers 2, needs two approvals from different people: the first makes it partially_approved ' +
  '(the same approver again: 409 SECOND_APPROVER_REQUIRED). Anything but submitted or partially_approved is 409 ' +
  'NOT_AWAITING_APPROVAL.';

export const expenseRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/expenses/approval-limits',
    operationId: 'getExpenseApprovalLimits',
    companyScoped: false,
    summary: 'The approval limit of each role',
    description:
      "limits: per role (a built-in role's name or a custom role's id), the largest claim (VAT included) its " +
      "members approve. A role with no row approves up to the policy's secondApprovalFrom. mayChange: the " +
      'caller holds admin:manage.',
    response: { 200: ApprovalLimits },
    handler: async (_input, ctx) => getApprovalLimits(ctx),
  }),
  defineRoute({
    ...manage,
    method: 'PUT',
    path: '/api/expenses/approval-limits',
    operationId: 'putExpenseApprovalLimits',
    summary: 'Replace the approval limits (admin:manage)',
    description:
      'The list replaces the stored one; a role left out has no limit row from then on. An unknown role is 400 naming limits[i].roleId.',
    body: ApprovalLimitsUpdate,
    response: { 200: ApprovalLimits },
    handler: async ({ body }, ctx) => putApprovalLimits(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/expenses/approval-policy',
    operationId: 'getExpenseApprovalPolicy',
    companyScoped: false,
    summary: 'The approval policy: from what amount a claim needs a second approver',
    description:
      'Default (none stored): secondApprovalFrom 5000 (the R5,000 of a full tax invoice), approvers 2. summary ' +
      'says it in words.',
    response: { 200: ApprovalPolicy },
    handler: async (_input, ctx) => getApprovalPolicy(ctx),
  }),
  defineRoute({
    ...manage,
    method: 'PUT',
    path: '/api/expenses/approval-policy',
    operationId: 'putExpenseApprovalPolicy',
    summary: 'Change the approval policy (admin:manage)',
    description:
      'Only the fields given change. approvers 1: one approval for any claim; 2: two from secondApprovalFrom.',
    body: ApprovalPolicyUpdate,
    response: { 200: ApprovalPolicy },
    handler: async ({ body }, ctx) => putApprovalPolicy(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/expenses',
    operationId: 'createExpense',
    errors: ['NOT_FOUND', 'CONFLICT'],
    summary: 'Submit an expense claim (a slip paid personally or with the company card)',
    description:
      'Submitted at once (status submitted). amount is VAT included; vatAmount defaults to its tax fraction ' +
      '(15/115 at 15%, half-up; VAT Act s1, s7) and may be less, never more (400 vatAmount). taxCode as on a bill ' +
      '(default standard). Input tax is claimed (vatClaimable) only when the company is VAT-registered on the ' +
      'date; a standard-rated slip above R5,000 then needs supplierVatNumber (a full tax invoice, s20(4), s16(2): ' +
      '400 naming supplierVatNumber), from R50 to R5,000 one without it is kept with vatWarning. accountId: an ' +
      'expense or asset account (default General expenses 6750). contactId: an EMPLOYEE contact, the claimant ' +
      "(another tenant's: 404; not an employee: 400). costCentreId names one of the company's active cost centres (400 otherwise); the cost posts to it. currency: ZAR. 201; 200 " +
      'with the existing claim when clientId was already used.',
    body: ExpenseCreate,
    response: { 201: Expense, 200: Expense },
    handler: async ({ body }, ctx) => createExpense(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/expenses',
    operationId: 'listExpenses',
    summary: 'Expense claims, newest first, paged',
    description:
      'Filters: status, contactId, from/to (the claim date), updatedSince (deleted claims too, with deletedAt). ' +
      'sort: date, createdAt, updatedAt, `-` for descending; default -date.',
    query: ExpenseListQuery,
    response: { 200: Paged(Expense) },
    handler: async ({ query }, ctx) => listExpenses(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/expenses/{id}',
    operationId: 'getExpense',
    summary: 'One expense claim, with its approvals',
    params: IdParams,
    response: { 200: Expense },
    handler: async ({ params }, ctx) => getExpense(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/expenses/{id}',
    operationId: 'updateExpense',
    errors: ['NOT_A_DRAFT'],
    summary: "Change a submitted claim's description, vendor, category or cost centre",
    description:
      'Only while submitted and not yet approved by anyone (409 NOT_A_DRAFT after): the amounts do not change ' +
      '(delete the claim and submit it again).',
    params: IdParams,
    body: ExpenseUpdate,
    response: { 200: Expense },
    handler: async ({ params, body }, ctx) => updateExpense(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/expenses/{id}',
    operationId: 'deleteExpense',
    errors: ['EXPENSE_REIMBURSED', 'PERIOD_LOCKED'],
    summary: 'Delete a claim (an approved one is reversed)',
    description:
      'Marked deleted (404 from then on; listed to updatedSince). A claim never posted changes nothing in the ' +
      "ledger; an approved one has its approval's entry reversed (expense, input VAT and what was owed " +
      'cancelled), and ledgerNotice says which. A reimbursed claim stays: 409 EXPENSE_REIMBURSED.',
    params: IdParams,
    response: { 200: LedgerNotice },
    handler: async ({ params }, ctx) => deleteExpense(ctx, params.id),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/expenses/{id}/approve',
    operationId: 'approveExpense',
    errors: [
      'OWN_CLAIM',
      'APPROVAL_LIMIT_EXCEEDED',
      'SECOND_APPROVER_REQUIRED',
      'NOT_AWAITING_APPROVAL',
      'PERIOD_LOCKED',
      'UNPROCESSABLE',
    ],
    summary: 'Approve a claim; the last approval needed posts it',
    description:
      `${APPROVAL_RULES} Posted on the last approval, dated the claim's date: Dr its account (the amount less the ` +
      'VAT claimed; tagged input_standard, VAT201 field 15, or input_capital, field 14), Dr VAT input 1300 (the ' +
      'VAT, when claimable), Cr Employee reimbursements payable 2150 (personal; the claimant) or Credit card ' +
      '2410 (company_card).',
    params: IdParams,
    response: { 200: Expense },
    handler: async ({ params }, ctx) => approveExpense(ctx, params.id),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/expenses/{id}/reject',
    operationId: 'rejectExpense',
    errors: ['NOT_AWAITING_APPROVAL'],
    summary: 'Reject a claim awaiting approval, with the reason',
    description:
      'Needs expenses:approve. A submitted or partially approved claim becomes rejected, nothing posted; ' +
      'expense.rejected is emitted with the date, description, amount and reason. Otherwise 409 NOT_AWAITING_APPROVAL.',
    params: IdParams,
    body: ExpenseReject,
    response: { 200: Expense },
    handler: async ({ params, body }, ctx) => rejectExpense(ctx, params.id, body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/expenses/{id}/reimburse',
    operationId: 'reimburseExpense',
    errors: ['NOT_REIMBURSABLE', 'EXPENSE_REIMBURSED', 'PERIOD_LOCKED'],
    summary: 'Pay a personal approved claim out to the employee',
    description:
      'Posts Dr Employee reimbursements payable 2150, Cr the bank (bankAccountId, default Bank 1000), dated date; ' +
      'the claim becomes reimbursed (reimbursedAt). A company card claim, or one not approved: 409 ' +
      'NOT_REIMBURSABLE; twice: 409 EXPENSE_REIMBURSED.',
    params: IdParams,
    body: ExpenseReimburse,
    response: { 200: Expense },
    handler: async ({ params, body }, ctx) => reimburseExpense(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/expenses/{id}/receipt',
    operationId: 'putExpenseReceipt',
    binaryBody: RECEIPT_TYPES,
    bodyLimit: RECEIPT_LIMIT,
    summary: "Upload a claim's receipt (the slip's photo or PDF)",
    description:
      'The body is the file itself, Content-Type image/png, image/jpeg or application/pdf, at most 20 MiB (413 ' +
      'past it). The bytes must be what the type says (told by their signature): other bytes are a 415, a ' +
      'mismatched Content-Type a 400 naming body. A second upload replaces the first. Answers the claim, its ' +
      'receipt described.',
    params: IdParams,
    response: { 200: Expense },
    handler: async ({ params, body, headers }, ctx) =>
      putReceipt(ctx, params.id, body, headers['content-type']),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/expenses/{id}/receipt',
    operationId: 'getExpenseReceipt',
    produces: RECEIPT_TYPES,
    summary: "A claim's receipt, as its own type",
    description: 'image/png, image/jpeg or application/pdf, inline. A claim without a receipt is a 404.',
    params: IdParams,
    response: { 200: Type.String({ contentMediaType: 'application/octet-stream', description: 'The file' }) },
    handler: async ({ params }, ctx) => getReceipt(ctx, params.id),
  }),
];
