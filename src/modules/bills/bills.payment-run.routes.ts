// The catalogue entries of supplier bank details (under the contact), hold and dispute on a
// bill, and the payment run. Kept apart from bills.routes.ts; spread into src/catalogue.ts.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged, pageQueryProperties } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { BankDetails, BankDetailsInput } from './bills.bank-details.schemas.ts';
import { confirmBankDetails, getBankDetails, putBankDetails } from './bills.bank-details.ts';
import { disputeBill, holdBill, releaseHold, resolveDispute } from './bills.hold.ts';
import { paymentRunFile } from './bills.payment-run.file.ts';
import { getPaymentRun, listPaymentRuns } from './bills.payment-run.read.ts';
import {
  PaymentRun,
  PaymentRunCreate,
  PaymentRunFile,
  PaymentRunProposal,
  PaymentRunQuery,
} from './bills.payment-run.schemas.ts';
import { createPaymentRun, proposePaymentRun } from './bills.payment-run.ts';
import { Bill } from './bills.schemas.ts';

// A bill is the expenses module's (DECISIONS.md), with the company header.
const { read, write } = routeGroup({ module: 'expenses', tag: 'Bills', companyScoped: true });

// DECISIONS.md: /api/contacts* belongs to module contacts. Contacts are one book per tenant.
const contacts = { module: 'contacts', tag: 'Contacts' } as const;

const Reason = named(
  'BillHoldReason',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
    { additionalProperties: false, examples: [{ reason: 'Waiting for the delivery note' }] },
  ),
);

const FLAGS =
  'Only an approved or partially paid bill (409 NOT_APPROVED otherwise); setting what is set already, or ' +
  'clearing what is not, is 409 CONFLICT. Nothing is posted. A held or disputed bill is listed as blocked by ' +
  'the payment run and refused by it and by POST /api/bills/{id}/payments (409 ON_HOLD / DISPUTED).';

