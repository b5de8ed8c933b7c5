// /api/bank-accounts: the company's bank accounts (a bounded list: a bare array).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  BankAccount,
  BankAccountCreate,
  BankAccountsQuery,
  BankAccountUpdate,
} from './bank-accounts.schemas.ts';
import {
  createBankAccount,
  getBankAccount,
  listBankAccounts,
  updateBankAccount,
} from './bank-accounts.service.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Bank accounts', companyScoped: true });

export const bankAccountRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-accounts',
    operationId: 'listBankAccounts',
    summary: "The company's bank accounts (bare array, by code)",
    description:
      "Every ledger account of subtype bank is one, the chart's Bank (1000) included. The account number is " +
      'answered masked. A bounded list: no paging.',
    query: BankAccountsQuery,
    response: { 200: Type.Array(BankAccount) },
    handler: async ({ query }, ctx) => listBankAccounts(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-accounts/{id}',
    operationId: 'getBankAccount',
    summary: 'One bank account',
    params: IdParams,
    response: { 200: BankAccount },
    handler: async ({ params }, ctx) => getBankAccount(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-accounts',
    operationId: 'createBankAccount',
    errors: ['CONFLICT'],
    summary: 'Add a bank account (and its ledger account)',
    description:
      'Creates the ledger account (type asset, subtype bank; code accountCode or the next free from 1010) and ' +
      'its bank details. A non-zero openingBalance needs openingDate and posts Dr the account, Cr Opening ' +
      'balances (3400), reversed for an overdraft. 201; 200 with the existing one when clientId was used.',
    body: BankAccountCreate,
    response: createdOrExisting(BankAccount),
    handler: async ({ body }, ctx) => createBankAccount(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bank-accounts/{id}',
    operationId: 'updateBankAccount',
    errors: ['CONFLICT'],
    summary: 'Rename a bank account, change its bank details, or deactivate it',
    description:
      "Deactivating deactivates its ledger account: no new payment may name it. The chart's Bank (1000) stays " +
      'active (409). The opening balance is posted once; correct it with a journal.',
    params: IdParams,
    body: BankAccountUpdate,
    response: { 200: BankAccount },
    handler: async ({ params, body }, ctx) => updateBankAccount(ctx, params.id, body),
  }),
];
