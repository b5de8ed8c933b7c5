// Secrets at rest (bank account numbers, gateway credentials, bank-feed keys): ONE mechanism,
// AES-256-GCM under a key of SECRETS_KEY. A sealed value describes itself:
//   v1:<keyId>:<iv b64url>:<tag b64url>:<ciphertext b64url>
// so a value sealed before a key rotation names the older key that still opens it, and a
// changed byte anywhere (iv, tag, ciphertext, or the header, bound as associated data) fails
// the GCM tag check instead of opening to garbage.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretKeys } from './keys.ts';

const VERSION = 'v1';

export class SecretOpenError extends Error {
  readonly reason: 'malformed' | 'unknown_key' | 'tampered';
  constructor(reason: SecretOpenError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The text of `plain`, sealed under the current key. */
export function sealSecret(keys: SecretKeys, plain: string): string {
  const key = keys.keys.get(keys.currentId)!;
  const iv = randomBytes(12);
  const header = `${VERSION}:${keys.currentId}`;
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(header));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [header, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join(':');
}

/** The plain text of a sealed value; SecretOpenError when it is malformed, under an unknown key, or altered. */
export function openSecret(keys: SecretKeys, sealed: string): string {
  const parts = sealed.split(':');
  if (parts.length !== 5 || parts[0] !== VERSION) {
    throw new SecretOpenError('malformed', 'Not a sealed secret of a known version');
  }
  const [version, keyId, iv, tag, body] = parts as [string, string, string, string, string];
  const key = keys.keys.get(keyId);
  if (!key)
    throw new SecretOpenError('unknown_key', `Sealed under key "${keyId}", which SECRETS_KEY does not hold`);
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== 12 || tagBytes.length !== 16) {
    throw new SecretOpenError('malformed', 'The sealed value is cut or altered');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
    decipher.setAAD(Buffer.from(`${version}:${keyId}`));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretOpenError(
      'tampered',
      'The sealed value does not verify under its key (altered, or a wrong key)',
    );
  }
}
