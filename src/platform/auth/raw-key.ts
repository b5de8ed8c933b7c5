// Routes called with the API key itself as the bearer token (`security: 'apiKey'` on a route
// that is not public): /external/leads, where the spec refuses an exchanged token, and
// /admin/billing/run-monthly, which takes the key or a token exchanged from it. The key is
// checked here (its secret's hash, its mode); who it acts as, its plan, scopes and meter are
// then read and applied as for any key's token, by the catalogue.
import { withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import { unauthorized } from '../http/problem.ts';
import { parseApiKey } from './api-keys.service.ts';
import { constantTimeEqual, isKeyClaims, type KeyClaims, verifyAccessToken } from './tokens.ts';

const NEEDS_KEY = 'This route takes the API key itself as the bearer token, not an access token';

/**
 * The key claims of a raw API key presented as the bearer; with `exchangedToo`, a token
 * exchanged from a key is taken as well. A person's token (or an exchanged one where only the
 * key will do) is 401 API_KEY_REQUIRED; a wrong or unknown key 401.
 */
export async function rawKeyClaims(
  deps: AppDeps,
  presented: string | undefined,
  exchangedToo: boolean,
): Promise<KeyClaims> {
  if (!presented) throw unauthorized('An API key is required as the bearer token', 'API_KEY_REQUIRED');
  const parsed = parseApiKey(presented);
  if (!parsed) {
    if (!exchangedToo) throw unauthorized(NEEDS_KEY, 'API_KEY_REQUIRED');
    const result = await verifyAccessToken(deps.config.jwtSecret, presented, deps.now().getTime());
    if (!result.ok)
      throw unauthorized(result.reason === 'expired' ? 'The token has expired' : 'The token is not valid');
    if (!isKeyClaims(result.claims))
      throw unauthorized('This route takes an API key (or a token exchanged from one)', 'API_KEY_REQUIRED');
    return result.claims;
  }
  const row = await withTenant(deps.database.db, parsed.tenantId, (tx) =>
    tx
      .selectFrom('api_keys')
      .select(['secret_hash', 'mode'])
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', parsed.keyId)
      .executeTakeFirst(),
  );
  // As at /auth/token: an OAuth connection has no secret; a test key's secret presented with the
  // live prefix is not a key.
  if (!row?.secret_hash || !constantTimeEqual(row.secret_hash, parsed.hash) || row.mode !== parsed.mode)
    throw unauthorized('The API key is not valid');
  // Revoked keys, deactivated owners and the plan are the principal's checks (catalogue).
  return { kid: parsed.keyId, tid: parsed.tenantId };
}
