// The signed-in user's own sessions: list them, end one, end them all, sign out.
// Revocation is checked on every request (principal.ts), so a revoked session's access
// and refresh tokens fail on the next request, not when they would have expired.
import type { TenantCtx } from '../http/context.ts';
import { notFound } from '../http/problem.ts';
import { signedInUser } from './principal.ts';
import { activeSessionsOf, revokeSession, revokeUserSessions } from './sessions.ts';

export async function listOwnSessions(ctx: TenantCtx) {
  const { userId, sessionId } = signedInUser(ctx);
  const rows = await activeSessionsOf(ctx.db, ctx.tenantId, userId, ctx.deps.now());
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    // Only live sessions are listed, so their last change is their last use.
    updatedAt: s.lastUsedAt.toISOString(),
    lastUsedAt: s.lastUsedAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    current: s.id === sessionId,
  }));
}

/** Another user's or another tenant's session id is a 404, as is one already ended. */
export async function revokeOwnSession(ctx: TenantCtx, sessionId: string): Promise<null> {
  const done = await revokeSession(
    ctx.db,
    ctx.tenantId,
    signedInUser(ctx).userId,
    sessionId,
    'revoked by the user',
    ctx.deps.now(),
  );
  if (!done) throw notFound('Session');
  ctx.reply.code(204);
  return null;
}

/** Every session of the caller, the current one included. */
export async function revokeAllOwnSessions(ctx: TenantCtx) {
  const revoked = await revokeUserSessions(
    ctx.db,
    ctx.tenantId,
    signedInUser(ctx).userId,
    'all sessions revoked by the user',
    ctx.deps.now(),
  );
  return { revoked };
}

export async function logout(ctx: TenantCtx): Promise<null> {
  await revokeSession(
    ctx.db,
    ctx.tenantId,
    signedInUser(ctx).userId,
    signedInUser(ctx).sessionId,
    'signed out',
    ctx.deps.now(),
  );
  ctx.reply.code(204);
  return null;
}
