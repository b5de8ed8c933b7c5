// Checking who someone is: e-mail, password (the SHA-256 hex the client sends) and, when
// enrolled, the second factor. Shared by POST /auth/login and the OAuth sign-in page, so
// both refuse the same way and take the same time for an unknown address.
import type { Kysely, Selectable } from 'kysely';
import type { DB, UsersTable } from '../db/schema.ts';
import { type Tx, withoutTenant, withTenant } from '../db/tenant.ts';
import { type HttpError, unauthorized } from '../http/problem.ts';
import { verifyPassword } from './passwords.ts';
import { checkSecondFactor } from './second-factor.ts';

export const INVALID_LOGIN = 'Invalid email or password';

/** Every refusal of a sign-in carries its code, so that a client tells them apart without reading prose. */
const invalidCredentials = () => unauthorized(INVALID_LOGIN, 'INVALID_CREDENTIALS');

export type SignedInUser = Selectable<UsersTable>;

export type SignInResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: HttpError;
      /** Set when the password was right and only the second factor is missing. */
      secondFactorFor?: { tenantId: string; userId: string };
    };

/**
 * Checks the credentials in the user's tenant transaction and, when they hold, runs `then`
 * in that same transaction. Failures are answered, not thrown, so that a used recovery code
 * or authenticator step commits with the outcome.
 */
export async function signIn<T>(
  root: Kysely<DB>,
  credentials: { email: string; password: string; totpCode?: string },
  now: Date,
  then: (tx: Tx, user: SignedInUser) => Promise<T>,
): Promise<SignInResult<T>> {
  const email = credentials.email.trim().toLowerCase();
  const entry = await withoutTenant(root, (tx) =>
    tx.selectFrom('user_logins').selectAll().where('email', '=', email).executeTakeFirst(),
  );
  if (!entry) {
    await verifyPassword(credentials.password, null); // same time as a real check
    return { ok: false, error: invalidCredentials() };
  }
  return withTenant(root, entry.tenant_id, async (tx): Promise<SignInResult<T>> => {
    const user = await loadUser(tx, entry.tenant_id, entry.user_id);
    const ok = await verifyPassword(credentials.password, user?.password_hash);
    if (!user || !ok || !user.active) return { ok: false, error: invalidCredentials() };
    if (user.totp_enabled && user.totp_secret && !credentials.totpCode) {
      return {
        ok: false,
        error: unauthorized('Two-factor code required', 'TOTP_REQUIRED'),
        secondFactorFor: { tenantId: user.tenant_id, userId: user.id },
      };
    }
    return passSecondFactor(tx, user, credentials.totpCode, now, then);
  });
}

/**
 * The second step for someone whose password was already checked (the OAuth page asks for
 * the code on a page of its own): the user must still be active and the code must hold.
 */
export async function signInSecondStep<T>(
  root: Kysely<DB>,
  who: { tenantId: string; userId: string },
  totpCode: string,
  now: Date,
  then: (tx: Tx, user: SignedInUser) => Promise<T>,
): Promise<SignInResult<T>> {
  return withTenant(root, who.tenantId, async (tx): Promise<SignInResult<T>> => {
    const user = await loadUser(tx, who.tenantId, who.userId);
    if (!user?.active) return { ok: false, error: invalidCredentials() };
    return passSecondFactor(tx, user, totpCode, now, then);
  });
}

async function passSecondFactor<T>(
  tx: Tx,
  user: SignedInUser,
  totpCode: string | undefined,
  now: Date,
  then: (tx: Tx, user: SignedInUser) => Promise<T>,
): Promise<SignInResult<T>> {
  if (user.totp_enabled && user.totp_secret) {
    const passed =
      totpCode !== undefined &&
      (await checkSecondFactor(
        tx,
        { tenantId: user.tenant_id, userId: user.id, totpSecret: user.totp_secret },
        totpCode,
        now,
      ));
    if (!passed)
      return { ok: false, error: unauthorized('The two-factor code is not valid', 'TOTP_INVALID') };
  }
  return { ok: true, value: await then(tx, user) };
}

function loadUser(tx: Tx, tenantId: string, userId: string) {
  return tx
    .selectFrom('users')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
