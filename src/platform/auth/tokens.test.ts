import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newOpaqueToken, parseOpaqueToken, signAccessToken, verifyAccessToken } from './tokens.ts';

const secret = new TextEncoder().encode('unit-test-secret-unit-test-secret-0123456789');
const claims = { sub: crypto.randomUUID(), tid: crypto.randomUUID(), sid: crypto.randomUUID() };

test('a signed access token verifies to its claims, again from the cache', async () => {
  const token = await signAccessToken(secret, claims);
  assert.deepEqual(await verifyAccessToken(secret, token), { ok: true, claims });
  assert.deepEqual(await verifyAccessToken(secret, token), { ok: true, claims });
});

test('an expired token is refused as expired, including one verified earlier', async () => {
  const token = await signAccessToken(secret, claims, 60);
  assert.equal((await verifyAccessToken(secret, token)).ok, true);
  assert.deepEqual(await verifyAccessToken(secret, token, Date.now() + 61_000), {
    ok: false,
    reason: 'expired',
  });
  const fresh = await signAccessToken(secret, claims, 60);
  assert.deepEqual(await verifyAccessToken(secret, fresh, Date.now() + 61_000), {
    ok: false,
    reason: 'expired',
  });
});

test('another key, a tampered token or garbage is invalid', async () => {
  const token = await signAccessToken(secret, claims);
  await verifyAccessToken(secret, token);
  const other = new TextEncoder().encode('another-secret-another-secret-0123456789');
  assert.deepEqual(await verifyAccessToken(other, token), { ok: false, reason: 'invalid' });
  const [h, p, s] = token.split('.');
  assert.deepEqual(await verifyAccessToken(secret, `${h}.${p}x.${s}`), { ok: false, reason: 'invalid' });
  assert.deepEqual(await verifyAccessToken(secret, 'garbage'), { ok: false, reason: 'invalid' });
});

test('opaque tokens carry the tenant in clear and only a hash of the secret is kept', () => {
  const tenant = crypto.randomUUID();
  const { token, hash } = newOpaqueToken(tenant);
  const parsed = parseOpaqueToken(token);
  assert.deepEqual(parsed, { tenantId: tenant, hash });
  assert.ok(!token.includes(hash));
  assert.equal(parseOpaqueToken('not-a-token'), undefined);
  assert.equal(parseOpaqueToken(`${tenant}.short`), undefined);
});
