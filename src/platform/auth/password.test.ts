import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { addUser, login, refresh, resetEmails, tokenFromEmail } from './auth.factories.ts';
import { FORGOT_PASSWORD_FLOOR_MS, FORGOT_PASSWORD_MESSAGE } from './password.service.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ config: { publicBaseUrl: 'https://books.example.co.za' } });
});
after(() => t.close());

const forgot = (email: string) =>
  t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
const reset = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password } });
const me = (token: string) => as(t.app, token)({ method: 'GET', url: '/auth/sessions' });

/** Asks for a reset e-mail and answers the token it carries. */
async function resetTokenFor(email: string, tenantId: string): Promise<string> {
  const before = (await resetEmails(t, tenantId)).length;
  assert.equal((await forgot(email)).statusCode, 202);
  const mails = await resetEmails(t, tenantId);
  assert.equal(mails.length, before + 1);
  return tokenFromEmail(mails.at(-1)!.text_body);
}

describe('forgot password', () => {
  test('202 with the same body for an unknown and a known address; only the account gets an e-mail', async () => {
    const a = await register(t.app);
    const started = performance.now();
    const unknown = await forgot(`nobody.${crypto.randomUUID()}@example.co.za`);
    const unknownMs = performance.now() - started;
    const started2 = performance.now();
    const known = await forgot(a.email.toUpperCase());
    const knownMs = performance.now() - started2;
    assert.equal(unknown.statusCode, 202);
    assert.equal(known.statusCode, 202);
    assert.equal(unknown.body, known.body);
    assert.deepEqual(known.json(), { message: FORGOT_PASSWORD_MESSAGE });
    // Both answers are held to the same floor, so the extra work for a real account does not show.
    assert.ok(unknownMs >= FORGOT_PASSWORD_FLOOR_MS - 5, `unknown took ${unknownMs} ms`);
    assert.ok(knownMs >= FORGOT_PASSWORD_FLOOR_MS - 5, `known took ${knownMs} ms`);

    const mails = await resetEmails(t, a.tenantId);
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.equal(mail.to_address, a.email);
    assert.equal(mail.status, 'stored'); // no SMTP_URL in this file
    assert.equal(mail.subject, 'Reset your password');
    const token = tokenFromEmail(mail.text_body);
    assert.ok(mail.text_body.includes(`https://books.example.co.za/reset-password?token=`));
    assert.ok(mail.text_body.includes(token), 'the token itself is in the text');
    assert.ok(token.startsWith(`${a.tenantId}.`));

    // Only the SHA-256 of the secret is stored, with the purpose and a one-hour expiry.
    const stored = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('user_tokens').selectAll().where('tenant_id', '=', a.tenantId).execute(),
    );
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.purpose, 'reset');
    assert.equal(stored[0]!.token_hash, sha256(token.slice(token.indexOf('.') + 1)));
    const lifetime = stored[0]!.expires_at.getTime() - Date.now();
    assert.ok(lifetime > 3_500_000 && lifetime <= 3_600_000, `lifetime ${lifetime}`);
  });

  test('a deactivated account gets the same 202 and no e-mail', async () => {
    const a = await register(t.app);
    const colleague = await addUser(t, a.tenantId);
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .updateTable('users')
        .set({ active: false })
        .where('tenant_id', '=', a.tenantId)
        .where('id', '=', colleague.userId)
        .execute(),
    );
    const res = await forgot(colleague.email);
    assert.equal(res.statusCode, 202);
    assert.deepEqual(res.json(), { message: FORGOT_PASSWORD_MESSAGE });
    assert.equal((await resetEmails(t, a.tenantId)).length, 0);
  });

  test('a malformed address is a 400 naming email', async () => {
    const res = await forgot('not-an-address');
    assert.equal(res.statusCode, 400);
    assert.match(res.json().detail, /^email/);
  });
});

