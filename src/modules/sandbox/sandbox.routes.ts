import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Sandbox } from './sandbox.schemas.ts';
import { createSandbox, deleteSandbox, getSandbox } from './sandbox.service.ts';

const WHAT =
  'The sandbox is a separate company named Sandbox (isSandbox true; its name cannot be changed) with its ' +
  'own default chart of accounts, three sample customers and two sample products (names starting ' +
  '"Sandbox · "; contacts and products are one book per account, so they also appear in GET /api/contacts ' +
  'and GET /api/inventory/products) and three invoices posted to its own ledger: one paid, one open (due ' +
  'in the future) and one overdue, dated relative to the day it is made. Use its id as X-Company-Id to ' +
  "work in it. One sandbox at a time per account; it does not count against the plan's company allowance.";

const READ_ONLY =
  'It comes with API access (Business and above). If the plan loses API access, the sandbox becomes ' +
  'read-only: GET routes with its X-Company-Id still answer, DELETE /api/sandbox still works, and every ' +
  'write route sent with its X-Company-Id (and PATCH /api/companies/{its id}) answers 403 ' +
  'SANDBOX_READ_ONLY; writes work again when the plan includes API access again. readOnly says which.';

export const sandboxRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/sandbox',
    operationId: 'getSandbox',
    tag: 'Sandbox',
    errors: ['NOT_FOUND'],
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'The sandbox company and the ids of its sample customers, products and invoices',
    description: `${WHAT} ${READ_ONLY} 404 when the account has no sandbox. Readable on any plan.`,
    response: { 200: Sandbox },
    handler: async (_input, ctx) => getSandbox(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/sandbox',
    operationId: 'createSandbox',
    tag: 'Sandbox',
    errors: ['PLAN_HAS_NO_SANDBOX'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit: { resource: 'sandbox' },
    summary: 'Create the sandbox company with its sample data (201), or answer the one that exists (200)',
    description:
      `${WHAT} No body is needed. Creating it a second time makes nothing: the existing sandbox is answered ` +
      'with 200 (two calls at once make one sandbox). On a plan without API access (Free, Starter) the ' +
      `answer is 403 PLAN_HAS_NO_SANDBOX. ${READ_ONLY}`,
    response: createdOrExisting(Sandbox),
    handler: async (_input, ctx) => createSandbox(ctx),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/sandbox',
    operationId: 'deleteSandbox',
    tag: 'Sandbox',
    errors: ['NOT_FOUND', 'SANDBOX_IN_USE'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit: { resource: 'sandbox' },
    summary:
      'Delete the sandbox and everything in it (204), or nothing when records outside point into it (409)',
    description:
      'Soft, like every delete: the sandbox company gets a deleted marker (it leaves GET /api/companies and ' +
      'its id answers 404), and its documents, sample customers and sample products are marked deleted ' +
      "(they leave their lists; a sample record renamed since is still the sandbox's). Nothing is erased. " +
      'If a record outside the sandbox points at one of its records (a document or journal entry of another ' +
      'company naming a sample customer, an API key bound to one, a company whose parent is the sandbox), ' +
      "the delete is refused with 409 SANDBOX_IN_USE and nothing is deleted; the problem's blocking member " +
      'names them, each as { type, id, description } (type invoice, journal_entry, api_key or company; at ' +
      'most 100). Only records in force block: a void document, a reversed journal (and its reversal), a ' +
      'revoked key or a deleted record is history and keeps naming the deleted sample; voiding, reversing, ' +
      'revoking or moving the blocking record clears the way. ' +
      'Works on any plan, read-only sandbox included. A new sandbox may be created afterwards. ' +
      '404 when there is none.',
    response: { 204: Type.Null() },
    handler: async (_input, ctx) => {
      await deleteSandbox(ctx);
      ctx.reply.code(204);
      return null;
    },
  }),
];
