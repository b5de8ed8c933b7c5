// Routes that take the API key itself as the bearer (`security: 'apiKey'` on a signed route:
// /external/leads, /admin/billing/run-monthly): a catalogue-wide test that calls every route as
// a person presents, on those, a key acting as that person (made once per token, every scope),
// so the route's input checks are reached rather than stopped at 401.
import type { FastifyInstance } from 'fastify';
import { makeKey } from '../../src/platform/auth/api-keys.factories.ts';
import type { AnyRoute } from '../../src/platform/http/catalogue.ts';

const keys = new Map<string, Promise<string>>();

export function takesKeyItself(route: AnyRoute): boolean {
  return route.auth !== 'none' && route.security === 'apiKey';
}

/** The bearer to present on `route` for the person whose access token is `token`. */
export async function bearerFor(app: FastifyInstance, route: AnyRoute, token: string): Promise<string> {
  if (!takesKeyItself(route)) return token;
  let key = keys.get(token);
  if (!key) {
    key = makeKey(app, token, { scopes: ['full'], name: 'Catalogue test key' }).then((k) => k.key);
    keys.set(token, key);
  }
  return key;
}
