// A sign-in waiting for its second factor, carried in the page's form rather than held on
// the server: signed, five minutes long, bound to the exact authorization request and to
// the scopes ticked on step one, so it cannot be replayed for another app or more scopes.
// Its own audience and type keep it from ever passing as an access token.
import { jwtVerify, SignJWT } from 'jose';
import { sha256Hex } from '../auth/tokens.ts';
import type { AuthorizationRequest } from './authorization-request.ts';

const AUDIENCE = 'oauth-second-factor';
const ISSUER = 'business-platform';
const LIFETIME_SECONDS = 300;

export interface PendingSignIn {
  tenantId: string;
  userId: string;
  ticked: string[];
}

function requestHash(r: AuthorizationRequest): string {
  return sha256Hex(
    JSON.stringify([r.clientId, r.redirectUri, r.scopes, r.state ?? null, r.codeChallenge ?? null]),
  );
}

export async function signPending(
  secret: Uint8Array,
  request: AuthorizationRequest,
  p: PendingSignIn,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ typ: 'oauth-2fa', tid: p.tenantId, grant: p.ticked, req: requestHash(request) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(p.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LIFETIME_SECONDS)
    .sign(secret);
}

/** The pending sign-in, or undefined when the token is forged, expired or for another request. */
export async function verifyPending(
  secret: Uint8Array,
  request: AuthorizationRequest,
  token: string,
  now: Date,
): Promise<PendingSignIn | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    const { typ, tid, sub, grant, req } = payload as Record<string, unknown>;
    if (typ !== 'oauth-2fa' || req !== requestHash(request)) return undefined;
    if (typeof tid !== 'string' || typeof sub !== 'string' || !Array.isArray(grant)) return undefined;
    const ticked = grant.filter((g): g is string => typeof g === 'string' && request.scopes.includes(g));
    return { tenantId: tid, userId: sub, ticked };
  } catch {
    return undefined;
  }
}
