// Routes of banking: the bank rules (a bounded list in the order they run) and re-running them.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { runBankRules } from './bank-rules.run.ts';
import {
  BankRule,
  BankRuleCreate,
  BankRuleRun,
  BankRuleRunResult,
  BankRulesQuery,
  BankRuleUpdate,
} from './bank-rules.schemas.ts';
import {
  createBankRule,
  deleteBankRule,
  getBankRule,
  listBankRules,
  updateBankRule,
} from './bank-rules.service.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Bank rules', companyScoped: true });

const HOW =
  'Active rules run in priority order (lower first) on every import and when re-run, over unreconciled ' +
  "lines not coded by a person. The first rule that matches codes the line (the line's rule); a " +
  'stop-processing rule ends there, any other lets later matching rules fill only what it left unset.';

export const bankRuleRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-rules',
    operationId: 'listBankRules',
    summary: "The company's bank rules, in the order they run (bare array)",
    description: `${HOW} Deleted rules are not listed.`,
    query: BankRulesQuery,
    response: { 200: Type.Array(BankRule) },
    handler: async ({ query }, ctx) => listBankRules(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-rules/{id}',
    operationId: 'getBankRule',
    summary: 'One bank rule',
    params: IdParams,
    response: { 200: BankRule },
    handler: async ({ params }, ctx) => getBankRule(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-rules',
    operationId: 'createBankRule',
    summary: 'Add a bank rule',
    description:
      `${HOW} It codes new lines from the next import; POST /api/bank-rules/run applies it to the lines ` +
      'already held. 201; 200 with the existing rule when clientId was used.',
    body: BankRuleCreate,
    response: createdOrExisting(BankRule),
    handler: async ({ body }, ctx) => createBankRule(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bank-rules/{id}',
    operationId: 'updateBankRule',
    summary: 'Change a bank rule (or deactivate it)',
    description: 'Lines already coded keep their coding until the rules are re-run.',
    params: IdParams,
    body: BankRuleUpdate,
    response: { 200: BankRule },
    handler: async ({ params, body }, ctx) => updateBankRule(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/bank-rules/{id}',
    operationId: 'deleteBankRule',
    summary: 'Delete a bank rule',
    description:
      'Marked deleted (404 from then on); it runs no more. The lines it coded keep their coding and still name it ' +
      'until the rules are re-run.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => deleteBankRule(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-rules/run',
    operationId: 'runBankRules',
    summary: 'Run the bank rules again over the unreconciled lines',
    description:
      `${HOW} A line a rule coded before is recoded from the rules as they are now, and its coding cleared ` +
      'when none matches. Reconciled and excluded lines, superseded ones and lines a person coded are not ' +
      'touched. Answers the counts.',
    body: BankRuleRun,
    response: { 200: BankRuleRunResult },
    handler: async ({ body }, ctx) => runBankRules(ctx, body),
  }),
];
