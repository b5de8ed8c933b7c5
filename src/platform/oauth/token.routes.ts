// POST /oauth/token (RFC 6749 sections 4.1.3, 5 and 6) and the authorization server's
// metadata (RFC 8414). The token endpoint answers errors in the form OAuth clients read,
// `{ error, error_description }` as application/json, with the problem fields beside them.
import type { FastifyReply } from 'fastify';
import { SCOPES } from '../auth/scopes.ts';
import { type AnyRoute, defineRoute, FORM_CONTENT_TYPE } from '../http/catalogue.ts';
import type { ErrorCode } from '../http/error-codes.ts';
import { titleFor } from '../http/problem.ts';
import { findLiveApp } from './apps.service.ts';
import { exchangeCode, OAuthError, refreshConnection } from './connections.ts';
import { clientSecretMatches } from './credentials.ts';
import { ServerMetadata, TokenForm, TokenResponse } from './oauth.schemas.ts';

interface ClientCredentials {
  id?: string;
  secret?: string;
  viaBasic: boolean;
}

/** client_secret_basic (RFC 6749 2.3.1: each part form-encoded) or client_secret_post, not both. */
function clientCredentials(
  authorization: string | undefined,
  form: { client_id?: string; client_secret?: string },
) {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!basic)
    return { id: form.client_id, secret: form.client_secret, viaBasic: false } satisfies ClientCredentials;
  if (form.client_secret !== undefined) {
    throw new OAuthError(
      400,
      'invalid_request',
      'Send the client secret one way: HTTP Basic or the form, not both',
    );
  }
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new OAuthError(401, 'invalid_client', 'HTTP Basic credentials must be client_id:client_secret');
  const unform = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
  try {
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)), viaBasic: true };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'HTTP Basic credentials are not form-encoded');
  }
}

/**
 * The RFC 6749 body, which OAuth clients read, is also a whole problem (instance and code
 * included), so that it validates against the service's one error schema: the client's own
 * credentials wrong is INVALID_CREDENTIALS, anything else about the request VALIDATION_FAILED.
 */
function sendOAuthError(reply: FastifyReply, err: OAuthError, viaBasic: boolean) {
  if (err.status === 401 && viaBasic) reply.header('www-authenticate', 'Basic realm="oauth"');
  const code: ErrorCode = err.status === 401 ? 'INVALID_CREDENTIALS' : 'VALIDATION_FAILED';
  return reply
    .code(err.status)
    .type('application/json')
    .send({
      error: err.error,
      error_description: err.description,
      type: 'about:blank',
      title: titleFor(err.status),
      status: err.status,
      detail: err.description,
      instance: '/oauth/token',
      code,
    });
}

export const oauthTokenRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/oauth/token',
    operationId: 'exchangeOAuthToken',
    tag: 'OAuth',
    // 401 invalid_client (the app's credentials); 400 invalid_request, invalid_grant, unsupported_grant_type.
    errors: ['INVALID_CREDENTIALS'],
    oauthErrors: true,
    module: 'auth',
    access: 'write',
    auth: 'none',
    consumes: FORM_CONTENT_TYPE,
    summary: 'OAuth 2 token endpoint: a code or a refresh token for an access token',
    description:
      'Form-encoded. Always authenticated with the client id and secret (HTTP Basic or `client_id` and ' +
      '`client_secret` in the form); without the secret: 401 `invalid_client`. `grant_type=authorization_code` ' +
      'with `code`, `redirect_uri` and, when the request had a `code_challenge`, `code_verifier` (S256): the code ' +
      'is good once, for ten minutes; a second use revokes what the first made. `grant_type=refresh_token` with ' +
      '`refresh_token`: single use, each answer carries the next. The access token lasts an hour and acts as the ' +
      'person who connected, with only the scopes they left ticked. Errors are RFC 6749 `{ error, ' +
      'error_description }` (application/json).',
    body: TokenForm,
    response: { 200: TokenResponse },
    handler: async ({ body, headers }, ctx) => {
      ctx.reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      let viaBasic = false;
      try {
        const client = clientCredentials(headers.authorization, body);
        viaBasic = client.viaBasic;
        if (!client.id) throw new OAuthError(401, 'invalid_client', 'client_id is required');
        if (!client.secret) {
          throw new OAuthError(
            401,
            'invalid_client',
            'The client secret is required (HTTP Basic or client_secret)',
          );
        }
        const app = await findLiveApp(ctx.root, client.id);
        if (!app || !clientSecretMatches(client.secret, app.secret_hash)) {
          throw new OAuthError(401, 'invalid_client', 'Unknown client, deleted app, or wrong client secret');
        }
        const meta = { now: ctx.deps.now(), requestId: ctx.requestId, ip: ctx.ip };
        const secret = ctx.deps.config.jwtSecret;
        switch (body.grant_type) {
          case 'authorization_code':
            return await exchangeCode(ctx.root, secret, client.id, body, meta);
          case 'refresh_token':
            return await refreshConnection(ctx.root, secret, client.id, body, meta);
          case undefined:
            throw new OAuthError(400, 'invalid_request', 'grant_type is required');
          default:
            throw new OAuthError(
              400,
              'unsupported_grant_type',
              'grant_type must be authorization_code or refresh_token',
            );
        }
      } catch (err) {
        if (err instanceof OAuthError) return sendOAuthError(ctx.reply, err, viaBasic);
        throw err;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    operationId: 'getOAuthServerMetadata',
    tag: 'OAuth',
    module: 'auth',
    access: 'read',
    auth: 'none',
    summary: 'OAuth 2 authorization server metadata (RFC 8414), for client libraries that discover',
    response: { 200: ServerMetadata },
    handler: async (_input, ctx) => {
      const base = ctx.deps.config.publicBaseUrl.replace(/\/$/, '');
      return {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: SCOPES.map((s) => s.scope),
      };
    },
  }),
];
