// Sessions and the tokens that belong to them. A session is one sign-in; its refresh
// tokens rotate on every use, and a refresh token used twice revokes the whole session.
import { sql } from 'kysely';
import type { Tx } from '../db/tenant.ts';
import { newOpaqueToken, signAccessToken } from './tokens.ts';

export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;

export interface LoginResponse {
  accessToken: string;
  refreshToken: string;
  userId: string;
  tenantId: string;
  email: string;
  tenantName: string;
  role: string;
}

export async function issueRefreshToken(
  tx: Tx,
  tenantId: string,
  sessionId: string,
  now: Date,
): Promise<string> {
  const { token, hash } = newOpaqueToken(tenantId);
  await tx
    .insertInto('refresh_tokens')
    .values({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      session_id: sessionId,
      token_hash: hash,
      expires_at: new Date(now.getTime() + SESSION_DAYS * DAY_MS),
    })
    .execute();
  return token;
}

/** The role as a person reads it: a built-in name, or a custom role's name. */
export async function roleLabel(tx: Tx, tenantId: string, role: string): Promise<string> {
  if (!/^[0-9a-f-]{36}$/i.test(role)) return role;
  const r = await tx
    .selectFrom('roles')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where(sql`id::text`, '=', role)
    .executeTakeFirst();
  return r?.name ?? role;
}

/** Opens a session for a user who has proved who they are, and answers the login response. */
export async function startSession(
  tx: Tx,
  secret: Uint8Array,
  user: { tenantId: string; userId: string; email: string; role: string },
  meta: { ip: string; userAgent: string | undefined; now: Date },
): Promise<LoginResponse> {
  const sessionId = crypto.randomUUID();
  await tx
    .insertInto('sessions')
    .values({
      tenant_id: user.tenantId,
      id: sessionId,
      user_id: user.userId,
      created_at: meta.now,
      last_used_at: meta.now,
      expires_at: new Date(meta.now.getTime() + SESSION_DAYS * DAY_MS),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  await tx
    .updateTable('users')
    .set({ last_login_at: meta.now })
    .where('tenant_id', '=', user.tenantId)
    .where('id', '=', user.userId)
    .execute();
  return loginResponse(tx, secret, user, sessionId, meta.now);
}

export async function loginResponse(
  tx: Tx,
  secret: Uint8Array,
  user: { tenantId: string; userId: string; email: string; role: string },
  sessionId: string,
  now: Date,
): Promise<LoginResponse> {
  const tenant = await tx
    .selectFrom('tenants')
    .select('name')
    .where('id', '=', user.tenantId)
    .executeTakeFirstOrThrow();
  return {
    accessToken: await signAccessToken(secret, { sub: user.userId, tid: user.tenantId, sid: sessionId }),
    refreshToken: await issueRefreshToken(tx, user.tenantId, sessionId, now),
    userId: user.userId,
    tenantId: user.tenantId,
    email: user.email,
    tenantName: tenant.name,
    role: await roleLabel(tx, user.tenantId, user.role),
  };
}

/** Revokes sessions of a user (all, or all but one); their tokens fail on the next request. */
export async function revokeUserSessions(
  tx: Tx,
  tenantId: string,
  userId: string,
  reason: string,
  now: Date,
  exceptSessionId?: string,
): Promise<number> {
  let q = tx
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export interface SessionRow {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** A user's sessions that still work (not revoked, not expired), most recently used first. */
export async function activeSessionsOf(
  tx: Tx,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<SessionRow[]> {
  const rows = await tx
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'ip', 'user_agent'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    ip: r.ip,
    userAgent: r.user_agent,
  }));
}

/** Revokes one session of a user; false when it is not theirs or already revoked. */
export async function revokeSession(
  tx: Tx,
  tenantId: string,
  userId: string,
  sessionId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const r = await tx
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
