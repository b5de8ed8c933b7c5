import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { EMAIL_QUEUE } from '../mail/mailer.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ config: { publicBaseUrl: 'https://books.example.co.za' } });
});
after(() => t.close());

const DAY_MS = 86_400_000;

/** Invites someone without a password; answers their user id, address and the e-mailed token. */
async function invite(owner: Registered, roleId = 'sales') {
  const email = `invitee.${crypto.randomUUID().slice(0, 8)}@example.co.za`;
  const res = await as(
    t.app,
    owner.token,
  )({
    method: 'POST',
    url: '/api/users',
    payload: { email, name: 'Lerato Mokoena', roleId },
  });
  assert.equal(res.statusCode, 201, res.body);
  const emails = await withTenant(t.database.db, owner.tenantId, (tx) =>
    tx.selectFrom('emails').selectAll().where('to_address', '=', email).execute(),
  );
  assert.equal(emails.length, 1);
  const token = /token=([^\s]+)/.exec(emails[0]!.text_body)?.[1];
  assert.ok(token, emails[0]!.text_body);
  return { user: res.json(), email, token: decodeURIComponent(token), message: emails[0]! };
}

function accept(token: string, password: string) {
  return t.app.inject({ method: 'POST', url: '/auth/accept-invitation', payload: { token, password } });
}

describe('invitations', () => {
  test('an invitation e-mail is stored with a single-use link; the invitee cannot sign in before accepting', async () => {
    const a = await register(t.app, { tenantName: 'Acme Trading' });
    const { user, email, token, message } = await invite(a);
    assert.equal(user.invitationPending, true);
    assert.equal(user.active, true);
    assert.equal(message.kind, 'invitation');
    assert.equal(message.status, 'stored');
    assert.match(message.subject, /Acme Trading/);
    assert.match(message.text_body, /https:\/\/books\.example\.co\.za\/accept-invitation\?token=/);
    assert.ok(token.startsWith(`${a.tenantId}.`));
    const tokens = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('user_tokens').selectAll().where('user_id', '=', user.id).execute(),
    );
    assert.equal(tokens.length, 1);
    assert.equal(tokens[0]!.purpose, 'invite');
    assert.ok(!tokens[0]!.token_hash.includes(token.split('.')[1]!), 'only a hash of the token is stored');
    const days = (tokens[0]!.expires_at.getTime() - tokens[0]!.created_at.getTime()) / DAY_MS;
    assert.ok(Math.abs(days - 7) < 0.01, String(days));
    const early = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: sha256('anything') },
    });
    assert.equal(early.statusCode, 401);
    // The job worker takes the message and, without SMTP_URL, leaves it stored (the log says so).
    for (let i = 0; ; i++) {
      const c = await t.deps.jobs.counts(EMAIL_QUEUE);
      if (c.completed >= 1 && c.created + c.retry + c.active === 0) break;
      if (i > 100) assert.fail(`the e-mail job did not finish: ${JSON.stringify(c)}`);
      await sleep(100);
    }
    const [settled] = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('emails').selectAll().where('id', '=', message.id).execute(),
    );
    assert.deepEqual([settled!.status, settled!.error, settled!.attempts], ['stored', null, 0]);
  });

  test('accepting sets the password and answers the login response; the token works once', async () => {
    const a = await register(t.app, { tenantName: 'Beta Ltd' });
    const { user, email, token } = await invite(a, 'accountant');
    const password = sha256('my new password');
    const res = await accept(token, password);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'accessToken',
      'email',
      'refreshToken',
      'role',
      'tenantId',
      'tenantName',
      'userId',
    ]);
    assert.equal(body.userId, user.id);
    assert.equal(body.email, email);
    assert.equal(body.tenantId, a.tenantId);
    assert.equal(body.tenantName, 'Beta Ltd');
    assert.equal(body.role, 'accountant');
    assert.equal((await as(t.app, body.accessToken)({ method: 'GET', url: '/api/users' })).statusCode, 200);
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    assert.equal(login.statusCode, 200);
    const record = (await as(t.app, a.token)({ method: 'GET', url: `/api/users/${user.id}` })).json();
    assert.equal(record.invitationPending, false);

    const again = await accept(token, sha256('taking over'));
    assert.equal(again.statusCode, 400);
    assert.match(again.json().detail, /^token/);
    const stillOld = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    assert.equal(stillOld.statusCode, 200);
  });

  test('an expired, unknown or malformed token, or a plaintext password, is a 400 naming the field', async () => {
    const a = await register(t.app);
    const { token } = await invite(a);
    const plaintext = await accept(token, 'my password');
    assert.equal(plaintext.statusCode, 400);
    assert.match(plaintext.json().detail, /^password/);
    for (const bad of [
      'nonsense',
      `${a.tenantId}.${'x'.repeat(43)}`,
      `${crypto.randomUUID()}.${'y'.repeat(43)}`,
    ]) {
      const res = await accept(bad, sha256('pw'));
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.json().detail, /^token/);
    }
    t.clock.advance(7 * DAY_MS + 60_000);
    try {
      const late = await accept(token, sha256('pw'));
      assert.equal(late.statusCode, 400);
      assert.match(late.json().detail, /expired/);
    } finally {
      t.clock.advance(-(7 * DAY_MS + 60_000));
    }
  });

  test('a deactivated invitee cannot accept', async () => {
    const a = await register(t.app);
    const { user, token } = await invite(a);
    const off = await as(
      t.app,
      a.token,
    )({ method: 'PATCH', url: `/api/users/${user.id}`, payload: { active: false } });
    assert.equal(off.statusCode, 200);
    assert.equal((await accept(token, sha256('pw'))).statusCode, 400);
  });

  test('accepting is recorded in the audit log without the token or the password', async () => {
    const a = await register(t.app);
    const { user, token } = await invite(a);
    const password = sha256('pw for audit');
    assert.equal((await accept(token, password)).statusCode, 200);
    const log = (
      await as(t.app, a.token)({ method: 'GET', url: `/api/audit-log?resourceId=${user.id}` })
    ).json();
    const actions = log.items.map((e: { action: string }) => e.action);
    assert.deepEqual(actions, ['POST /auth/accept-invitation', 'POST /api/users']);
    assert.equal(log.items[0].actorId, user.id);
    const raw = JSON.stringify(log);
    assert.ok(!raw.includes(password));
    assert.ok(!raw.includes(token.split('.')[1]!));
  });
});
