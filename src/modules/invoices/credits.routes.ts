// Routes of customer credit and refunds (issue 14, items 7 and 8), part of the Invoices tag.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { recordAdvancePayment } from './advance-payments.ts';
import {
  AdvancePaymentCreate,
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

const { read, write } = routeGroup({ module: 'invoices', tag: 'Invoices', companyScoped: true });

const REFUND_POSTING =
  "Dr the credit's account on its own item (debtors: an overpayment or credit note; customer deposits: a " +
  'deposit or its excess; income received in advance: an advance payment, net, plus Dr VAT output for its VAT ' +
  'in proportion, tagged standard: a reduction of output tax, s21) / Cr bank. amount: at most what remains ' +
  '(400), default all; nothing left: 409 NO_CREDIT_LEFT; a draft, void or forfeited source: 409 NOT_OPEN.';

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
      'Every credit a customer has, oldest first: customer credits (overpayment, deposit_excess, ' +
      'advance_payment) and released credit notes and deposits. remaining is what is left to apply (sourceId of ' +
      'POST /api/invoices/{id}/allocations) or to refund. Filters: contactId, status, updatedSince.',
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
    params: IdParams,
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
      `Pays back out of any credit the list shows (a credit note or deposit too). ${REFUND_POSTING} ` +
      'Nothing left after it: refunded. 201.',
    params: IdParams,
    body: RefundCreate,
    response: { 201: Refund },
    handler: async ({ params, body }, ctx) => recordRefund(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/customer-credits/{id}/refunds',
    operationId: 'listCustomerCreditRefunds',
    summary:
      "A credit's refunds (a customer credit, credit note or deposit), reversed ones included (bare array)",
    params: IdParams,
    response: { 200: Type.Array(Refund) },
    handler: async ({ params }, ctx) => listRefunds(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/customer-credits/{id}/refunds/{refundId}',
    operationId: 'reverseCustomerCreditRefund',
    errors: ['ALREADY_REVERSED', 'PERIOD_LOCKED'],
    summary: 'Reverse a refund: its entry is reversed (reversalEntryId) and the amount remains again',
    description: 'Answers the refund, status reversed, with reversalEntryId.',
    params: RefundParams,
    response: { 200: Refund },
    handler: async ({ params }, ctx) => reverseRefund(ctx, params.id, params.refundId),
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
      'What remains of a deposit becomes a supply (VAT Act s1): Dr customer deposits / Cr 4960 ' +
      'Forfeited deposits (net) / Cr VAT output (15/115, 14/114 before 2018-04-01, if registered on the date), ' +
      'tagged standard (VAT201 fields 1, 4). A deposit applied to a smaller invoice left its excess as a ' +
      'customer credit (deposit_excess): what remains of that credit is what is forfeited (debited on its own ' +
      'item; the credit becomes forfeited too; a date before the credit arose is 400 naming date). The deposit ' +
      'is forfeited. Not a deposit: 409 NOT_A_DEPOSIT; draft, refunded or forfeited: 409 NOT_OPEN; nothing ' +
      'left (all applied or refunded): 409 NO_CREDIT_LEFT.',
    params: IdParams,
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
      'Time of supply on receipt (VAT Act s9(1)): Dr bank / Cr 2420 Income received in advance (net) / ' +
      'Cr VAT output (15/115; none when not registered), tagged standard. A customer credit (advance_payment): ' +
      'applying or refunding it draws its VAT back out in proportion, so VAT counts once, when received. 201; ' +
      '200 when clientId was used.',
    body: AdvancePaymentCreate,
    response: { 201: CustomerCredit, 200: CustomerCredit },
    handler: async ({ body }, ctx) => recordAdvancePayment(ctx, body),
  }),
];
