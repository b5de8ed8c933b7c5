// Test helpers for the sign-in tests: log in, add a second user to a tenant, read the
// password-reset e-mails a tenant was sent.
import type { FastifyInstance } from 'fastify';
import { sha256, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { hashPassword } from './passwords.ts';

export function login(app: FastifyInstance, email: string, password: string, totpCode?: string) {
  return app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password: sha256(password), ...(totpCode ? { totpCode } : {}) },
  });
}

export function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({ method: 'POST', url: '/auth/refresh', payload: { refreshToken } });
}

/** A second user of an existing tenant, written straight to the database (no invite route here). */
export async function addUser(t: TestApp, tenantId: string, role = 'viewer') {
  const userId = crypto.randomUUID();
  const email = `user.${userId.slice(0, 8)}@example.co.za`;
  const password = `Second user ${userId}`;
  const passwordHash = await hashPassword(sha256(password));
  await withTenant(t.database.db, tenantId, async (tx) => {
    await tx.insertInto('user_logins').values({ email, tenant_id: tenantId, user_id: userId }).execute();
    await tx
      .insertInto('users')
      .values({ tenant_id: tenantId, id: userId, email, name: 'Second', password_hash: passwordHash, role })
      .execute();
  });
  return { userId, email, password };
}

export function resetEmails(t: TestApp, tenantId: string) {
  return withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('emails')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'password-reset')
      .orderBy('created_at')
      .execute(),
  );
}

/** The token from the reset link in an e-mail's text. */
export function tokenFromEmail(text: string): string {
  const m = /\/reset-password\?token=(\S+)/.exec(text);
  if (!m) throw new Error(`no reset link in: ${text}`);
  return decodeURIComponent(m[1]!);
}
