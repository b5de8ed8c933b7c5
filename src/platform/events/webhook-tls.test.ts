// TLS through the pinned connection: we connect to an IP our resolver chose, yet the
// certificate must be checked against the URL's name, sent as SNI. Node cannot make an
// X.509 certificate, so the test asks openssl (in every Debian image) for a self-signed
// one at run time, and skips with the reason where openssl is missing, unless
// REQUIRE_OPENSSL is set (CI), where that is a failure.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDnsServer, type TestDnsServer } from '../../../test/support/dns-server.ts';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { dnsResolver, type ResolveAddresses } from './target-addresses.ts';
import { closeWebhookDispatchers, postWebhook } from './webhook-client.ts';

/** A self-signed certificate for hooks.test only (no IP in its names), or why there is none. */
function selfSignedCertificate(): { key: string; cert: string } | string {
  const dir = mkdtempSync(join(tmpdir(), 'bp-webhook-tls-'));
  try {
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=hooks.test',
        '-addext',
        'subjectAltName=DNS:hooks.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    if (made.error || made.status !== 0)
      return `openssl could not make a certificate: ${made.error?.message ?? made.stderr}`;
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = selfSignedCertificate();
if (typeof certificate === 'string' && process.env.REQUIRE_OPENSSL) throw new Error(certificate);
const skip = typeof certificate === 'string' ? certificate : false;
const BODY = '{"type":"webhook.test"}';

let dns: TestDnsServer;
let resolve: ResolveAddresses;
let receiver: Receiver;
before(async () => {
  if (typeof certificate === 'string') return;
  // Both names point at the receiver; the certificate is only valid for one of them.
  dns = await startDnsServer(({ name }) =>
    name === 'hooks.test' || name === 'other.test' ? ['127.0.0.1'] : undefined,
  );
  resolve = dnsResolver(dns.resolver());
  receiver = await startReceiver((_req, res) => res.end('tls ok'), certificate);
});
after(async () => {
  await closeWebhookDispatchers();
  await receiver?.close();
  await dns?.close();
});

describe('postWebhook over https to a pinned address', { skip }, () => {
  const ca = typeof certificate === 'string' ? '' : certificate.cert;

  test('verifies the certificate against the URL name and sends it as SNI', async () => {
    const result = await postWebhook(
      `https://hooks.test:${receiver.port}/in`,
      BODY,
      {},
      { allowPrivate: true, resolve, ca },
    );
    assert.equal(result.status, 200, result.error);
    assert.equal(result.bodyExcerpt, 'tls ok');
    assert.equal(receiver.received.at(-1)?.servername, 'hooks.test');
  });

  test('a certificate for another name is refused, though the pinned address is the same', async () => {
    const before = receiver.received.length;
    const result = await postWebhook(
      `https://other.test:${receiver.port}/in`,
      BODY,
      {},
      { allowPrivate: true, resolve, ca },
    );
    assert.equal(result.errorKind, 'tls');
    assert.match(result.error ?? '', /ERR_TLS_CERT_ALTNAME_INVALID/);
    assert.equal(receiver.received.length, before);
  });

  test('an IP literal is checked against the IP, which this certificate does not name', async () => {
    const result = await postWebhook(
      `https://127.0.0.1:${receiver.port}/in`,
      BODY,
      {},
      { allowPrivate: true, resolve, ca },
    );
    assert.equal(result.errorKind, 'tls');
  });

  test('without trusting the self-signed certificate, verification fails: it is never switched off', async () => {
    const result = await postWebhook(
      `https://hooks.test:${receiver.port}/in`,
      BODY,
      {},
      { allowPrivate: true, resolve },
    );
    assert.equal(result.errorKind, 'tls');
    assert.match(result.error ?? '', /SELF_SIGNED/);
  });
});
