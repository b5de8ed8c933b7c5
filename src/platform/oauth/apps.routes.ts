// /api/oauth/apps: register an app (the client secret answered once), list, get, delete.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { IdParams } from '../http/schema-basics.ts';
import { createOAuthApp, deleteOAuthApp, getOAuthApp, listOAuthApps } from './apps.service.ts';
import { OAuthApp, OAuthAppCreate, OAuthAppCreated } from './oauth.schemas.ts';

const audit = { resource: 'oauth_app' };

export const oauthAppRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/api/oauth/apps',
    operationId: 'createOAuthApp',
    tag: 'OAuth apps',
    errors: ['PLAN_HAS_NO_API_KEYS', 'USER_TOKEN_REQUIRED'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: 'Register an OAuth app for other businesses to connect; the client secret is shown this once',
    description:
      'People of any business connect the app through GET /oauth/authorize; the app then calls POST /oauth/token ' +
      'with its client id and secret. `redirectUris` are matched exactly. Needs a plan with API access ' +
      '(403 PLAN_HAS_NO_API_KEYS) and a signed-in user (403 USER_TOKEN_REQUIRED for a key).',
    body: OAuthAppCreate,
    response: { 201: OAuthAppCreated },
    handler: async ({ body }, ctx) => createOAuthApp(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/oauth/apps',
    operationId: 'listOAuthApps',
    tag: 'OAuth apps',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: "The business's OAuth apps, deleted ones included (bare array, newest first)",
    response: { 200: Type.Array(OAuthApp) },
    handler: async (_input, ctx) => listOAuthApps(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/oauth/apps/{id}',
    operationId: 'getOAuthApp',
    tag: 'OAuth apps',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'One OAuth app',
    params: IdParams,
    response: { 200: OAuthApp },
    handler: async ({ params }, ctx) => getOAuthApp(ctx, params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/oauth/apps/{id}',
    operationId: 'deleteOAuthApp',
    tag: 'OAuth apps',
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: 'Delete an OAuth app: no new connections, no refreshes',
    description:
      'Takes effect at once for sign-ins and refreshes; access tokens already issued run out within their hour. ' +
      'Each connected business can also revoke its connection in its key list at any time.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteOAuthApp(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
