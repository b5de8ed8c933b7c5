// POST /auth/token: an API key (as bearer) for an access token of one hour. The token
// names only the key and the tenant; the catalogue reads the key on every request, so
// revoking the key stops its tokens on the next request.
import type { Plan } from '../../config.ts';
import { withTenant } from '../db/tenant.ts';
import type { PublicCtx } from '../http/context.ts';
import { unauthorized } from '../http/problem.ts';
import { parseApiKey } from './api-keys.service.ts';
import { assertPlanHasApiKeys } from './limits.ts';
import { DEFAULT_KEY_RATE_LIMIT } from './principal.ts';
import { constantTimeEqual, KEY_TOKEN_SECONDS, signKeyAccessToken } from './tokens.ts';

export interface TokenExchange {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  scope: string;
  tenantId: string;
  rateLimitPerMinute: number;
}

const INVALID_KEY = 'The API key is not valid';

export async function exchangeApiKey(
  ctx: PublicCtx,
  authorization: string | undefined,
): Promise<TokenExchange> {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  // No bearer, or a bearer that is not an API key (an access token, say): the client sent the
  // wrong kind of credential, which API_KEY_REQUIRED tells apart from a key that is wrong.
  if (!presented) throw unauthorized('An API key is required as the bearer token', 'API_KEY_REQUIRED');
  const parsed = parseApiKey(presented);
  if (!parsed) throw unauthorized('The bearer token is not an API key', 'API_KEY_REQUIRED');
  const now = ctx.deps.now();
  const key = await withTenant(ctx.root, parsed.tenantId, async (tx) => {
    const row = await tx
      .selectFrom('api_keys as k')
      .innerJoin('tenants as t', 't.id', 'k.tenant_id')
      .leftJoin('users as u', (j) =>
        j.onRef('u.tenant_id', '=', 'k.tenant_id').onRef('u.id', '=', 'k.user_id'),
      )
      .select([
        'k.secret_hash',
        'k.revoked_at',
        'k.owner_type',
        'k.scopes',
        'k.rate_limit_per_minute',
        'k.mode',
        'u.active',
        't.plan',
      ])
      .where('k.tenant_id', '=', parsed.tenantId)
      .where('k.id', '=', parsed.keyId)
      .executeTakeFirst();
    // An OAuth connection has no key of its own (secret_hash NULL): it cannot be exchanged here.
    // The prefix is not hashed: a test key's secret presented as bpk_live_ is not a key.
    if (!row?.secret_hash || !constantTimeEqual(row.secret_hash, parsed.hash) || row.mode !== parsed.mode)
      throw unauthorized(INVALID_KEY);
    if (row.revoked_at) throw unauthorized('The API key has been revoked');
    if (row.owner_type === 'user' && !row.active)
      throw unauthorized("The API key's owner has been deactivated");
    assertPlanHasApiKeys(row.plan as Plan);
    await tx
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', parsed.keyId)
      .execute();
    return row;
  });
  const accessToken = await signKeyAccessToken(ctx.deps.config.jwtSecret, {
    kid: parsed.keyId,
    tid: parsed.tenantId,
  });
  return {
    accessToken,
    tokenType: 'Bearer',
    expiresIn: KEY_TOKEN_SECONDS,
    scope: key.scopes.join(' '),
    tenantId: parsed.tenantId,
    rateLimitPerMinute: key.rate_limit_per_minute ?? DEFAULT_KEY_RATE_LIMIT,
  };
}
