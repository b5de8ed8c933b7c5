import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { addUser, login, refresh } from './auth.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const sessionsOf = (token: string) => as(t.app, token)({ method: 'GET', url: '/auth/sessions' });

describe('sessions', () => {
  test("GET /auth/sessions lists the caller's active sessions and marks the current one", async () => {
    const a = await register(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'user-agent': 'Phone app 1.0' },
      payload: { email: a.email, password: sha256(a.password) },
    });
    assert.equal(second.statusCode, 200);
    const res = await sessionsOf(second.json().accessToken);
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json();
    assert.equal(list.length, 2);
    const current = list.filter((s: { current: boolean }) => s.current);
    assert.equal(current.length, 1);
    assert.equal(current[0].userAgent, 'Phone app 1.0');
    for (const s of list) {
      assert.match(s.id, /^[0-9a-f-]{36}$/);
      for (const k of ['createdAt', 'lastUsedAt', 'expiresAt']) assert.ok(!Number.isNaN(Date.parse(s[k])), k);
      assert.ok('ip' in s);
    }
    // Another user of the same tenant sees only their own.
    const other = await addUser(t, a.tenantId);
    const otherLogin = (await login(t.app, other.email, other.password)).json();
    assert.equal((await sessionsOf(otherLogin.accessToken)).json().length, 1);
  });

  test('deleting one session ends only that one, on the next request', async () => {
    const a = await register(t.app);
    const phone = (await login(t.app, a.email, a.password)).json();
    const phoneSession = (await sessionsOf(phone.accessToken))
      .json()
      .find((s: { current: boolean }) => s.current).id;
    const del = await as(t.app, a.token)({ method: 'DELETE', url: `/auth/sessions/${phoneSession}` });
    assert.equal(del.statusCode, 204, del.body);
    assert.equal((await sessionsOf(phone.accessToken)).statusCode, 401);
    assert.equal((await refresh(t.app, phone.refreshToken)).statusCode, 401);
    // The caller's own session goes on.
    const mine = await sessionsOf(a.token);
    assert.equal(mine.statusCode, 200);
    assert.equal(mine.json().length, 1);
    assert.notEqual(mine.json()[0].id, phoneSession);
    assert.equal(mine.json()[0].current, true);
    assert.equal((await refresh(t.app, a.refreshToken)).statusCode, 200);
    // Deleting it again: it is no longer an active session.
    const again = await as(t.app, a.token)({ method: 'DELETE', url: `/auth/sessions/${phoneSession}` });
    assert.equal(again.statusCode, 404);
  });

  test("another user's or another tenant's session id is a 404 and stays alive", async () => {
    const a = await register(t.app);
    const colleague = await addUser(t, a.tenantId, 'admin');
    const colleagueLogin = (await login(t.app, colleague.email, colleague.password)).json();
    const colleagueSession = (await sessionsOf(colleagueLogin.accessToken)).json()[0].id;
    const b = await register(t.app);
    const bSession = (await sessionsOf(b.token)).json()[0].id;

    for (const id of [colleagueSession, bSession]) {
      const res = await as(t.app, a.token)({ method: 'DELETE', url: `/auth/sessions/${id}` });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().detail, 'Session not found');
    }
    assert.equal((await sessionsOf(colleagueLogin.accessToken)).statusCode, 200);
    assert.equal((await sessionsOf(b.token)).statusCode, 200);
    const bad = await as(t.app, a.token)({ method: 'DELETE', url: '/auth/sessions/not-a-uuid' });
    assert.equal(bad.statusCode, 400);
  });

  test('revoke-all ends every session of the caller, the current one too, on the next request', async () => {
    const a = await register(t.app);
    const phone = (await login(t.app, a.email, a.password)).json();
    const other = await register(t.app); // someone else entirely
    const res = await as(t.app, a.token)({ method: 'POST', url: '/auth/sessions/revoke-all' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { revoked: 2 });
    for (const token of [a.token, phone.accessToken]) assert.equal((await sessionsOf(token)).statusCode, 401);
    for (const r of [a.refreshToken, phone.refreshToken])
      assert.equal((await refresh(t.app, r)).statusCode, 401);
    assert.equal((await sessionsOf(other.token)).statusCode, 200);
    // Signing in again works.
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200);
  });

  test('logout ends the current session only', async () => {
    const a = await register(t.app);
    const phone = (await login(t.app, a.email, a.password)).json();
    const out = await as(t.app, phone.accessToken)({ method: 'POST', url: '/auth/logout' });
    assert.equal(out.statusCode, 204);
    assert.equal((await sessionsOf(phone.accessToken)).statusCode, 401);
    assert.equal((await refresh(t.app, phone.refreshToken)).statusCode, 401);
    assert.equal((await sessionsOf(a.token)).statusCode, 200);
  });

  test('the session routes need a token', async () => {
    for (const [method, url] of [
      ['GET', '/auth/sessions'],
      ['POST', '/auth/sessions/revoke-all'],
      ['POST', '/auth/logout'],
      ['DELETE', `/auth/sessions/${crypto.randomUUID()}`],
    ] as const) {
      assert.equal((await t.app.inject({ method, url })).statusCode, 401, url);
    }
  });
});