export const paymentRunRoutes: AnyRoute[] = [
  defineRoute({
    ...contacts,
    method: 'GET',
    path: '/api/contacts/{id}/bank-details',
    operationId: 'getContactBankDetails',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: "A supplier's bank details, the account number masked, with every change",
    description:
      'accountMasked shows the last four digits only (••••1234): the whole number is kept sealed and goes ' +
      "only into a payment run's bank file. pendingConfirmation is true while a change (or the first " +
      'capture) made in the last 14 days has not been confirmed by another person: the payment run does not ' +
      'pay the supplier meanwhile. history lists every change, newest first, masked. A contact without bank ' +
      'details is 404.',
    params: IdParams,
    response: { 200: BankDetails },
    handler: async ({ params }, ctx) => getBankDetails(ctx, params.id),
  }),
  defineRoute({
    ...contacts,
    method: 'PUT',
    path: '/api/contacts/{id}/bank-details',
    operationId: 'setContactBankDetails',
    access: 'write',
    permission: ['contacts', 'write'],
    errors: ['UNAVAILABLE'],
    summary: "Set a supplier's bank details (a change needs another person's confirmation before paying)",
    description:
      'accountNumber: digits only; branchCode: six digits (400 naming the field otherwise); accountType ' +
      'default cheque. The number is sealed at rest (AES-256-GCM, SECRETS_KEY; a server install without it ' +
      'answers 503 naming it). A change of anything a payment goes by is kept in history (who, when, the ' +
      'masked old and new numbers) and needs confirming by someone else (POST …/bank-details/confirm): a ' +
      'changed account is the commonest payment fraud. The same details sent again change nothing.',
    params: IdParams,
    body: BankDetailsInput,
    response: { 200: BankDetails },
    handler: async ({ params, body }, ctx) => putBankDetails(ctx, params.id, body),
  }),
  defineRoute({
    ...contacts,
    method: 'POST',
    path: '/api/contacts/{id}/bank-details/confirm',
    operationId: 'confirmContactBankDetails',
    access: 'write',
    permission: ['contacts', 'approve'],
    errors: ['SAME_USER'],
    summary: "Confirm a supplier's changed bank details (someone other than who changed them)",
    description:
      'Needs contacts:approve. Say that the change was checked with the supplier by phone, on a number known ' +
      'before the change (not one given in the e-mail or letter announcing it). The person (or key) who made ' +
      'the change cannot confirm it: 409 SAME_USER. Confirmed, the payment run pays the supplier again. ' +
      'Confirming confirmed details changes nothing.',
    params: IdParams,
    response: { 200: BankDetails },
    handler: async ({ params }, ctx) => confirmBankDetails(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/hold',
    operationId: 'holdBill',
    errors: ['NOT_APPROVED', 'CONFLICT'],
    summary: 'Put a bill on hold, with the reason: it is not paid until released',
    description: FLAGS,
    params: IdParams,
    body: Reason,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) => holdBill(ctx, params.id, body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/release-hold',
    operationId: 'releaseBillHold',
    errors: ['NOT_APPROVED', 'CONFLICT'],
    summary: 'Release the hold on a bill',
    description: FLAGS,
    params: IdParams,
    response: { 200: Bill },
    handler: async ({ params }, ctx) => releaseHold(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/dispute',
    operationId: 'disputeBill',
    errors: ['NOT_APPROVED', 'CONFLICT'],
    summary: 'Mark a bill disputed with the supplier, with the reason: it is not paid until resolved',
    description: FLAGS,
    params: IdParams,
    body: Reason,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) => disputeBill(ctx, params.id, body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/resolve-dispute',
    operationId: 'resolveBillDispute',
    errors: ['NOT_APPROVED', 'CONFLICT'],
    summary: 'Resolve the dispute on a bill',
    description: FLAGS,
    params: IdParams,
    response: { 200: Bill },
    handler: async ({ params }, ctx) => resolveDispute(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/payment-run',
    operationId: 'proposePaymentRun',
    summary: 'What is due by a date, by supplier, and what cannot be paid and why',
    description:
      'Approved and partially paid bills of the company with something due and a due date on or before dueBy ' +
      '(default today + 7 days), each for what is due on it. suppliers: the payable ones grouped by supplier ' +
      '(payee and masked account from its bank details), with totals; total: all of them. blocked: the bills ' +
      'that cannot be paid now, each with blockedReason: on_hold, disputed (the bill), no_bank_details, or ' +
      'bank_details_changed (changed or first captured in the last 14 days and not confirmed by another person: ' +
      'the commonest payment fraud in South Africa), and a warning in words. Blocked bills are not in total.',
    query: PaymentRunQuery,
    response: { 200: PaymentRunProposal },
    handler: async ({ query }, ctx) => proposePaymentRun(ctx, query.dueBy),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/payment-run',
    operationId: 'createPaymentRun',
    errors: ['PAYMENT_BLOCKED', 'NOT_APPROVED', 'ALREADY_PAID', 'CONFLICT', 'PERIOD_LOCKED', 'UNAVAILABLE'],
    summary: 'Pay the selected bills at once: one payment each, one bank entry, a bank payment file',
    description:
      "Each bill in billIds (of the company; another's or none: 404) is paid what is due on it, dated date, " +
      'from bankAccountId (default Bank 1000). All are checked before anything is written: a blocked bill ' +
      '(as GET /api/bills/payment-run lists) is 409 PAYMENT_BLOCKED with `blocked` naming each and its ' +
      'blockedReason; one not approved 409 NOT_APPROVED; one with nothing due 409 ALREADY_PAID; a date before ' +
      "a bill's issue date 400 naming date. Each bill gets a payment (GET /api/bills/{id}/payments) and its " +
      'status moves to paid (what is due is paid whole); the ledger gets ONE ' +
      'entry: Dr creditors control per bill (its open item, so aged creditors clears it), Cr the bank the ' +
      'total. Reversing one payment of a run posts its own mirror entry; the others stand. 201 with the run ' +
      'and fileUrl, the bank file; 200 with the existing run when clientId was already used.',
    body: PaymentRunCreate,
    response: { 201: PaymentRun, 200: PaymentRun },
    handler: async ({ body }, ctx) => createPaymentRun(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/payment-runs',
    operationId: 'listPaymentRuns',
    summary: "The company's payment runs, newest first, paged",
    description:
      'Made by POST /api/bills/payment-run; each with its payments and the address of its bank file.',
    query: Type.Object(pageQueryProperties),
    response: { 200: Paged(PaymentRun) },
    handler: async ({ query }, ctx) => listPaymentRuns(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/payment-runs/{id}',
    operationId: 'getPaymentRun',
    summary: 'One payment run with its payments',
    params: IdParams,
    response: { 200: PaymentRun },
    handler: async ({ params }, ctx) => getPaymentRun(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/payment-runs/{id}/file',
    operationId: 'getPaymentRunFile',
    // The one answer with whole account numbers: for the people who pay (expenses:write), not
    // every reader of bills. A key still needs only the read scope: it reads, changes nothing.
    permission: ['expenses', 'write'],
    errors: ['UNAVAILABLE'],
    produces: 'text/csv',
    summary: "The run's bank payment file (CSV)",
    description:
      'One row per bill: payee name, account number (whole: only here), branch code, account type, amount ' +
      '(two decimals), reference (the bill number, at most 20 characters) and your reference (PAYRUN and the ' +
      "date). The bank details as they were when the run was made. bankProfile's layouts: see BankProfile. " +
      'Needs the role permission expenses:write (the whole account numbers are in it), the scope expenses:read.',
    params: IdParams,
    response: { 200: PaymentRunFile },
    handler: async ({ params }, ctx) => paymentRunFile(ctx, params.id),
  }),
];
