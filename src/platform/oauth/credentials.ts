// The shapes of OAuth credentials, each naming the tenant whose rows it opens:
//   client id      bpapp_<developer tenant>.<app id>           (public)
//   client secret  bpcs_<random>                                (hash kept on the app)
//   code           bpcode_<connecting tenant>.<code id>.<secret>
//   refresh token  bprt_<connecting tenant>.<connection id>.<secret>
// and the checks on redirect addresses and PKCE.
import { createHash, randomBytes } from 'node:crypto';
import { constantTimeEqual, newIdSecret, parseIdSecret, sha256Hex } from '../auth/tokens.ts';
import { isUuid } from '../db/tenant.ts';

const CLIENT_ID_PREFIX = 'bpapp_';
const CLIENT_SECRET_PREFIX = 'bpcs_';
export const CODE_PREFIX = 'bpcode_';
export const REFRESH_PREFIX = 'bprt_';

/** Ten minutes, the spec's authorization code lifetime. */
export const CODE_LIFETIME_MS = 10 * 60_000;
/** A refresh token not used for sixty days lapses (each use rotates it and restarts the time). */
export const REFRESH_LIFETIME_MS = 60 * 24 * 60 * 60_000;

export function clientIdOf(tenantId: string, appId: string): string {
  return `${CLIENT_ID_PREFIX}${tenantId}.${appId}`;
}

export function parseClientId(clientId: string): { tenantId: string; appId: string } | undefined {
  if (!clientId.startsWith(CLIENT_ID_PREFIX)) return undefined;
  const [tenantId, appId, ...rest] = clientId.slice(CLIENT_ID_PREFIX.length).split('.');
  if (rest.length || !tenantId || !appId || !isUuid(tenantId) || !isUuid(appId)) return undefined;
  return { tenantId, appId };
}

export function newClientSecret(): { secret: string; hash: string } {
  const secret = `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: sha256Hex(secret) };
}

export function clientSecretMatches(presented: string, hash: string): boolean {
  return constantTimeEqual(sha256Hex(presented), hash);
}

export const newCode = (tenantId: string, id: string) => newIdSecret(CODE_PREFIX, tenantId, id);
export const parseCode = (value: string) => parseIdSecret(CODE_PREFIX, value);
export const newRefreshToken = (tenantId: string, id: string) => newIdSecret(REFRESH_PREFIX, tenantId, id);
export const parseRefreshToken = (value: string) => parseIdSecret(REFRESH_PREFIX, value);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect address cannot be registered, or undefined when it can: an absolute
 * https address (plain http only on this machine's loopback, for apps under development
 * and native apps, as RFC 8252 allows), no fragment, no user name or password.
 */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute address such as https://app.example.com/callback';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return 'must use https (plain http only for localhost, 127.0.0.1 or [::1])';
  }
  if (url.hash || value.includes('#')) return 'must not have a fragment (#...)';
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}

/** The address to send the browser back to, with our parameters added to its own. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** RFC 7636: a challenge is 43 base64url characters (SHA-256), a verifier 43 to 128 unreserved. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function pkceVerifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VERIFIER.test(verifier)) return false;
  const computed = createHash('sha256').update(verifier).digest('base64url');
  return constantTimeEqual(computed, challenge);
}
