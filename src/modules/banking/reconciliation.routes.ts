// Routes of banking: suggestions, matching, undo and the reconciliation report.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { bankAccountOf } from './bank-accounts.service.ts';
import { autoReconcile } from './reconciliation.auto.ts';
import { acceptMatch } from './reconciliation.match.ts';
import { getMatch } from './reconciliation.read.ts';
import { reconciliationReport } from './reconciliation.report.ts';
import {
  AutoBody,
  AutoResult,
  LineSuggestions,
  Match,
  MatchCreate,
  Report,
  ReportQuery,
  SuggestionsQuery,
} from './reconciliation.schemas.ts';
import { suggestionsForLine, suggestionsPage } from './reconciliation.suggest.ts';
import { undoMatch } from './reconciliation.undo.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Reconciliation', companyScoped: true });

export const reconciliationRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/reconciliation/suggestions',
    operationId: 'listReconciliationSuggestions',
    summary: 'A page of unreconciled bank lines, each with its ranked suggestions',
    description:
      'Oldest first. Each suggestion has a score (0..1), its reasons in words and `accept`, the body part to ' +
      'POST to /api/reconciliation/matches: an open invoice (money in) or bill (money out) by amount due, ' +
      'document number in the reference or description, contact name and date; several open invoices of a ' +
      'named customer adding up to the amount; an entry already moving the account that no bank line claims ' +
      "(matched, never recorded again); the bank rule's account. certain: the exact amount due and the " +
      "document's number in the line. bankAccountId of another company or tenant: 404.",
    query: SuggestionsQuery,
    response: { 200: Paged(LineSuggestions) },
    handler: async ({ query }, ctx) => suggestionsPage(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/reconciliation/transactions/{id}/suggestions',
    operationId: 'getBankTransactionSuggestions',
    summary: 'One bank line with its ranked suggestions',
    description: 'A reconciled or excluded line answers no suggestions.',
    params: IdParams,
    response: { 200: LineSuggestions },
    handler: async ({ params }, ctx) => suggestionsForLine(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/reconciliation/auto',
    operationId: 'autoReconcile',
    errors: ['CONFLICT', 'PERIOD_LOCKED'],
    summary: 'Reconcile the unreconciled lines of a bank account that have exactly one certain candidate',
    description:
      "Certain: the exact amount due and the document's number in the reference or description. A line with " +
      'two certain candidates, or a document two lines are certain of, waits for a person. Imports run this ' +
      'on their new lines by themselves.',
    body: AutoBody,
    response: { 200: AutoResult },
    handler: async ({ body }, ctx) => {
      await bankAccountOf(ctx.db, ctx.tenantId, ctx.companyId, body.bankAccountId);
      return autoReconcile(ctx, body.bankAccountId);
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/reconciliation/matches',
    operationId: 'createBankMatch',
    errors: [
      'CONFLICT',
      'PERIOD_LOCKED',
      'NOT_OPEN',
      'NOT_RECEIVABLE',
      'ALREADY_PAID',
      'NOT_APPROVED',
      'ON_HOLD',
      'UNPROCESSABLE',
    ],
    summary:
      'Reconcile a bank line: pay invoices or bills, link an existing entry, create one, or a transfer',
    description:
      'Exactly one of invoices, bills, existing, create, transfer (400 naming the field otherwise). invoices: a ' +
      'payment recorded on each (dated as the bank line, into its account; invoice.paid when it settles one; ' +
      "one invoice named without an amount takes the whole line, its excess becoming the customer's credit). " +
      'bills: a payment of each (more than is due: 422, no supplier credit is kept). existing: entries already ' +
      'moving the account, only linked (reversed or claimed by another line: 409). create: the line posted ' +
      'against accountId, gross, VAT by taxCode (money in: an output code; out: an input code). transfer: ' +
      'against another bank account (its own bank line later matches the entry as existing). The amounts must ' +
      'add up to the bank line exactly (400 naming the field). The line must be unreconciled (409). 201; 200 ' +
      'with the match when clientId was used. Another tenant’s ids: 404.',
    body: MatchCreate,
    response: createdOrExisting(Match),
    handler: async ({ body }, ctx) => {
      const { match, created } = await acceptMatch(ctx, body);
      ctx.reply.code(created ? 201 : 200);
      return match;
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/reconciliation/matches/{id}',
    operationId: 'getBankMatch',
    summary: 'One match: the bank line and what it recorded or linked',
    params: IdParams,
    response: { 200: Match },
    handler: async ({ params }, ctx) => getMatch(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/reconciliation/matches/{id}/undo',
    operationId: 'undoBankMatch',
    errors: ['ALREADY_REVERSED', 'CREDIT_IN_USE', 'CONFLICT', 'PERIOD_LOCKED'],
    summary: 'Undo a match: what it recorded is reversed, the bank line unreconciled again',
    description:
      'Payments it recorded are reversed through their services (an excess credit applied elsewhere: 409 ' +
      'CREDIT_IN_USE), entries it posted reversed; an existing entry is only unlinked. Twice: 409 ALREADY_REVERSED.',
    params: IdParams,
    response: { 200: Match },
    handler: async ({ params }, ctx) => undoMatch(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/reconciliation/report',
    operationId: 'getReconciliationReport',
    summary: 'Statement balance, ledger balance and the items between them, at a date',
    description:
      'Ties out: statementLinesBalance (opening + bank lines to asOf) - unreconciledTotal + unmatchedLedgerTotal = ' +
      'ledgerBalance; difference is what does not (0). statementBalance is the last running balance the bank gave.',
    query: ReportQuery,
    response: { 200: Report },
    handler: async ({ query }, ctx) => reconciliationReport(ctx, query),
  }),
];
