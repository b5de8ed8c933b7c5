// Forgot, reset and change password.
//
// Forgot-password must not tell whether an address has an account: it answers the same
// 202 for every address, takes at least FORGOT_PASSWORD_FLOOR_MS either way (so the extra
// writes for a real account do not show in the timing), and leaves the e-mail to the job
// worker, which sends it after commit (so a slow mail server does not show either).
import { recordAudit } from '../audit/audit.ts';
import { withoutTenant, withTenant } from '../db/tenant.ts';
import type { PublicCtx, TenantCtx } from '../http/context.ts';
import { badRequest } from '../http/problem.ts';
import { sendMail } from '../mail/mailer.ts';
import { hashPassword, isSha256Hex, verifyPassword } from './passwords.ts';
import { signedInUser } from './principal.ts';
import { revokeUserSessions } from './sessions.ts';
import { newOpaqueToken, parseOpaqueToken } from './tokens.ts';

export const RESET_TOKEN_MS = 3_600_000;
export const FORGOT_PASSWORD_FLOOR_MS = 250;
export const FORGOT_PASSWORD_MESSAGE =
  'If an account uses this address, an e-mail with a link to reset its password is on its way.';

const NOT_SHA256 = 'must be the lowercase hex SHA-256 of the new password';
const INVALID_RESET = 'this reset link is not valid; ask for a new one';

async function waitUntil(startedAt: number, floorMs: number) {
  const left = floorMs - (performance.now() - startedAt);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

function resetMail(name: string, link: string, token: string) {
  return [
    `Hello ${name},`,
    '',
    'Someone, we hope you, asked to reset the password of your account.',
    'Open this link within one hour to choose a new password:',
    '',
    link,
    '',
    `Or enter this reset token where the app asks for it: ${token}`,
    '',
    'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
  ].join('\n');
}

async function issueResetToken(ctx: PublicCtx, email: string): Promise<void> {
  const entry = await withoutTenant(ctx.root, (tx) =>
    tx.selectFrom('user_logins').selectAll().where('email', '=', email).executeTakeFirst(),
  );
  if (!entry) return;
  const tenantId = entry.tenant_id;
  await withTenant(ctx.root, tenantId, async (tx) => {
    const user = await tx
      .selectFrom('users')
      .select(['id', 'email', 'name', 'active'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', entry.user_id)
      .executeTakeFirst();
    if (!user?.active) return;
    const now = ctx.deps.now();
    const { token, hash } = newOpaqueToken(tenantId);
    await tx
      .insertInto('user_tokens')
      .values({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        user_id: user.id,
        purpose: 'reset',
        token_hash: hash,
        expires_at: new Date(now.getTime() + RESET_TOKEN_MS),
      })
      .execute();
    const link = `${ctx.deps.config.publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await sendMail(
      { db: tx, tenantId, deps: ctx.deps },
      {
        to: user.email,
        subject: 'Reset your password',
        text: resetMail(user.name, link, token),
        kind: 'password-reset',
      },
    );
    await recordAudit(tx, tenantId, {
      actorType: 'anonymous',
      actorId: null,
      action: 'POST /auth/forgot-password',
      resource: 'user',
      resourceId: user.id,
      requestId: ctx.requestId,
      ip: ctx.ip,
    });
  });
}

/** Answers the same for every address; only a real, active account gets an e-mail. */
export async function requestPasswordReset(ctx: PublicCtx, email: string) {
  const startedAt = performance.now();
  await issueResetToken(ctx, email.trim().toLowerCase());
  await waitUntil(startedAt, FORGOT_PASSWORD_FLOOR_MS);
  ctx.reply.code(202);
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * Sets a new password with a reset token. The token is spent (with every other outstanding
 * reset token of the user), and every session of the user is revoked.
 */
export async function resetPassword(ctx: PublicCtx, input: { token: string; password: string }) {
  if (!isSha256Hex(input.password)) throw badRequest('password', NOT_SHA256);
  const parsed = parseOpaqueToken(input.token.trim());
  if (!parsed) throw badRequest('token', INVALID_RESET);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.deps.now();
  await withTenant(ctx.root, parsed.tenantId, async (tx) => {
    const row = await tx
      .selectFrom('user_tokens as t')
      .innerJoin('users as u', (j) =>
        j.onRef('u.tenant_id', '=', 't.tenant_id').onRef('u.id', '=', 't.user_id'),
      )
      .select(['t.id', 't.user_id', 't.expires_at', 't.used_at', 'u.active'])
      .where('t.tenant_id', '=', parsed.tenantId)
      .where('t.token_hash', '=', parsed.hash)
      .where('t.purpose', '=', 'reset')
      .executeTakeFirst();
    if (!row?.active) throw badRequest('token', INVALID_RESET);
    if (row.expires_at <= now) throw badRequest('token', 'this reset link has expired; ask for a new one');
    // Conditional on used_at so that of two concurrent uses only one wins.
    const spent = await tx
      .updateTable('user_tokens')
      .set({ used_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (row.used_at || Number(spent.numUpdatedRows) === 0) {
      throw badRequest('token', 'this reset link has already been used; ask for a new one');
    }
    // Older links from earlier requests die with this reset.
    await tx
      .updateTable('user_tokens')
      .set({ used_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('user_id', '=', row.user_id)
      .where('purpose', '=', 'reset')
      .where('used_at', 'is', null)
      .execute();
    await tx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', row.user_id)
      .execute();
    const sessionsRevoked = await revokeUserSessions(tx, parsed.tenantId, row.user_id, 'password reset', now);
    await recordAudit(tx, parsed.tenantId, {
      actorType: 'user',
      actorId: row.user_id,
      action: 'POST /auth/reset-password',
      resource: 'user',
      resourceId: row.user_id,
      requestId: ctx.requestId,
      ip: ctx.ip,
      details: { sessionsRevoked },
    });
  });
  ctx.reply.code(204);
  return null;
}

/** A signed-in user changes their password; their other sessions end, this one stays. */
export async function changePassword(
  ctx: TenantCtx,
  input: { currentPassword: string; newPassword: string },
) {
  if (!isSha256Hex(input.newPassword)) throw badRequest('newPassword', NOT_SHA256);
  const { userId, sessionId } = signedInUser(ctx);
  const user = await ctx.db
    .selectFrom('users')
    .select('password_hash')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  // A plaintext current password is refused like a wrong one, as at login.
  if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
    throw badRequest('currentPassword', 'is not the current password');
  }
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(input.newPassword), updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', userId)
    .execute();
  const otherSessionsRevoked = await revokeUserSessions(
    ctx.db,
    ctx.tenantId,
    userId,
    'password changed',
    now,
    sessionId,
  );
  return { otherSessionsRevoked };
}
