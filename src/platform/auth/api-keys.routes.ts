// /api/api-keys (integration keys), POST /auth/token (a key for an access token) and
// GET /api-scopes (the scopes a key may be given).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { IdParams } from '../http/schema-basics.ts';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ScopeList, TokenExchangeResponse } from './api-keys.schemas.ts';
import { createApiKey, getApiKey, KEY_PREFIXES, listApiKeys, revokeApiKey } from './api-keys.service.ts';
import { PLAN_TABLE } from './plans.ts';
import { SCOPES } from './scopes.ts';
import { exchangeApiKey } from './token-exchange.ts';

const audit = { resource: 'api_key' };
const tag = 'API keys';

const planCounts = Object.entries(PLAN_TABLE)
  .map(([plan, l]) => `${plan} ${l.apiKeys}`)
  .join(', ');

export const apiKeyRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/api/api-keys',
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    operationId: 'createApiKey',
    tag,
    errors: [
      'NOT_FOUND',
      'PLAN_HAS_NO_API_KEYS',
      'API_KEY_LIMIT_REACHED',
      'PERMISSION_NOT_HELD',
      'OWNER_REQUIRED',
      'USER_TOKEN_REQUIRED',
    ],
    summary: 'Create an API key; the answer carries the key itself, shown this once',
    description:
      `The key (\`${KEY_PREFIXES.live}...\`) is answered once and only its hash is kept. A \`user\` key belongs ` +
      'to the caller, acts with their role as it is at each call and stops when they are deactivated. A ' +
      '`business` key survives staff leaving and acts with `roleId` (a built-in role name or a custom role ' +
      'id); nobody may give it a role with a permission they do not hold (403 PERMISSION_NOT_HELD). A ' +
      "business key made without `roleId` acts with its creator's role as it is at each call: narrowing " +
      "the creator's role narrows the key at the next request, so it never does more than the person who " +
      'made it; when the creator is deactivated it keeps working with the role their record last had. ' +
      '`scopes`: `<module>:read`, `<module>:write` (includes read) or `full` (GET /api-scopes). Whatever ' +
      'the scopes, the key never does more than its role. `contactId`, when given, names one of the ' +
      "business's contacts (the integration partner the key is for); any other id is a 404.\n\n" +
      '**Test keys.** Sent with `X-Company-Id` naming the sandbox company (POST /api/sandbox), the key is a ' +
      `test key (\`${KEY_PREFIXES.test}...\`, \`mode: "test"\`): its tokens act on the sandbox company only. A ` +
      "company-scoped call naming another company, and a write to the business's shared records (contacts, " +
      'products, companies, roles, users, keys, webhooks), answer 403 TEST_KEY_SANDBOX_ONLY; reading them is ' +
      'allowed. `X-Company-Id` naming a live company makes a live key; a company outside the business is a ' +
      '404.\n\n' +
      `Unrevoked keys per plan (test keys included): ${planCounts}; a plan without keys answers 403 ` +
      "PLAN_HAS_NO_API_KEYS, one past its count 403 API_KEY_LIMIT_REACHED. Keys are made with a signed-in user's " +
      "token (403 USER_TOKEN_REQUIRED for a key's token).",
    body: ApiKeyCreate,
    response: { 201: ApiKeyCreated },
    handler: async ({ body, headers }, ctx) => createApiKey(ctx, body, headers['x-company-id']),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/api-keys',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    operationId: 'listApiKeys',
    tag,
    summary: "The business's API keys, revoked ones included (bare array, newest first)",
    description: 'Never shows a key itself: `prefix` and `lastFour` are there to recognise one.',
    response: { 200: Type.Array(ApiKey) },
    handler: async (_input, ctx) => listApiKeys(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/api-keys/{id}',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    operationId: 'getApiKey',
    tag,
    summary: 'One API key (never the key itself)',
    params: IdParams,
    response: { 200: ApiKey },
    handler: async ({ params }, ctx) => getApiKey(ctx, params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/api-keys/{id}',
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    operationId: 'revokeApiKey',
    tag,
    summary: 'Revoke an API key: it and every token exchanged from it stop at the next request',
    description:
      'Anyone who manages access may revoke any key of the business, a business key included. The key ' +
      'stays listed with `revokedAt`; revoking it again answers 204 and keeps the first time.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await revokeApiKey(ctx, params.id);
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/token',
    module: 'auth',
    access: 'write',
    auth: 'none',
    security: 'apiKey',
    operationId: 'exchangeApiKey',
    tag: 'Authentication',
    errors: ['UNAUTHENTICATED', 'API_KEY_REQUIRED', 'PLAN_HAS_NO_API_KEYS'],
    summary: 'Exchange an API key (Authorization: Bearer <API_KEY>, no body) for an access token of one hour',
    description:
      'Send the key as the bearer token. The access token is valid for 3600 seconds; when it expires, call ' +
      'again. A revoked key, a deactivated owner (user keys) or an unknown key is a 401; a plan without ' +
      'API keys is a 403 PLAN_HAS_NO_API_KEYS. A test key (`bpk_test_`) is exchanged the same way; its ' +
      'token acts on the sandbox company only (403 TEST_KEY_SANDBOX_ONLY elsewhere).',
    response: { 200: TokenExchangeResponse },
    handler: async ({ headers }, ctx) => exchangeApiKey(ctx, headers.authorization),
  }),
  defineRoute({
    method: 'GET',
    path: '/api-scopes',
    module: 'platform',
    access: 'read',
    auth: 'none',
    operationId: 'listApiScopes',
    tag,
    summary: 'Every scope an API key may be given, with a label (bare array)',
    description: '`<module>:read` and `<module>:write` for every module (write includes read), and `full`.',
    response: { 200: ScopeList },
    handler: async () => SCOPES,
  }),
];
