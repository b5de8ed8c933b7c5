// What connecting an app grants, all in the connecting business: the authorization code,
// then the connection itself, an api_keys row owned by the person who connected. Being a
// key, a connection is listed and revoked with the keys, is capped by its owner's role and
// scopes, is metered like a key, and ends when its owner is deactivated. Its access tokens
// are the keys' tokens (typ "key"); its refresh token rotates on every use.
import type { Kysely } from 'kysely';
import type { Plan } from '../../config.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertRoomForAKey } from '../auth/api-keys.service.ts';
import { PLAN_TABLE } from '../auth/plans.ts';
import { permissionsOfRole } from '../auth/principal.ts';
import { resolveRole } from '../auth/roles.service.ts';
import type { SignedInUser } from '../auth/sign-in.ts';
import { constantTimeEqual, KEY_TOKEN_SECONDS, signKeyAccessToken } from '../auth/tokens.ts';
import type { DB } from '../db/schema.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import { HttpError } from '../http/problem.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import {
  CODE_LIFETIME_MS,
  newCode,
  newRefreshToken,
  parseCode,
  parseRefreshToken,
  pkceVerifierMatches,
  REFRESH_LIFETIME_MS,
} from './credentials.ts';

/** An RFC 6749 error of the token endpoint (section 5.2). */
export class OAuthError extends Error {
  readonly status: 400 | 401;
  readonly error: string;
  readonly description: string;
  constructor(status: 400 | 401, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface Meta {
  now: Date;
  requestId: string;
  ip: string;
}

/**
 * Whether this person may connect an app to their business: the plan must include API
 * access, and they must be allowed to make API keys (a connection is one), as in QuickBooks
 * Online where only those who manage the company connect apps. Answers the refusal in words.
 */
export async function whyCannotConnect(tx: Tx, user: SignedInUser): Promise<string | undefined> {
  const tenant = await tx
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', user.tenant_id)
    .executeTakeFirstOrThrow();
  if (PLAN_TABLE[tenant.plan as Plan].apiKeys === 0) {
    return `Your business's ${tenant.plan} plan does not include API access, so apps cannot be connected. Upgrade to Business or above.`;
  }
  const role = await resolveRole(tx, user.tenant_id, user.role);
  if (!permissionsOfRole(user.role, role?.permissions ?? []).allows('admin', 'manage')) {
    return 'Your role cannot connect apps: it takes the permission to manage API keys. Ask an owner or admin of your business.';
  }
  return undefined;
}

/** Step two of the flow: the single-use code for the redirect, in the person's tenant. */
export async function issueCode(
  tx: Tx,
  user: SignedInUser,
  request: AuthorizationRequest,
  ticked: string[],
  meta: Meta,
): Promise<string> {
  const id = crypto.randomUUID();
  const { value, hash } = newCode(user.tenant_id, id);
  await tx
    .insertInto('oauth_codes')
    .values({
      tenant_id: user.tenant_id,
      id,
      code_hash: hash,
      client_id: request.clientId,
      app_name: request.appName,
      user_id: user.id,
      scopes: ticked,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge ?? null,
      created_at: meta.now,
      expires_at: new Date(meta.now.getTime() + CODE_LIFETIME_MS),
      used_at: null,
      key_id: null,
    })
    .execute();
  await recordAudit(tx, user.tenant_id, {
    actorType: 'user',
    actorId: user.id,
    action: 'GET /oauth/authorize',
    resource: 'oauth_connection',
    requestId: meta.requestId,
    ip: meta.ip,
    details: { clientId: request.clientId, app: request.appName, scopes: ticked },
  });
  return value;
}

async function tokensFor(
  jwtSecret: Uint8Array,
  tenantId: string,
  keyId: string,
  refresh: string,
  scopes: string[],
): Promise<TokenAnswer> {
  return {
    access_token: await signKeyAccessToken(jwtSecret, { kid: keyId, tid: tenantId }),
    token_type: 'Bearer',
    expires_in: KEY_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

/** Failures that must still commit (a replayed code revokes what it made) are answered, not thrown. */
type Outcome = { ok: true; answer: TokenAnswer } | { ok: false; error: OAuthError };

/** grant_type=authorization_code, for an app whose client id and secret were checked. */
export async function exchangeCode(
  root: Kysely<DB>,
  jwtSecret: Uint8Array,
  clientId: string,
  form: { code?: string; redirect_uri?: string; code_verifier?: string },
  meta: Meta,
): Promise<TokenAnswer> {
  if (!form.code) throw new OAuthError(400, 'invalid_request', 'code is required');
  if (!form.redirect_uri) throw new OAuthError(400, 'invalid_request', 'redirect_uri is required');
  const parsed = parseCode(form.code);
  if (!parsed) throw invalidGrant('The code is not valid');
  const outcome = await withTenant(root, parsed.tenantId, async (tx): Promise<Outcome> => {
    const code = await tx
      .selectFrom('oauth_codes')
      .selectAll()
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', parsed.id)
      .forUpdate()
      .executeTakeFirst();
    if (!code || !constantTimeEqual(code.code_hash, parsed.hash) || code.client_id !== clientId) {
      return { ok: false, error: invalidGrant('The code is not valid') };
    }
    const burn = () =>
      tx
        .updateTable('oauth_codes')
        .set({ used_at: meta.now })
        .where('tenant_id', '=', code.tenant_id)
        .where('id', '=', code.id)
        .execute();
    if (code.used_at) {
      // A code presented twice has been seen by someone else: undo what it made (RFC 6749 4.1.2).
      if (code.key_id)
        await revokeConnection(tx, code.tenant_id, code.key_id, meta, 'authorization code reused');
      return {
        ok: false,
        error: invalidGrant('The code was already used; the connection it made has been revoked'),
      };
    }
    if (code.expires_at.getTime() <= meta.now.getTime()) {
      await burn();
      return { ok: false, error: invalidGrant('The code has expired (codes last ten minutes)') };
    }
    if (form.redirect_uri !== code.redirect_uri) {
      await burn();
      return {
        ok: false,
        error: invalidGrant('redirect_uri differs from the one in the authorization request'),
      };
    }
    if (code.code_challenge) {
      if (!form.code_verifier || !pkceVerifierMatches(form.code_verifier, code.code_challenge)) {
        await burn();
        return { ok: false, error: invalidGrant('code_verifier does not match the code_challenge') };
      }
    } else if (form.code_verifier) {
      await burn();
      return { ok: false, error: invalidGrant('code_verifier sent, but the request had no code_challenge') };
    }
    const user = await tx
      .selectFrom('users')
      .select(['active'])
      .where('tenant_id', '=', code.tenant_id)
      .where('id', '=', code.user_id)
      .executeTakeFirstOrThrow();
    if (!user.active) {
      await burn();
      return { ok: false, error: invalidGrant('The person who connected the app is no longer active') };
    }
    // Connecting an app again replaces the earlier connection rather than adding one.
    const earlier = await tx
      .selectFrom('api_keys')
      .select('id')
      .where('tenant_id', '=', code.tenant_id)
      .where('user_id', '=', code.user_id)
      .where('oauth_client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .execute();
    for (const k of earlier) await revokeConnection(tx, code.tenant_id, k.id, meta, 'connected again');
    try {
      await assertRoomForAKey({ db: tx, tenantId: code.tenant_id });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      await burn();
      return { ok: false, error: invalidGrant(err.message) };
    }
    const keyId = crypto.randomUUID();
    const refresh = newRefreshToken(code.tenant_id, keyId);
    await tx
      .insertInto('api_keys')
      .values({
        tenant_id: code.tenant_id,
        id: keyId,
        name: code.app_name,
        owner_type: 'user',
        user_id: code.user_id,
        role: null,
        created_by: code.user_id,
        scopes: code.scopes,
        rate_limit_per_minute: null,
        contact_id: null,
        display_prefix: 'oauth',
        last_four: '',
        secret_hash: null,
        created_at: meta.now,
        updated_at: meta.now,
        last_used_at: meta.now,
        oauth_client_id: clientId,
        refresh_hash: refresh.hash,
        refresh_expires_at: new Date(meta.now.getTime() + REFRESH_LIFETIME_MS),
      })
      .execute();
    await tx
      .updateTable('oauth_codes')
      .set({ used_at: meta.now, key_id: keyId })
      .where('tenant_id', '=', code.tenant_id)
      .where('id', '=', code.id)
      .execute();
    await recordAudit(tx, code.tenant_id, {
      actorType: 'user',
      actorId: code.user_id,
      action: 'POST /oauth/token',
      resource: 'oauth_connection',
      resourceId: keyId,
      requestId: meta.requestId,
      ip: meta.ip,
      details: { clientId, scopes: code.scopes },
    });
    return {
      ok: true,
      answer: await tokensFor(jwtSecret, code.tenant_id, keyId, refresh.value, code.scopes),
    };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.answer;
}

/** grant_type=refresh_token, for an app whose client id and secret were checked. */
export async function refreshConnection(
  root: Kysely<DB>,
  jwtSecret: Uint8Array,
  clientId: string,
  form: { refresh_token?: string },
  meta: Meta,
): Promise<TokenAnswer> {
  if (!form.refresh_token) throw new OAuthError(400, 'invalid_request', 'refresh_token is required');
  const parsed = parseRefreshToken(form.refresh_token);
  if (!parsed) throw invalidGrant('The refresh token is not valid');
  const outcome = await withTenant(root, parsed.tenantId, async (tx): Promise<Outcome> => {
    const key = await tx
      .selectFrom('api_keys as k')
      .innerJoin('users as u', (j) =>
        j.onRef('u.tenant_id', '=', 'k.tenant_id').onRef('u.id', '=', 'k.user_id'),
      )
      .select([
        'k.id',
        'k.scopes',
        'k.oauth_client_id',
        'k.refresh_hash',
        'k.previous_refresh_hash',
        'k.refresh_expires_at',
        'k.revoked_at',
        'u.active',
      ])
      .where('k.tenant_id', '=', parsed.tenantId)
      .where('k.id', '=', parsed.id)
      .forUpdate()
      .executeTakeFirst();
    if (!key || key.oauth_client_id !== clientId || !key.refresh_hash) {
      return { ok: false, error: invalidGrant('The refresh token is not valid') };
    }
    if (!constantTimeEqual(key.refresh_hash, parsed.hash)) {
      if (
        key.previous_refresh_hash &&
        constantTimeEqual(key.previous_refresh_hash, parsed.hash) &&
        !key.revoked_at
      ) {
        // A rotated-out token came back: someone holds a copy. End the connection.
        await revokeConnection(tx, parsed.tenantId, key.id, meta, 'refresh token reused');
        return {
          ok: false,
          error: invalidGrant('The refresh token was already used; the connection has been revoked'),
        };
      }
      return { ok: false, error: invalidGrant('The refresh token is not valid') };
    }
    if (key.revoked_at) return { ok: false, error: invalidGrant('The connection has been revoked') };
    if (!key.active) {
      return { ok: false, error: invalidGrant('The person who connected the app is no longer active') };
    }
    if (!key.refresh_expires_at || key.refresh_expires_at.getTime() <= meta.now.getTime()) {
      return { ok: false, error: invalidGrant('The refresh token has lapsed; connect the app again') };
    }
    const next = newRefreshToken(parsed.tenantId, key.id);
    await tx
      .updateTable('api_keys')
      .set({
        refresh_hash: next.hash,
        previous_refresh_hash: key.refresh_hash,
        refresh_expires_at: new Date(meta.now.getTime() + REFRESH_LIFETIME_MS),
        last_used_at: meta.now,
      })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', key.id)
      .execute();
    return { ok: true, answer: await tokensFor(jwtSecret, parsed.tenantId, key.id, next.value, key.scopes) };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.answer;
}

async function revokeConnection(tx: Tx, tenantId: string, keyId: string, meta: Meta, reason: string) {
  await tx
    .updateTable('api_keys')
    .set({ revoked_at: meta.now, updated_at: meta.now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .execute();
  await recordAudit(tx, tenantId, {
    actorType: 'system',
    actorId: null,
    action: reason,
    resource: 'oauth_connection',
    resourceId: keyId,
    requestId: meta.requestId,
    ip: meta.ip,
  });
}
