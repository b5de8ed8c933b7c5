// Secrets at rest: AES-256-GCM under SECRETS_KEY, the key id beside each value.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../config.ts';
import { keyIdOf, loadOrCreateSecretKeys, parseSecretKeys, SecretsKeyError } from './keys.ts';
import { openSecret, SecretOpenError, sealSecret } from './secrets.ts';

const HEX_A = 'a1'.repeat(32);
const B64_B = Buffer.alloc(32, 7).toString('base64');

function refused(fn: () => unknown, reason: SecretOpenError['reason']) {
  assert.throws(fn, (err: unknown) => err instanceof SecretOpenError && err.reason === reason);
}

describe('sealing and opening', () => {
  test('round trip: the sealed form names its version and key, never the plain text', () => {
    const keys = parseSecretKeys(`one:${HEX_A}`);
    const sealed = sealSecret(keys, '62001234567');
    assert.match(sealed, /^v1:one:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes('62001234567'));
    assert.equal(openSecret(keys, sealed), '62001234567');
    // A fresh IV each time: the same value seals differently.
    assert.notEqual(sealSecret(keys, '62001234567'), sealed);
    assert.equal(openSecret(keys, sealSecret(keys, '')), '');
    assert.equal(openSecret(keys, sealSecret(keys, 'ünïcode ✓')), 'ünïcode ✓');
  });

  test('tampering with the ciphertext, tag, iv or key id is detected', () => {
    const keys = parseSecretKeys(`one:${HEX_A},two:${B64_B}`);
    const sealed = sealSecret(keys, '62001234567');
    const parts = sealed.split(':');
    const flip = (s: string) => {
      const b = Buffer.from(s, 'base64url');
      b[0]! ^= 1;
      return b.toString('base64url');
    };
    for (const i of [2, 3, 4]) {
      const bad = [...parts];
      bad[i] = flip(bad[i]!);
      refused(() => openSecret(keys, bad.join(':')), 'tampered');
    }
    // The header is bound as associated data: relabelling to the other key fails the tag.
    refused(() => openSecret(keys, ['v1', 'two', ...parts.slice(2)].join(':')), 'tampered');
    refused(() => openSecret(keys, 'v2:one:x:y:z'), 'malformed');
    refused(() => openSecret(keys, 'plain text'), 'malformed');
    refused(() => openSecret(keys, `${parts.slice(0, 4).join(':')}`), 'malformed');
  });

  test('rotation: a new current key seals, the old key id still opens what it sealed', () => {
    const before = parseSecretKeys(`2025:${HEX_A}`);
    const old = sealSecret(before, '1234567890');
    const after = parseSecretKeys(`2026:${B64_B},2025:${HEX_A}`);
    assert.equal(after.currentId, '2026');
    assert.equal(openSecret(after, old), '1234567890');
    assert.match(sealSecret(after, 'x'), /^v1:2026:/);
  });

  test('a key id SECRETS_KEY does not hold, or the wrong key under a known id, is refused', () => {
    const sealed = sealSecret(parseSecretKeys(`one:${HEX_A}`), 'secret');
    refused(() => openSecret(parseSecretKeys(`other:${HEX_A}`), sealed), 'unknown_key');
    refused(() => openSecret(parseSecretKeys(`one:${B64_B}`), sealed), 'tampered');
  });
});

describe('SECRETS_KEY', () => {
  test('a bare key (hex or base64) is named by its fingerprint; ids are checked', () => {
    const hex = parseSecretKeys(HEX_A);
    assert.equal(hex.currentId, keyIdOf(Buffer.from(HEX_A, 'hex')));
    assert.equal(parseSecretKeys(B64_B).keys.size, 1);
    assert.throws(() => parseSecretKeys('c2hvcnQ='), SecretsKeyError); // 5 bytes
    assert.throws(() => parseSecretKeys(`a:${HEX_A},a:${B64_B}`), SecretsKeyError);
    assert.throws(() => parseSecretKeys(`bad id:${HEX_A}`), SecretsKeyError);
    assert.throws(() => loadConfig({ DATA_DIR: tmp(), SECRETS_KEY: 'too-short' }), ConfigError);
  });

  test('unset on the embedded database: generated once into DATA_DIR (mode 600), on first use', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) });
    assert.throws(() => statSync(join(dir, 'secrets-key'))); // nothing written at start
    const keys = config.secretKeys()!;
    assert.equal(statSync(join(dir, 'secrets-key')).mode & 0o777, 0o600);
    const sealed = sealSecret(keys, 'kept');
    // A restart reads the same key back.
    assert.equal(openSecret(loadOrCreateSecretKeys(dir), sealed), 'kept');
    assert.match(readFileSync(join(dir, 'secrets-key'), 'utf8'), /^k[0-9a-f]{8}:/);
  });

  test('unset with DATABASE_URL: absent (the features answer 503 naming it), nothing generated', () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      JWT_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
    });
    assert.equal(config.secretKeys(), undefined);
  });
});

function tmp() {
  return mkdtempSync(join(tmpdir(), 'bp-secrets-'));
}
