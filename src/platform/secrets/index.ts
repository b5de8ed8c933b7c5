// Secrets at rest: seal and open with the service's keys (SECRETS_KEY).
import type { AppDeps } from '../http/context.ts';
import { unavailable } from '../http/problem.ts';
import type { SecretKeys } from './keys.ts';

export type { SecretKeys } from './keys.ts';
export { openSecret, SecretOpenError, sealSecret } from './secrets.ts';

/** The keys, or 503 naming SECRETS_KEY when this install has none (DECISIONS.md, Environment). */
export function secretKeysOf(deps: Pick<AppDeps, 'config'>): SecretKeys {
  const keys = deps.config.secretKeys();
  if (!keys) throw unavailable('SECRETS_KEY is not set: this feature keeps secrets at rest and needs it');
  return keys;
}
