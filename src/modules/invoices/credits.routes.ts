// Routes of customer credit and refunds (issue 14, items 7 and 8), part of the Invoices tag.
import { Type } from 'typebox';
import type { Action, Resource } from '../../platform/auth/permissions.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { recordAdvancePayment } from './advance-payments.ts';
import {
  AdvancePaymentCreate,
  CreditIdParams,
  CustomerCredit,
  CustomerCreditListQuery,
  DepositForfeit,
  ForfeitCreate,
  Refund,
  RefundCreate,
  RefundParams,
} from './customer-credits.schemas.ts';
import { getCredit, listCredits } from './customer-credits.ts';
import { forfeitDeposit } from './deposits.ts';
import { listRefunds, recordRefund, reverseRefund } from './refunds.ts';

const sales = { module: 'invoices', companyScoped: true, tag: 'Invoices' } as const;
const read = { ...sales, access: 'read' as const, permission: ['invoices', 'read'] as [Resource, Action] };
const write = { ...sales, access: 'write' as const, permission: ['invoices', 'write'] as [Resource, Action] };

const REFUND_POSTING =
  'Posts Dr the account the credit sits on, on its own open item (debtors control: an overpayment or a credit ' +
  'note; customer deposits: a deposit or its excess; income received in advance: an advance payment, net, with ' +
  'Dr VAT output for its VAT in proportion, both tagged standard at the rate of receipt, a reduction of output ' +
  'tax in the refund period as a credit note is, VAT Act s21) / Cr bank (bankAccountId, default Bank 1000). ' +
  'amount: at most what remains (400 naming amount), default all of it; a date before the credit arose is 400 ' +
  'naming date; on or before the lock date 409 PERIOD_LOCKED. Nothing left is 409 NO_CREDIT_LEFT. Two refunds ' +
  'at once take turns on the credit. 201 with the refund.';

const errorsOfRefund = ['NOT_OPEN', 'NO_CREDIT_LEFT', 'PERIOD_LOCKED'] as const;

