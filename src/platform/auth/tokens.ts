// Access tokens (JWT, HS256 via jose) and opaque secrets (refresh, reset, recovery).
// Opaque tokens carry the tenant id in clear so the right tenant's rows can be searched;
// only a SHA-256 of the secret part is ever stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_SECONDS = 900;
/** Lifetime of a token exchanged from an API key (the spec's 3600 seconds). */
export const KEY_TOKEN_SECONDS = 3600;
const ISSUER = 'business-platform';

export interface AccessClaims {
  /** user id */
  sub: string;
  /** tenant id */
  tid: string;
  /** session id */
  sid: string;
}

export async function signAccessToken(
  secret: Uint8Array,
  claims: AccessClaims,
  seconds = ACCESS_TOKEN_SECONDS,
) {
  return new SignJWT({ tid: claims.tid, sid: claims.sid, typ: 'user' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(secret);
}

/** A token exchanged from an API key (typ "key"): the key and its tenant, nothing else. */
export interface KeyClaims {
  /** api key id */
  kid: string;
  /** tenant id */
  tid: string;
}

export type BearerClaims = AccessClaims | KeyClaims;

export function isKeyClaims(claims: BearerClaims): claims is KeyClaims {
  return 'kid' in claims;
}

/**
 * The access token of an API key. It carries no scopes nor role: those, and whether the
 * key is revoked, are read on every request, so revocation needs no token list.
 */
export async function signKeyAccessToken(secret: Uint8Array, claims: KeyClaims, seconds = KEY_TOKEN_SECONDS) {
  return new SignJWT({ tid: claims.tid, typ: 'key' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.kid)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(secret);
}

export type VerifyResult = { ok: true; claims: BearerClaims } | { ok: false; reason: 'expired' | 'invalid' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Signature checks of recently seen tokens, kept until the token expires. Verifying a
// JWT costs tens of microseconds on every request; the answer for one exact token string
// and key cannot change before its expiry. Whether the session still stands is checked
// in the database on every request regardless, so revocation is not delayed by this.
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { claims: BearerClaims; expMs: number; secret: Uint8Array }>();

function remember(token: string, claims: BearerClaims, expMs: number, secret: Uint8Array) {
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(token, { claims, expMs, secret });
}

export async function verifyAccessToken(
  secret: Uint8Array,
  token: string,
  nowMs = Date.now(),
): Promise<VerifyResult> {
  const seen = verified.get(token);
  if (seen && seen.secret === secret) {
    if (nowMs < seen.expMs) return { ok: true, claims: seen.claims };
    verified.delete(token);
    return { ok: false, reason: 'expired' };
  }
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
    });
    const { sub, tid, sid, typ, exp } = payload as Record<string, unknown>;
    if (typ === 'key') {
      if (typeof sub !== 'string' || typeof tid !== 'string' || !UUID.test(sub) || !UUID.test(tid)) {
        return { ok: false, reason: 'invalid' };
      }
      const claims = { kid: sub, tid };
      if (typeof exp === 'number') remember(token, claims, exp * 1000, secret);
      return { ok: true, claims };
    }
    if (typ !== 'user' || typeof sub !== 'string' || typeof tid !== 'string' || typeof sid !== 'string') {
      return { ok: false, reason: 'invalid' };
    }
    if (!UUID.test(sub) || !UUID.test(tid) || !UUID.test(sid)) return { ok: false, reason: 'invalid' };
    const claims = { sub, tid, sid };
    if (typeof exp === 'number') remember(token, claims, exp * 1000, secret);
    return { ok: true, claims };
  } catch (e) {
    return { ok: false, reason: e instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A new opaque token "<tenantId>.<secret>" and the hash to store. */
export function newOpaqueToken(tenantId: string): { token: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${tenantId}.${secret}`, hash: sha256Hex(secret) };
}

/** Splits an opaque token; undefined when it is not of our shape. */
export function parseOpaqueToken(token: string): { tenantId: string; hash: string } | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const tenantId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (!UUID.test(tenantId) || secret.length < 20 || secret.length > 200) return undefined;
  return { tenantId, hash: sha256Hex(secret) };
}

/**
 * A credential "<prefix><tenant id>.<record id>.<secret>" (API keys, OAuth codes and refresh
 * tokens): the tenant id lets the lookup run in that tenant's transaction under row-level
 * security, the record id makes it a primary-key read; only SHA-256 of the secret is kept.
 */
export function newIdSecret(prefix: string, tenantId: string, id: string): { value: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { value: `${prefix}${tenantId}.${id}.${secret}`, hash: sha256Hex(secret) };
}

/** Splits a presented id-secret credential; undefined when it is not of that shape. */
export function parseIdSecret(
  prefix: string,
  value: string,
): { tenantId: string; id: string; hash: string } | undefined {
  if (!value.startsWith(prefix)) return undefined;
  const [tenantId, id, secret, ...rest] = value.slice(prefix.length).split('.');
  if (rest.length || !tenantId || !id || !secret || !UUID.test(tenantId) || !UUID.test(id)) return undefined;
  if (secret.length < 20 || secret.length > 200) return undefined;
  return { tenantId, id, hash: sha256Hex(secret) };
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}
