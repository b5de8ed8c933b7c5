// GET and POST /oauth/authorize: the service's own sign-in page for connecting an app.
// GET shows it; the form posts back here. A good sign-in sends the browser to the app's
// address with a single-use code and the state; Cancel sends `error=access_denied`.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { SignedInUser } from '../auth/sign-in.ts';
import { signIn, signInSecondStep } from '../auth/sign-in.ts';
import { sha256Hex } from '../auth/tokens.ts';
import type { Tx } from '../db/tenant.ts';
import { type AnyRoute, defineRoute, FORM_CONTENT_TYPE } from '../http/catalogue.ts';
import type { PublicCtx } from '../http/context.ts';
import {
  type AuthorizationRequest,
  type Checked,
  checkAuthorizationRequest,
} from './authorization-request.ts';
import { issueCode, whyCannotConnect } from './connections.ts';
import { redirectWith } from './credentials.ts';
import { AuthorizeForm, AuthorizeQuery } from './oauth.schemas.ts';
import { signPending, verifyPending } from './pending-sign-in.ts';
import { credentialsPage, errorPage, PAGE_HEADERS, secondFactorPage } from './sign-in-page.ts';

const Html = Type.String({ description: 'The sign-in page (text/html)' });

function page(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

function redirect(reply: FastifyReply, location: string) {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
}

/** Answers a request that failed its checks; undefined when it passed. */
function refuse(reply: FastifyReply, checked: Checked) {
  if (checked.kind === 'page-error') return page(reply, 400, errorPage(checked.message));
  if (checked.kind === 'redirect-error') {
    return redirect(
      reply,
      redirectWith(checked.redirectUri, {
        error: checked.error,
        error_description: checked.description,
        state: checked.state,
      }),
    );
  }
  return undefined;
}

type Grant = { code: string } | { refused: string };

/** Once the person is known: may they connect, and if so the code. */
function grant(ctx: PublicCtx, request: AuthorizationRequest, ticked: string[]) {
  return async (tx: Tx, user: SignedInUser): Promise<Grant> => {
    const why = await whyCannotConnect(tx, user);
    if (why) return { refused: why };
    const meta = { now: ctx.deps.now(), requestId: ctx.requestId, ip: ctx.ip };
    return { code: await issueCode(tx, user, request, ticked, meta) };
  };
}

export const authorizeRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/oauth/authorize',
    operationId: 'authorizeOAuth',
    tag: 'OAuth',
    module: 'auth',
    access: 'read',
    auth: 'none',
    produces: 'text/html',
    summary: 'OAuth 2 sign-in page: a person signs in (two-factor included) and allows an app',
    description:
      'Query: `response_type=code`, `client_id`, `redirect_uri` (exactly one the app registered), `scope` ' +
      '(space-separated), `state` (echoed), and for PKCE `code_challenge` with `code_challenge_method=S256`. ' +
      'An unknown app or unregistered address is shown on the page (400) and never redirected to; other ' +
      'problems go back to the app as `error`. The person may untick scopes. Needs a plan with API access and ' +
      'the permission to manage API keys.',
    query: AuthorizeQuery,
    // 303: the request goes back to the app with `error` (RFC 6749 §4.1.2.1).
    response: { 200: Html, 303: Type.Null() },
    handler: async ({ query }, ctx) => {
      const checked = await checkAuthorizationRequest(ctx.root, query);
      if (checked.kind !== 'ok') return refuse(ctx.reply, checked);
      return page(
        ctx.reply,
        200,
        credentialsPage({ request: checked.request, ticked: checked.request.scopes }),
      );
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/oauth/authorize',
    operationId: 'submitOAuthSignIn',
    tag: 'OAuth',
    module: 'auth',
    access: 'write',
    auth: 'none',
    consumes: FORM_CONTENT_TYPE,
    produces: 'text/html',
    summary: "The sign-in page's form: allow (sign in) or deny",
    description:
      'Posted by the page itself. Success: 303 to the redirect address with `code` (single use, ten minutes) ' +
      'and `state`. Cancel: 303 with `error=access_denied`. A wrong password or code shows the page again.',
    body: AuthorizeForm,
    // The page again, with what went wrong: 401 a wrong password or code, 403 a person who may
    // not connect apps (the plan, the role).
    errors: ['INVALID_CREDENTIALS', 'TOTP_INVALID', 'FORBIDDEN'],
    response: { 200: Html, 303: Type.Null() },
    handler: async ({ body }, ctx) => {
      const checked = await checkAuthorizationRequest(ctx.root, body);
      if (checked.kind !== 'ok') return refuse(ctx.reply, checked);
      const request = checked.request;
      if (body.action !== 'allow') {
        return redirect(
          ctx.reply,
          redirectWith(request.redirectUri, {
            error: 'access_denied',
            error_description: 'The person declined to connect the app',
            state: request.state,
          }),
        );
      }
      const now = ctx.deps.now();
      const secret = ctx.deps.config.jwtSecret;

      if (body.pending !== undefined) {
        const pending = await verifyPending(secret, request, body.pending, now);
        if (!pending) {
          const error = 'That sign-in took too long or was changed. Please sign in again.';
          return page(ctx.reply, 400, credentialsPage({ request, ticked: request.scopes, error }));
        }
        const again = (error: string, status: number) =>
          page(
            ctx.reply,
            status,
            secondFactorPage({ request, ticked: pending.ticked, pending: body.pending as string, error }),
          );
        if (!body.totp_code?.trim()) return again('Enter the code from your authenticator app.', 400);
        const result = await signInSecondStep(
          ctx.root,
          pending,
          body.totp_code.trim(),
          now,
          grant(ctx, request, pending.ticked),
        );
        if (!result.ok) return again(result.error.message, 401);
        return finish(ctx, request, pending.ticked, result.value);
      }

      const fields = body as Record<string, string | undefined>;
      const ticked = request.scopes.filter((s) => fields[`grant.${s}`] === 'on');
      const email = body.email?.trim() ?? '';
      const again = (error: string, status: number) =>
        page(ctx.reply, status, credentialsPage({ request, ticked, error, email }));
      if (ticked.length === 0) return again('Leave at least one permission ticked, or press Cancel.', 400);
      if (!email || !body.password) return again('Enter your e-mail address and password.', 400);
      // The page sends the password as typed (over TLS); the service keeps the SHA-256 form.
      const result = await signIn(
        ctx.root,
        { email, password: sha256Hex(body.password) },
        now,
        grant(ctx, request, ticked),
      );
      if (!result.ok) {
        if (!result.secondFactorFor) return again(result.error.message, 401);
        const pending = await signPending(secret, request, { ...result.secondFactorFor, ticked }, now);
        return page(ctx.reply, 200, secondFactorPage({ request, ticked, pending }));
      }
      return finish(ctx, request, ticked, result.value);
    },
  }),
];

function finish(ctx: PublicCtx, request: AuthorizationRequest, ticked: string[], outcome: Grant) {
  if ('refused' in outcome) {
    return page(ctx.reply, 403, credentialsPage({ request, ticked, error: outcome.refused }));
  }
  return redirect(ctx.reply, redirectWith(request.redirectUri, { code: outcome.code, state: request.state }));
}
