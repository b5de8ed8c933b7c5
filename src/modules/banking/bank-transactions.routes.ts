// Routes of banking: the bank lines: paged list, one line, a person's coding, exclude and include.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { BankTransactionCoding } from './bank-rules.schemas.ts';
import {
  BankTransaction,
  BankTransactionExclude,
  BankTransactionListQuery,
} from './bank-transactions.schemas.ts';
import {
  codeBankTransaction,
  excludeBankTransaction,
  getBankTransaction,
  includeBankTransaction,
  listBankTransactions,
} from './bank-transactions.service.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Bank transactions', companyScoped: true });

export const bankTransactionRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-transactions',
    operationId: 'listBankTransactions',
    summary: "The company's bank lines (paged; newest first by default)",
    description:
      'Filters apply before paging. amountMin and amountMax bound the size of the line whatever its direction ' +
      "(R50 in and R50 out both have size 50); direction narrows to money in or out. A feed's pending lines " +
      'are listed with pending: true; a superseded line (a pending line once posted) is hidden, except to ' +
      'updatedSince, so a sync learns of it (supersededAt). Each line says which rule touched it and its coding.',
    query: BankTransactionListQuery,
    response: { 200: Paged(BankTransaction) },
    handler: async ({ query }, ctx) => listBankTransactions(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-transactions/{id}',
    operationId: 'getBankTransaction',
    summary: 'One bank line, with the rule that touched it and its coding',
    params: IdParams,
    response: { 200: BankTransaction },
    handler: async ({ params }, ctx) => getBankTransaction(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bank-transactions/{id}',
    operationId: 'codeBankTransaction',
    errors: ['ALREADY_RECONCILED', 'CONFLICT'],
    summary: "Set or clear a bank line's coding (a person's: no rule overwrites it)",
    description:
      'Given fields replace, null clears; splits take the place of accountId, taxCode and costCentreId. With ' +
      'every field cleared the line is uncoded again and the rules may code it on their next run. Only an ' +
      'unreconciled line: 409 ALREADY_RECONCILED for a reconciled one, 409 CONFLICT for an excluded or ' +
      'superseded one.',
    params: IdParams,
    body: BankTransactionCoding,
    response: { 200: BankTransaction },
    handler: async ({ params, body }, ctx) => codeBankTransaction(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-transactions/{id}/exclude',
    operationId: 'excludeBankTransaction',
    errors: ['ALREADY_RECONCILED', 'CONFLICT'],
    summary: 'Set a bank line aside (excluded), with the reason',
    description:
      'unreconciled → excluded (an excluded line takes the new reason). A reconciled line: 409 ALREADY_RECONCILED; ' +
      'a superseded one: 409 CONFLICT.',
    params: IdParams,
    body: BankTransactionExclude,
    response: { 200: BankTransaction },
    handler: async ({ params, body }, ctx) => excludeBankTransaction(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-transactions/{id}/include',
    operationId: 'includeBankTransaction',
    errors: ['ALREADY_RECONCILED', 'CONFLICT'],
    summary: 'Take an excluded bank line back (unreconciled)',
    description:
      'excluded → unreconciled; an unreconciled line is answered as it is. A reconciled line: 409 ' +
      'ALREADY_RECONCILED; a superseded one: 409 CONFLICT.',
    params: IdParams,
    response: { 200: BankTransaction },
    handler: async ({ params }, ctx) => includeBankTransaction(ctx, params.id),
  }),
];
