// Register, log in and refresh: the routes that turn credentials into tokens.
import { recordAudit } from '../audit/audit.ts';
import { withTenant } from '../db/tenant.ts';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import type { PublicCtx } from '../http/context.ts';
import { conflict, HttpError, unauthorized } from '../http/problem.ts';
import { LoginBody, LoginResponse, RefreshBody, RegisterBody, RegisterResponse } from './auth.schemas.ts';
import { hashPassword, isSha256Hex } from './passwords.ts';
import { loginResponse, startSession } from './sessions.ts';
import { signIn } from './sign-in.ts';
import { parseOpaqueToken } from './tokens.ts';

function meta(ctx: PublicCtx) {
  return { ip: ctx.ip, userAgent: ctx.userAgent, now: ctx.deps.now() };
}

export const loginRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/auth/register',
    module: 'auth',
    access: 'write',
    auth: 'none',
    operationId: 'register',
    tag: 'Authentication',
    // An address already registered (also when two registrations race: the unique e-mail).
    errors: ['CONFLICT'],
    summary: 'Create a business (tenant), its first user (owner) and its first company',
    description:
      'The password is the lowercase hex SHA-256 of the password, as at login. The plan defaults to the ' +
      "server's DEFAULT_PLAN. Answers the login response plus companyId.",
    body: RegisterBody,
    response: { 201: RegisterResponse },
    handler: async ({ body }, ctx) => {
      if (!isSha256Hex(body.password)) {
        throw new HttpError(400, 'password: must be the lowercase hex SHA-256 of the password', {
          field: 'password',
        });
      }
      const email = body.email.toLowerCase();
      const tenantId = crypto.randomUUID();
      const userId = crypto.randomUUID();
      const passwordHash = await hashPassword(body.password);
      return withTenant(ctx.root, tenantId, async (tx) => {
        const taken = await tx
          .insertInto('user_logins')
          .values({ email, tenant_id: tenantId, user_id: userId })
          .onConflict((oc) => oc.column('email').doNothing())
          .executeTakeFirst();
        if (Number(taken.numInsertedOrUpdatedRows) === 0) {
          throw conflict('An account with this e-mail address already exists; sign in instead');
        }
        await tx
          .insertInto('tenants')
          .values({ id: tenantId, name: body.tenantName, plan: body.plan ?? ctx.deps.config.defaultPlan })
          .execute();
        await tx
          .insertInto('users')
          .values({
            tenant_id: tenantId,
            id: userId,
            email,
            name: body.name,
            password_hash: passwordHash,
            role: 'owner',
          })
          .execute();
        const companyId = await ctx.deps.createFirstCompany(tx, tenantId, {
          name: body.companyName ?? body.tenantName,
          baseCurrency: body.baseCurrency ?? 'ZAR',
          vatRegistered: body.vatRegistered ?? false,
          vatNumber: body.vatNumber ?? null,
        });
        await recordAudit(tx, tenantId, {
          actorType: 'user',
          actorId: userId,
          action: 'POST /auth/register',
          resource: 'tenant',
          resourceId: tenantId,
          requestId: ctx.requestId,
          ip: ctx.ip,
          details: { tenantName: body.tenantName, email, plan: body.plan ?? ctx.deps.config.defaultPlan },
        });
        const login = await startSession(
          tx,
          ctx.deps.config.jwtSecret,
          { tenantId, userId, email, role: 'owner' },
          meta(ctx),
        );
        return { ...login, companyId };
      });
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/login',
    module: 'auth',
    access: 'write',
    auth: 'none',
    operationId: 'login',
    tag: 'Authentication',
    errors: ['INVALID_CREDENTIALS', 'TOTP_REQUIRED', 'TOTP_INVALID'],
    summary: 'Sign in with e-mail and the SHA-256 of the password (and a two-factor code when enrolled)',
    description:
      '`password` is the lowercase hex SHA-256 of the password; plaintext is refused as "Invalid email or password" ' +
      '(401 INVALID_CREDENTIALS) even when correct, as are an unknown address, a wrong password and a deactivated ' +
      'user. With two-factor on and no `totpCode`, answers 401 TOTP_REQUIRED; a wrong or used code, 401 ' +
      'TOTP_INVALID. `totpCode` takes a six-digit authenticator code or a single-use recovery code.',
    body: LoginBody,
    response: { 200: LoginResponse },
    handler: async ({ body }, ctx) => {
      const outcome = await signIn(ctx.root, body, ctx.deps.now(), async (tx, user) => {
        await recordAudit(tx, user.tenant_id, {
          actorType: 'user',
          actorId: user.id,
          action: 'POST /auth/login',
          resource: 'session',
          requestId: ctx.requestId,
          ip: ctx.ip,
        });
        return startSession(
          tx,
          ctx.deps.config.jwtSecret,
          { tenantId: user.tenant_id, userId: user.id, email: user.email, role: user.role },
          meta(ctx),
        );
      });
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/refresh',
    module: 'auth',
    access: 'write',
    auth: 'none',
    operationId: 'refreshToken',
    tag: 'Authentication',
    errors: ['UNAUTHENTICATED'],
    summary: 'Exchange a refresh token for a new access token and a new refresh token',
    description:
      'Refresh tokens rotate: each is good once. Presenting one a second time is treated as theft and ' +
      'revokes the whole session, so every token of that sign-in stops working.',
    body: RefreshBody,
    response: { 200: LoginResponse },
    handler: async ({ body }, ctx) => {
      const parsed = parseOpaqueToken(body.refreshToken);
      if (!parsed) throw unauthorized('The refresh token is not valid', 'UNAUTHENTICATED');
      const now = ctx.deps.now();
      // The reuse revocation must commit even though the answer is 401: decide inside, throw outside.
      const outcome = await withTenant(ctx.root, parsed.tenantId, async (tx) => {
        const token = await tx
          .selectFrom('refresh_tokens as t')
          .innerJoin('sessions as s', (j) =>
            j.onRef('s.tenant_id', '=', 't.tenant_id').onRef('s.id', '=', 't.session_id'),
          )
          .innerJoin('users as u', (j) =>
            j.onRef('u.tenant_id', '=', 's.tenant_id').onRef('u.id', '=', 's.user_id'),
          )
          .select([
            't.id',
            't.used_at',
            't.expires_at',
            's.id as session_id',
            's.revoked_at',
            's.expires_at as session_expires_at',
            'u.id as user_id',
            'u.email',
            'u.role',
            'u.active',
          ])
          .where('t.tenant_id', '=', parsed.tenantId)
          .where('t.token_hash', '=', parsed.hash)
          .executeTakeFirst();
        if (
          !token ||
          token.revoked_at ||
          !token.active ||
          token.expires_at <= now ||
          token.session_expires_at <= now
        ) {
          return { error: 'The refresh token is not valid' };
        }
        const used = await tx
          .updateTable('refresh_tokens')
          .set({ used_at: now })
          .where('tenant_id', '=', parsed.tenantId)
          .where('id', '=', token.id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (token.used_at || Number(used.numUpdatedRows) === 0) {
          await tx
            .updateTable('sessions')
            .set({ revoked_at: now, revoked_reason: 'refresh token reused' })
            .where('tenant_id', '=', parsed.tenantId)
            .where('id', '=', token.session_id)
            .execute();
          await recordAudit(tx, parsed.tenantId, {
            actorType: 'user',
            actorId: token.user_id,
            action: 'refresh token reused',
            resource: 'session',
            resourceId: token.session_id,
            requestId: ctx.requestId,
            ip: ctx.ip,
          });
          return { error: 'The refresh token was already used; the session has been revoked' };
        }
        // lastUsedAt in GET /auth/sessions: the sign-in or the latest refresh.
        await tx
          .updateTable('sessions')
          .set({ last_used_at: now })
          .where('tenant_id', '=', parsed.tenantId)
          .where('id', '=', token.session_id)
          .execute();
        return {
          login: await loginResponse(
            tx,
            ctx.deps.config.jwtSecret,
            { tenantId: parsed.tenantId, userId: token.user_id, email: token.email, role: token.role },
            token.session_id,
            now,
          ),
        };
      });
      if ('error' in outcome) throw unauthorized(outcome.error, 'UNAUTHENTICATED');
      return outcome.login;
    },
  }),
];