export const creditRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/customer-credits',
    operationId: 'listCustomerCredits',
    summary:
      "Customers' unapplied credit: overpayments, deposits' excess, advance payments, credit notes, deposits",
    description:
      'Every credit a customer has, in one list, oldest first, paged: the customer credits (an overpayment, the ' +
      'excess of a deposit applied to a smaller invoice, an advance payment) and the released credit notes and ' +
      'deposits (their remaining amount is credit too). remaining is what is left to apply to an invoice ' +
      '(POST /api/invoices/{id}/allocations with sourceId) or to refund. Filters: contactId, status (open: ' +
      'something remains; applied; refunded; reversed: the payment it came from was reversed; forfeited: a ' +
      'deposit), updatedSince.',
    query: CustomerCreditListQuery,
    response: { 200: Paged(CustomerCredit) },
    handler: async ({ query }, ctx) => listCredits(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/customer-credits/{id}',
    operationId: 'getCustomerCredit',
    summary: 'One customer credit (or a credit note or deposit as credit) with what remains of it',
    params: CreditIdParams,
    response: { 200: CustomerCredit },
    handler: async ({ params }, ctx) => getCredit(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/customer-credits/{id}/refunds',
    operationId: 'refundCustomerCredit',
    errors: [...errorsOfRefund],
    summary:
      'Refund a credit (an overpayment, a deposit excess, an advance payment, a credit note, a deposit)',
    description:
      `A payment out of what remains of any credit GET /api/customer-credits lists (id: the credit's). ${REFUND_POSTING} ` +
      'A credit nothing remains of after a refund is refunded (a credit note or deposit too: invoice.updated).',
    params: CreditIdParams,
    body: RefundCreate,
    response: { 201: Refund },
    handler: async ({ params, body }, ctx) => recordRefund(ctx, params.id, 'credit', body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/customer-credits/{id}/refunds',
    operationId: 'listCustomerCreditRefunds',
    summary:
      "A credit's refunds (a customer credit, credit note or deposit), reversed ones included (bare array)",
    params: CreditIdParams,
    response: { 200: Type.Array(Refund) },
    handler: async ({ params }, ctx) => listRefunds(ctx, params.id, 'credit'),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/customer-credits/{id}/refunds/{refundId}',
    operationId: 'reverseCustomerCreditRefund',
    errors: ['ALREADY_REVERSED', 'PERIOD_LOCKED'],
    summary: 'Reverse a refund: its entry is reversed (reversalEntryId) and the amount remains again',
    description:
      "Any credit's refund, a credit note's or deposit's included (id: the credit note or deposit). The " +
      'answer is the refund with status reversed and reversalEntryId, the entry that undid it.',
    params: RefundParams,
    response: { 200: Refund },
    handler: async ({ params }, ctx) => reverseRefund(ctx, params.id, 'credit', params.refundId),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/refunds',
    operationId: 'refundDocument',
    errors: [...errorsOfRefund],
    summary: 'Refund what remains of a released credit note or deposit: a payment out',
    description:
      `${REFUND_POSTING} Any other document is 404; a draft or void one is 409 NOT_OPEN, a forfeited deposit too. ` +
      'A credit note or deposit nothing remains of after a refund is refunded (invoice.updated). The same as ' +
      'POST /api/customer-credits/{id}/refunds with the document as the credit; a refund is reversed there.',
    params: CreditIdParams,
    body: RefundCreate,
    response: { 201: Refund },
    handler: async ({ params, body }, ctx) => recordRefund(ctx, params.id, 'document', body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/refunds',
    operationId: 'listDocumentRefunds',
    summary: "A credit note's or deposit's refunds, reversed ones included (bare array)",
    params: CreditIdParams,
    response: { 200: Type.Array(Refund) },
    handler: async ({ params }, ctx) => listRefunds(ctx, params.id, 'document'),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/forfeit',
    operationId: 'forfeitDeposit',
    errors: ['NOT_A_DEPOSIT', 'NOT_OPEN', 'NO_CREDIT_LEFT', 'PERIOD_LOCKED'],
    summary:
      'A deposit forfeited by the customer: Dr customer deposits, Cr forfeited deposits (net), Cr VAT output',
    description:
      'A deposit is no supply until applied or forfeited (VAT Act s1, "consideration"); forfeited, what remains ' +
      'of it becomes income: Dr customer deposits (what remains) / Cr 4960 Forfeited deposits (the net) / Cr VAT ' +
      'output (the tax fraction of what remains, 15/115, 14/114 before 2018-04-01, half-up to cents, when the ' +
      'company is VAT-registered on the forfeit date), the two credits tagged standard so that the VAT report ' +
      'counts them in VAT201 fields 1 and 4. Not registered: all of it is income, no VAT. The deposit becomes ' +
      'forfeited (invoice.updated). Not a deposit: 409 NOT_A_DEPOSIT; a draft, refunded or forfeited deposit: 409 ' +
      'NOT_OPEN; nothing left of it (applied): 409 NO_CREDIT_LEFT; a date before the deposit: 400 naming date. ' +
      '201 with the forfeit.',
    params: CreditIdParams,
    body: ForfeitCreate,
    response: { 201: DepositForfeit },
    handler: async ({ params, body }, ctx) => forfeitDeposit(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/advance-payments',
    operationId: 'recordAdvancePayment',
    errors: ['PERIOD_LOCKED', 'CONFLICT'],
    summary: 'Money received on account before any invoice: a customer credit with its VAT accounted (s9(1))',
    description:
      'The time of supply is the receipt (VAT Act s9(1)), so the VAT is output tax at once: Dr bank (amount) / Cr ' +
      '2420 Income received in advance (the net, the customer and the credit as its open item) / Cr VAT output ' +
      '(15/115 of the amount, 14/114 before 2018-04-01, half-up to cents), both credits tagged standard (VAT201 ' +
      'fields 1 and 4 of the period received). Not VAT-registered on the date: no VAT part. It is a customer ' +
      "credit (kind advance_payment): apply it to the customer's invoices through POST " +
      '/api/invoices/{id}/allocations (each application draws its VAT out in proportion: Dr income received in ' +
      "advance (net) and Dr VAT output (VAT), tagged standard / Cr debtors, cancelling the invoice's own VAT so " +
      'VAT counts once, in the period received) or refund it (POST /api/customer-credits/{id}/refunds: the ' +
      'same reversal against bank, a reduction of output tax as a credit note is, s21). An unknown contactId is ' +
      '400. 201 with the credit; 200 with it when clientId was already used.',
    body: AdvancePaymentCreate,
    response: { 201: CustomerCredit, 200: CustomerCredit },
    handler: async ({ body }, ctx) => recordAdvancePayment(ctx, body),
  }),
];
