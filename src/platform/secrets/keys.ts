// The keys that seal secrets at rest (SECRETS_KEY). One key is current: new values are sealed
// under it. The others are kept so that values sealed before a rotation still open. Each key
// has an id, written beside every value it sealed, so a value names the key that opens it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SecretKeys {
  /** The id new values are sealed under. */
  currentId: string;
  /** Every key by id (the current one included): 32 bytes each, for AES-256-GCM. */
  keys: ReadonlyMap<string, Buffer>;
}

export class SecretsKeyError extends Error {}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** 32 bytes written as 64 hex digits or as base64 (standard or URL-safe). */
function decodeKey(raw: string): Buffer {
  const s = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  if (bytes.length !== 32) {
    throw new SecretsKeyError('SECRETS_KEY: each key must be 32 bytes, as 64 hex digits or base64');
  }
  return bytes;
}

/** A key given without an id is named by its own fingerprint, so the id never changes with it. */
export function keyIdOf(key: Buffer): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

/**
 * SECRETS_KEY: one key (`<key>`), or several comma-separated `<id>:<key>` (the first is the
 * current one; the rest still open what they sealed). A bare key's id is its fingerprint.
 */
export function parseSecretKeys(raw: string): SecretKeys {
  const keys = new Map<string, Buffer>();
  let currentId: string | undefined;
  for (const part of raw.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const colon = part.indexOf(':');
    const key = decodeKey(colon < 0 ? part : part.slice(colon + 1));
    const id = colon < 0 ? keyIdOf(key) : part.slice(0, colon).trim();
    if (!KEY_ID.test(id)) {
      throw new SecretsKeyError(`SECRETS_KEY: key id "${id}" must be 1-32 letters, digits, - or _`);
    }
    if (keys.has(id)) throw new SecretsKeyError(`SECRETS_KEY: key id "${id}" is given twice`);
    keys.set(id, key);
    currentId ??= id;
  }
  if (!currentId) throw new SecretsKeyError('SECRETS_KEY is empty');
  return { currentId, keys };
}

/**
 * The key of an embedded (single-machine) install without SECRETS_KEY: generated once and kept
 * in DATA_DIR beside the database it protects, so `npm start` works on a fresh machine and the
 * values survive a restart. (Losing that file loses the sealed values: back them up together.)
 */
export function loadOrCreateSecretKeys(dataDir: string): SecretKeys {
  const file = join(dataDir, 'secrets-key');
  try {
    return parseSecretKeys(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process won the race; then read theirs.
  try {
    writeFileSync(file, `${keyIdOf(key)}:${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch {}
  return parseSecretKeys(readFileSync(file, 'utf8'));
}
