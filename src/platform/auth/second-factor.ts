// TOTP (otpauth) and single-use recovery codes. A login's totpCode is told apart by shape:
// six digits is an authenticator code, anything else is tried as a recovery code.
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Tx } from '../db/tenant.ts';
import { sha256Hex } from './tokens.ts';

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Business Platform';

export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

const PERIOD_MS = 30_000;

/** The time step a code belongs to: the current one or one either side (clock drift). */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32, 'x').validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / PERIOD_MS) + delta;
}

/**
 * Accepts an authenticator code once: its step must be later than the last step this
 * user had accepted, and is recorded in the same statement (two racing uses: one wins).
 */
export async function useTotp(
  tx: Tx,
  user: { tenantId: string; userId: string; totpSecret: string },
  code: string,
  now: Date,
): Promise<boolean> {
  const step = totpStep(user.totpSecret, code, now);
  if (step === null) return false;
  const r = await tx
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('tenant_id', '=', user.tenantId)
    .where('id', '=', user.userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Recovery codes read like "abcd-efgh-jk"; stored as SHA-256 of the normalised code. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

/** Retires every unused recovery code of a user (kept as history, never deleted). */
export async function retireRecoveryCodes(tx: Tx, tenantId: string, userId: string, now: Date) {
  await tx
    .updateTable('recovery_codes')
    .set({ retired_at: now })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('retired_at', 'is', null)
    .execute();
}

/** How many recovery codes a user has left. */
export async function recoveryCodesLeft(tx: Tx, tenantId: string, userId: string): Promise<number> {
  const r = await tx
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('retired_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Replaces a user's recovery codes with ten new ones; answers the plaintext once. */
export async function regenerateRecoveryCodes(tx: Tx, tenantId: string, userId: string, now: Date) {
  await retireRecoveryCodes(tx, tenantId, userId, now);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insertInto('recovery_codes')
    .values(
      codes.map((c) => ({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        user_id: userId,
        code_hash: sha256Hex(normaliseRecoveryCode(c)),
      })),
    )
    .execute();
  return codes;
}

/** Uses a recovery code once; false when unknown, used or retired. */
export async function consumeRecoveryCode(
  tx: Tx,
  tenantId: string,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const r = await tx
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('code_hash', '=', sha256Hex(normaliseRecoveryCode(code)))
    .where('used_at', 'is', null)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Checks a login's second factor: an authenticator code or a recovery code. */
export async function checkSecondFactor(
  tx: Tx,
  user: { tenantId: string; userId: string; totpSecret: string },
  code: string,
  now: Date,
): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return useTotp(tx, user, trimmed, now);
  return consumeRecoveryCode(tx, user.tenantId, user.userId, trimmed, now);
}
