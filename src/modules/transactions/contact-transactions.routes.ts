// Contact transactions: usage or charges recorded against a contact. Reading is the contacts
// module (every plan); writing is the transactions module (Business and up), as DECISIONS.md's
// module table has it. Tenant-wide, as contacts are: no X-Company-Id.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import {
  createContactTransaction,
  getContactTransaction,
  listContactTransactions,
  updateContactTransaction,
  voidContactTransaction,
} from './contact-transactions.service.ts';
import {
  ContactParams,
  ContactTransaction,
  ContactTransactionCreate,
  ContactTransactionListQuery,
  ContactTransactionUpdate,
  TransactionParams,
} from './transactions.schemas.ts';

const tag = 'Contact transactions';
// Read as the contacts module's, written as the transactions module's.
const { read } = routeGroup({ module: 'contacts', tag });
const { write } = routeGroup({ module: 'transactions', tag });

const BILLING =
  'Pending transactions are billed by the monthly roll: on the first of a month, those that occurred before ' +
  "it go on the contact's draft invoice (one per contact, with the month's run-monthly amount), one line each, " +
  'and become invoiced with its invoiceId.';

export const contactTransactionsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/contacts/{contactId}/transactions',
    operationId: 'listContactTransactions',
    summary: "The contact's transactions, newest first (a bare array)",
    description:
      'Ordered by occurredAt, newest first (then by creation). from and to (days, UTC, both included) and status ' +
      'filter it; to before from is a 400. A contact that is not of the tenant (or deleted) is a 404.',
    params: ContactParams,
    query: ContactTransactionListQuery,
    response: { 200: Type.Array(ContactTransaction) },
    handler: async ({ params, query }, ctx) => listContactTransactions(ctx, params.contactId, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/contacts/{contactId}/transactions',
    operationId: 'createContactTransaction',
    errors: ['CONFLICT'],
    summary: 'Record usage or a charge against a contact (201), or answer the one an externalRef made (200)',
    description:
      `${BILLING} amount is quantity × unitPrice rounded half-up to cents, excluding VAT; vatRate 0 or the ` +
      "standard rate. currency is the contact's. externalRef makes the call idempotent: the same ref again answers " +
      '200 with the first transaction, unchanged; a ref already used for another contact is a 409.',
    params: ContactParams,
    body: ContactTransactionCreate,
    response: createdOrExisting(ContactTransaction),
    handler: async ({ params, body }, ctx) => createContactTransaction(ctx, params.contactId, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/contacts/{contactId}/transactions/{transactionId}',
    operationId: 'getContactTransaction',
    summary: 'One contact transaction',
    params: TransactionParams,
    response: { 200: ContactTransaction },
    handler: async ({ params }, ctx) => getContactTransaction(ctx, params.contactId, params.transactionId),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/contacts/{contactId}/transactions/{transactionId}',
    operationId: 'updateContactTransaction',
    errors: ['CONFLICT', 'ALREADY_INVOICED'],
    summary: 'Change a pending transaction (its figures, text, date or metadata)',
    description:
      'Checked as a create is: amount, when given, must be the new quantity × unitPrice rounded to cents, and is ' +
      'worked out again when left out. externalRef and currency do not change. An invoiced transaction is a 409 ' +
      'ALREADY_INVOICED, a void one a 409 CONFLICT.',
    params: TransactionParams,
    body: ContactTransactionUpdate,
    response: { 200: ContactTransaction },
    handler: async ({ params, body }, ctx) =>
      updateContactTransaction(ctx, params.contactId, params.transactionId, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/contacts/{contactId}/transactions/{transactionId}/void',
    operationId: 'voidContactTransaction',
    errors: ['ALREADY_INVOICED'],
    summary: 'Withdraw a pending transaction: it is kept, void, and never billed',
    description:
      'A transaction on an invoice already is a 409 ALREADY_INVOICED (credit or void the invoice instead). ' +
      'Voiding a void transaction answers it as it is.',
    params: TransactionParams,
    response: { 200: ContactTransaction },
    handler: async ({ params }, ctx) => voidContactTransaction(ctx, params.contactId, params.transactionId),
  }),
];
