// TOTP two-factor for the signed-in user: enrol (secret kept pending in users.totp_secret
// with totp_enabled false), confirm with a code (turns it on, issues recovery codes),
// disable, and new recovery codes. Wrong codes are 400 naming totpCode, not 401, so that
// clients do not take them for an expired token.
import type { TenantCtx } from '../http/context.ts';
import { badRequest, conflict } from '../http/problem.ts';
import { signedInUser } from './principal.ts';
import {
  checkSecondFactor,
  newTotpSecret,
  recoveryCodesLeft,
  regenerateRecoveryCodes,
  retireRecoveryCodes,
  totpFor,
  useTotp,
} from './second-factor.ts';

async function callerTotp(ctx: TenantCtx) {
  return ctx.db
    .selectFrom('users')
    .select(['email', 'totp_secret', 'totp_enabled'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', signedInUser(ctx).userId)
    .executeTakeFirstOrThrow();
}

async function setTotp(ctx: TenantCtx, secret: string | null, enabled: boolean) {
  await ctx.db
    .updateTable('users')
    // A new secret starts a new sequence of time steps.
    .set({
      totp_secret: secret,
      totp_enabled: enabled,
      updated_at: ctx.deps.now(),
      ...(enabled ? {} : { totp_last_step: null }),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', signedInUser(ctx).userId)
    .execute();
}

const ALREADY_ON = 'Two-factor sign-in is already on; turn it off first to enrol another authenticator';
const NOT_ON = 'Two-factor sign-in is not on';

export async function twoFactorStatus(ctx: TenantCtx) {
  const user = await callerTotp(ctx);
  return {
    enabled: user.totp_enabled,
    pending: !user.totp_enabled && user.totp_secret !== null,
    recoveryCodesLeft: user.totp_enabled
      ? await recoveryCodesLeft(ctx.db, ctx.tenantId, signedInUser(ctx).userId)
      : 0,
  };
}

/** A new pending secret; enrolling again before confirming replaces it. */
export async function enrolTotp(ctx: TenantCtx) {
  const user = await callerTotp(ctx);
  if (user.totp_enabled) throw conflict(ALREADY_ON);
  const secret = newTotpSecret();
  await setTotp(ctx, secret, false);
  return { otpauthUri: totpFor(secret, user.email).toString(), secret };
}

export async function confirmTotp(ctx: TenantCtx, code: string) {
  const user = await callerTotp(ctx);
  if (user.totp_enabled) throw conflict(ALREADY_ON);
  if (!user.totp_secret) throw conflict('Nothing to confirm: enrol first with POST /auth/2fa/enrol');
  const now = ctx.deps.now();
  const confirmed = await useTotp(
    ctx.db,
    { tenantId: ctx.tenantId, userId: signedInUser(ctx).userId, totpSecret: user.totp_secret },
    code.trim(),
    now,
  );
  if (!confirmed) {
    throw badRequest('totpCode', 'is not the current code of the enrolled authenticator');
  }
  await setTotp(ctx, user.totp_secret, true);
  return {
    recoveryCodes: await regenerateRecoveryCodes(ctx.db, ctx.tenantId, signedInUser(ctx).userId, now),
  };
}

/** Two-factor must be on and the code (authenticator or recovery) right; a recovery code is spent. */
async function requireSecondFactor(ctx: TenantCtx, code: string) {
  const user = await callerTotp(ctx);
  if (!user.totp_enabled || !user.totp_secret) throw conflict(NOT_ON);
  const ok = await checkSecondFactor(
    ctx.db,
    { tenantId: ctx.tenantId, userId: signedInUser(ctx).userId, totpSecret: user.totp_secret },
    code,
    ctx.deps.now(),
  );
  if (!ok) throw badRequest('totpCode', 'is not a valid authenticator or recovery code');
}

export async function disableTotp(ctx: TenantCtx, code: string) {
  await requireSecondFactor(ctx, code);
  await setTotp(ctx, null, false);
  await retireRecoveryCodes(ctx.db, ctx.tenantId, signedInUser(ctx).userId, ctx.deps.now());
  return twoFactorStatus(ctx);
}

export async function replaceRecoveryCodes(ctx: TenantCtx, code: string) {
  await requireSecondFactor(ctx, code);
  return {
    recoveryCodes: await regenerateRecoveryCodes(
      ctx.db,
      ctx.tenantId,
      signedInUser(ctx).userId,
      ctx.deps.now(),
    ),
  };
}
