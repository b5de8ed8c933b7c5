// Test factory: an API key made through the API, and the token exchanged from it.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { as } from '../../../test/support/app.ts';

export interface MadeKey {
  id: string;
  key: string;
}

/** Creates a key as `token` (a user who manages access); a user key unless told otherwise. */
export async function makeKey(
  app: FastifyInstance,
  token: string,
  body: {
    scopes: string[];
    owner?: 'user' | 'business';
    roleId?: string;
    name?: string;
    rateLimitPerMinute?: number;
  },
): Promise<MadeKey> {
  const res = await as(
    app,
    token,
  )({
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: body.name ?? 'Test key', owner: body.owner ?? 'user', ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().id, key: res.json().key };
}

/** POST /auth/token with the key as bearer. */
export function exchange(app: FastifyInstance, key: string) {
  return app.inject({ method: 'POST', url: '/auth/token', headers: { authorization: `Bearer ${key}` } });
}

/** The access token exchanged from a key (asserting the exchange succeeds). */
export async function keyToken(app: FastifyInstance, key: string): Promise<string> {
  const res = await exchange(app, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().accessToken;
}

/** Creates a key and exchanges it: the token an integration would call with. */
export async function keyTokenFor(
  app: FastifyInstance,
  token: string,
  body: Parameters<typeof makeKey>[2],
): Promise<{ id: string; key: string; token: string }> {
  const made = await makeKey(app, token, body);
  return { ...made, token: await keyToken(app, made.key) };
}
