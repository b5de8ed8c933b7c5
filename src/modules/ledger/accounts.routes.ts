import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Account, AccountCreate, AccountsQuery, AccountUpdate } from './accounts.schemas.ts';
import { createAccount, getAccount, listAccounts, updateAccount } from './accounts.service.ts';

export const accountRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/accounts',
    operationId: 'listAccounts',
    tag: 'Accounts',
    module: 'reports',
    access: 'read',
    permission: ['reports', 'read'],
    companyScoped: true,
    summary: "The company's chart of accounts (bare array, by code)",
    description:
      'Every account of the chart, active and deactivated; isActive=true for only those that may be posted ' +
      'to, isActive=false for only deactivated ones. A bounded list: no paging.',
    query: AccountsQuery,
    response: { 200: Type.Array(Account) },
    handler: async ({ query }, ctx) => listAccounts(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/accounts/{id}',
    operationId: 'getAccount',
    tag: 'Accounts',
    module: 'reports',
    access: 'read',
    permission: ['reports', 'read'],
    companyScoped: true,
    summary: 'One account',
    params: IdParams,
    response: { 200: Account },
    handler: async ({ params }, ctx) => getAccount(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/accounts',
    operationId: 'createAccount',
    tag: 'Accounts',
    errors: ['CONFLICT'],
    module: 'reports',
    access: 'write',
    permission: ['reports', 'write'],
    companyScoped: true,
    summary: 'Add an account to the chart',
    description:
      'The code is unique in the company, in any case (409 otherwise). Accounts you add are never control ' +
      'accounts. 201 on create; 200 with the existing account when clientId was already used.',
    body: AccountCreate,
    response: createdOrExisting(Account),
    handler: async ({ body }, ctx) => createAccount(ctx, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/accounts/{id}',
    operationId: 'updateAccount',
    tag: 'Accounts',
    errors: ['CONFLICT'],
    module: 'reports',
    access: 'write',
    permission: ['reports', 'write'],
    companyScoped: true,
    summary: 'Rename, renumber, regroup or deactivate an account',
    description:
      'A deactivated account keeps its history and shows in reports, but nothing more may be posted to it. ' +
      'System accounts (those with a systemKey) cannot be deactivated or moved to another subtype (409).',
    params: IdParams,
    body: AccountUpdate,
    response: { 200: Account },
    handler: async ({ params, body }, ctx) => updateAccount(ctx, params.id, body),
  }),
];