describe('reset password', () => {
  test('sets the new password, works once, ends every earlier session, and is audited without secrets', async () => {
    const a = await register(t.app);
    const laptop = (await login(t.app, a.email, a.password)).json();
    const token = await resetTokenFor(a.email, a.tenantId);
    const newPassword = 'A much better password 2024';

    const plain = await reset(token, newPassword);
    assert.equal(plain.statusCode, 400);
    assert.equal(plain.json().field, 'password');
    assert.match(plain.json().detail, /^password: /);

    const ok = await reset(token, sha256(newPassword));
    assert.equal(ok.statusCode, 204, ok.body);

    // Earlier tokens of every session fail on the next request.
    for (const access of [a.token, laptop.accessToken]) assert.equal((await me(access)).statusCode, 401);
    for (const r of [a.refreshToken, laptop.refreshToken])
      assert.equal((await refresh(t.app, r)).statusCode, 401);
    // Old password out, new password in.
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 401);
    assert.equal((await login(t.app, a.email, newPassword)).statusCode, 200);

    const again = await reset(token, sha256('Yet another password'));
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().field, 'token');
    assert.match(again.json().detail, /already been used/);
    assert.equal((await login(t.app, a.email, newPassword)).statusCode, 200);

    const audit = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('audit_log')
        .selectAll()
        .where('tenant_id', '=', a.tenantId)
        .where('action', 'in', ['POST /auth/forgot-password', 'POST /auth/reset-password'])
        .orderBy('occurred_at')
        .execute(),
    );
    assert.deepEqual(
      audit.map((e) => e.action),
      ['POST /auth/forgot-password', 'POST /auth/reset-password'],
    );
    assert.equal(audit[1]!.resource_id, a.userId);
    assert.deepEqual(audit[1]!.details, { sessionsRevoked: 2 });
    const written = JSON.stringify(audit);
    const secret = token.slice(token.indexOf('.') + 1);
    for (const leaked of [secret, sha256(newPassword), newPassword]) assert.ok(!written.includes(leaked));
  });

  test('a reset spends the older links too', async () => {
    const a = await register(t.app);
    const older = await resetTokenFor(a.email, a.tenantId);
    const newer = await resetTokenFor(a.email, a.tenantId);
    assert.notEqual(older, newer);
    assert.equal((await reset(newer, sha256('New one'))).statusCode, 204);
    const res = await reset(older, sha256('Sneaky'));
    assert.equal(res.statusCode, 400);
    assert.match(res.json().detail, /already been used/);
  });

  test('an expired token is refused; an unknown or malformed one too', async () => {
    const a = await register(t.app);
    const token = await resetTokenFor(a.email, a.tenantId);
    t.clock.advance(61 * 60_000);
    try {
      const res = await reset(token, sha256('Too late'));
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().field, 'token');
      assert.match(res.json().detail, /expired/);
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200, 'the password is unchanged');
    // Within the hour the same token still works.
    t.clock.advance(59 * 60_000);
    try {
      assert.equal((await reset(token, sha256('Just in time'))).statusCode, 204);
    } finally {
      t.clock.advance(-59 * 60_000);
    }

    const unknown = await reset(`${a.tenantId}.${'x'.repeat(43)}`, sha256('Whatever'));
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().detail, /^token: .*not valid/);
    const malformed = await reset('garbage', sha256('Whatever'));
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().field, 'token');
    const otherTenant = await reset(`${crypto.randomUUID()}.${'y'.repeat(43)}`, sha256('Whatever'));
    assert.equal(otherTenant.statusCode, 400);
  });
});

describe('change password', () => {
  test('needs the current password; ends the other sessions and keeps this one', async () => {
    const a = await register(t.app);
    const phone = (await login(t.app, a.email, a.password)).json();
    const api = as(t.app, a.token);
    const newPassword = 'Changed password 99';

    const wrong = await api({
      method: 'POST',
      url: '/auth/password',
      payload: { currentPassword: sha256('not it'), newPassword: sha256(newPassword) },
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().field, 'currentPassword');
    const plainCurrent = await api({
      method: 'POST',
      url: '/auth/password',
      payload: { currentPassword: a.password, newPassword: sha256(newPassword) },
    });
    assert.equal(plainCurrent.statusCode, 400);
    assert.equal(plainCurrent.json().field, 'currentPassword');
    const plainNew = await api({
      method: 'POST',
      url: '/auth/password',
      payload: { currentPassword: sha256(a.password), newPassword },
    });
    assert.equal(plainNew.statusCode, 400);
    assert.equal(plainNew.json().field, 'newPassword');
    assert.equal((await me(phone.accessToken)).statusCode, 200, 'failed attempts change nothing');

    const ok = await api({
      method: 'POST',
      url: '/auth/password',
      payload: { currentPassword: sha256(a.password), newPassword: sha256(newPassword) },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { otherSessionsRevoked: 1 });

    assert.equal((await me(phone.accessToken)).statusCode, 401);
    assert.equal((await refresh(t.app, phone.refreshToken)).statusCode, 401);
    assert.equal((await me(a.token)).statusCode, 200);
    assert.equal((await refresh(t.app, a.refreshToken)).statusCode, 200);
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 401);
    assert.equal((await login(t.app, a.email, newPassword)).statusCode, 200);

    const [entry] = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('audit_log')
        .selectAll()
        .where('tenant_id', '=', a.tenantId)
        .where('action', '=', 'POST /auth/password')
        .execute(),
    );
    assert.equal(entry?.actor_id, a.userId);
    const written = JSON.stringify(entry);
    for (const leaked of [sha256(a.password), sha256(newPassword)]) assert.ok(!written.includes(leaked));
  });

  test('needs a token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/password',
      payload: { currentPassword: sha256('a'), newPassword: sha256('b') },
    });
    assert.equal(res.statusCode, 401);
  });
});
