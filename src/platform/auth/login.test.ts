import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { refresh } from './auth.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('login and refresh', () => {
  test('a plaintext password is refused as "Invalid email or password" even when it is correct', async () => {
    const a = await register(t.app);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: a.email, password: a.password },
    });
    assert.equal(plain.statusCode, 401);
    assert.equal(plain.json().detail, 'Invalid email or password');
    // The same answer as a wrong password, and the right hash gets in.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: a.email, password: 'f'.repeat(64) },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().detail, plain.json().detail);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: a.email, password: sha256(a.password) },
    });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('a refresh token works once; used again it is refused and the whole session is revoked', async () => {
    const a = await register(t.app);
    const first = await refresh(t.app, a.refreshToken);
    assert.equal(first.statusCode, 200, first.body);
    const rotated = first.json();
    assert.notEqual(rotated.refreshToken, a.refreshToken);
    assert.equal(
      (await as(t.app, rotated.accessToken)({ method: 'GET', url: '/auth/sessions' })).statusCode,
      200,
    );

    const reuse = await refresh(t.app, a.refreshToken);
    assert.equal(reuse.statusCode, 401);
    assert.match(reuse.json().detail, /already used/);

    // Every token of that sign-in is dead: both access tokens and the rotated refresh token.
    for (const token of [a.token, rotated.accessToken]) {
      const res = await as(t.app, token)({ method: 'GET', url: '/auth/sessions' });
      assert.equal(res.statusCode, 401);
    }
    assert.equal((await refresh(t.app, rotated.refreshToken)).statusCode, 401);
  });

  test('a refresh moves the session lastUsedAt', async () => {
    const a = await register(t.app);
    const before = (await as(t.app, a.token)({ method: 'GET', url: '/auth/sessions' })).json()[0];
    t.clock.advance(60_000);
    try {
      const r = (await refresh(t.app, a.refreshToken)).json();
      const later = (await as(t.app, r.accessToken)({ method: 'GET', url: '/auth/sessions' })).json()[0];
      assert.equal(later.id, before.id);
      assert.ok(Date.parse(later.lastUsedAt) - Date.parse(before.lastUsedAt) >= 60_000);
      assert.equal(later.createdAt, before.createdAt);
    } finally {
      t.clock.advance(-60_000);
    }
  });

  test('an access token stops at its expiry, and a session stops at its own (30 days) even with a fresh refresh token', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    assert.equal((await api({ method: 'GET', url: '/api/companies' })).statusCode, 200);
    t.clock.advance(16 * 60_000);
    try {
      const expired = await api({ method: 'GET', url: '/api/companies' });
      assert.equal(expired.statusCode, 401);
      assert.match(expired.json().detail, /expired/);
      // Keep refreshing until the session's 30 days are over: the refresh token is new, the session is not.
      let refreshToken = a.refreshToken;
      const r = await refresh(t.app, refreshToken);
      assert.equal(r.statusCode, 200);
      refreshToken = r.json().refreshToken;
      // Past the session's 30 days, still inside the rotated refresh token's own 30 days.
      t.clock.advance(30 * 86_400_000 - 15 * 60_000);
      assert.equal((await refresh(t.app, refreshToken)).statusCode, 401);
    } finally {
      t.clock.set(new Date());
    }
  });
});
