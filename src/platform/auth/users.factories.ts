// Test factory: a signed-in member of a business with a given role.
import assert from 'node:assert/strict';
import { as, type Registered, sha256, type TestApp } from '../../../test/support/app.ts';

export interface Member {
  id: string;
  email: string;
  /** the SHA-256 hex sent at login */
  password: string;
  token: string;
  refreshToken: string;
}

/** Adds a user with a password to `by`'s business (by must manage users) and signs them in. */
export async function addMember(
  t: TestApp,
  by: { token: string } | Registered,
  roleId: string,
  overrides: { name?: string; email?: string } = {},
): Promise<Member> {
  const email = overrides.email ?? `m.${crypto.randomUUID().slice(0, 8)}@example.co.za`;
  const password = sha256(`pw ${email}`);
  const res = await as(
    t.app,
    by.token,
  )({
    method: 'POST',
    url: '/api/users',
    payload: { email, name: overrides.name ?? 'Member', roleId, password },
  });
  assert.equal(res.statusCode, 201, res.body);
  const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  assert.equal(login.statusCode, 200, login.body);
  return {
    id: res.json().id,
    email,
    password,
    token: login.json().accessToken,
    refreshToken: login.json().refreshToken,
  };
}
