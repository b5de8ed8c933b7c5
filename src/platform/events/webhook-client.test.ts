// The delivery client against real sockets: a local DNS server decides what names resolve
// to, local receivers answer. Nothing of ours is mocked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDnsServer, type TestDnsServer } from '../../../test/support/dns-server.ts';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { freePort } from '../../../test/support/server.ts';
import { dnsResolver, type ResolveAddresses } from './target-addresses.ts';
import { closeWebhookDispatchers, postWebhook } from './webhook-client.ts';
import { HOSTILE_TARGETS, PUBLIC_V4 } from './webhook-target.fixtures.ts';
import { checkWebhookUrl } from './webhook-target.ts';

const NAMED = HOSTILE_TARGETS.filter((t) => t.address !== undefined);
const JSON_BODY = JSON.stringify({ id: 'evt_1', type: 'webhook.test', data: {} });

let dns: TestDnsServer;
let resolve: ResolveAddresses;
let rebindQueries = 0;
const receivers: Receiver[] = [];

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

before(async () => {
  dns = await startDnsServer(({ name, type }) => {
    const hostile = /^h(\d+)\.hostile\.test$/.exec(name);
    if (hostile) return [NAMED[Number(hostile[1])]!.address!];
    if (name === 'rebind.hooks.test') {
      // Public for the save-time check, loopback from then on: classic DNS rebinding.
      if (type === 'A') rebindQueries += 1;
      return [rebindQueries <= 1 ? PUBLIC_V4 : '127.0.0.1'];
    }
    if (name === 'split.hooks.test') return [PUBLIC_V4, '127.0.0.1'];
    if (name === 'pinned.hooks.test') return ['127.0.0.1'];
    return undefined;
  });
  resolve = dnsResolver(dns.resolver());
});
after(async () => {
  await closeWebhookDispatchers();
  await Promise.all(receivers.map((r) => r.close()));
  await dns.close();
});

const publicOnly = (extra: { timeoutMs?: number } = {}) => ({ allowPrivate: false, resolve, ...extra });
const privateToo = (extra: { timeoutMs?: number; maxExcerptBytes?: number } = {}) => ({
  allowPrivate: true,
  resolve,
  ...extra,
});

describe('postWebhook: the address is checked again when connecting', () => {
  test('every hostile literal and special name is refused by the connector', async () => {
    for (const target of HOSTILE_TARGETS) {
      const result = await postWebhook(target.url, JSON_BODY, {}, publicOnly());
      // A zone id is not a valid URL at all; everything else reaches the connect step.
      const expected = target.url.includes('%25') ? 'invalid-url' : 'refused';
      assert.equal(result.errorKind, expected, `${target.what}: ${result.error}`);
      assert.equal(result.status, null);
      assert.equal(result.ok, false);
    }
  });

  test('names resolving to each hostile address are refused when connecting', async () => {
    for (const [i, target] of NAMED.entries()) {
      const name = `h${i}.hostile.test`;
      const before = dns.queries.filter((q) => q.name === name).length;
      const result = await postWebhook(`https://${name}/hook`, JSON_BODY, {}, publicOnly());
      assert.equal(result.errorKind, 'refused', `${target.what}: ${result.error}`);
      assert.match(result.error ?? '', new RegExp(`^${name.replaceAll('.', '\\.')} resolves to `));
      // Resolved at connect time, by our connector, through our name server.
      assert.ok(dns.queries.filter((q) => q.name === name).length > before);
    }
  });

  test('DNS rebinding: public when saved, loopback when delivered, refused at connect', async () => {
    const victim = await receiver();
    const url = `https://rebind.hooks.test:${victim.port}/hook`;
    const saved = await checkWebhookUrl(url, publicOnly());
    assert.deepEqual(saved.ok && saved.addresses, [PUBLIC_V4]);

    const result = await postWebhook(url, JSON_BODY, {}, publicOnly());
    assert.equal(result.errorKind, 'refused');
    assert.equal(
      result.error,
      'rebind.hooks.test resolves to 127.0.0.1 is a loopback address, not a public internet address',
    );
    assert.equal(victim.received.length, 0);
  });

  test('a name with one public and one loopback address is refused, not half-delivered', async () => {
    const victim = await receiver();
    const result = await postWebhook(`https://split.hooks.test:${victim.port}/`, JSON_BODY, {}, publicOnly());
    assert.equal(result.errorKind, 'refused');
    assert.match(result.error ?? '', /127\.0\.0\.1 is a loopback/);
    assert.equal(victim.received.length, 0);
  });

  test('the connection goes to the address our resolver answered (pinned), with the name as Host', async () => {
    const local = await receiver();
    const result = await postWebhook(
      `http://pinned.hooks.test:${local.port}/in`,
      JSON_BODY,
      {},
      privateToo(),
    );
    assert.equal(result.status, 200, result.error);
    // The system resolver knows nothing of .test names: only our pinned address was used.
    assert.equal(local.received[0]?.headers.host, `pinned.hooks.test:${local.port}`);
  });

  test('allowPrivate never admits metadata endpoints or names', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/',
    ]) {
      const result = await postWebhook(url, JSON_BODY, {}, privateToo());
      assert.equal(result.errorKind, 'refused', url);
    }
  });
});

describe('postWebhook: delivering', () => {
  test('allowPrivate admits http://127.0.0.1: the body, our headers and the answer', async () => {
    const local = await receiver((_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('accepted');
    });
    const result = await postWebhook(
      `http://127.0.0.1:${local.port}/hooks?x=1`,
      JSON_BODY,
      { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', Host: 'evil.example' },
      privateToo(),
    );
    assert.equal(result.status, 202);
    assert.equal(result.ok, true);
    assert.equal(result.bodyExcerpt, 'accepted');
    assert.equal(result.error, undefined);
    assert.ok(result.durationMs >= 0);
    const [got] = local.received;
    assert.equal(got?.method, 'POST');
    assert.equal(got?.url, '/hooks?x=1');
    assert.equal(got?.body, JSON_BODY);
    assert.equal(got?.headers['content-type'], 'application/json');
    assert.equal(got?.headers['webhook-id'], 'evt_1');
    // A caller's Host header is dropped: the URL decides where and to whom.
    assert.equal(got?.headers.host, `127.0.0.1:${local.port}`);
  });

  test('the same URL without allowPrivate is refused before any connection', async () => {
    const local = await receiver();
    const plain = await postWebhook(`http://127.0.0.1:${local.port}/`, JSON_BODY, {}, publicOnly());
    assert.equal(plain.errorKind, 'invalid-url');
    const tls = await postWebhook(`https://127.0.0.1:${local.port}/`, JSON_BODY, {}, publicOnly());
    assert.equal(tls.errorKind, 'refused');
    assert.equal(local.received.length, 0);
  });

  test('redirects are answers, never followed', async () => {
    const elsewhere = await receiver();
    for (const status of [301, 302, 303, 307, 308]) {
      const redirecting = await receiver((_req, res) => {
        res.writeHead(status, { location: `http://127.0.0.1:${elsewhere.port}/stolen` });
        res.end();
      });
      const result = await postWebhook(`http://127.0.0.1:${redirecting.port}/`, JSON_BODY, {}, privateToo());
      assert.equal(result.status, status);
      assert.equal(result.ok, false);
      assert.equal(result.error, undefined);
      assert.equal(redirecting.received.length, 1);
    }
    assert.equal(elsewhere.received.length, 0);
  });

  test('non-2xx answers are not ok; 204 is', async () => {
    for (const [status, ok] of [
      [204, true],
      [410, false],
      [500, false],
    ] as const) {
      const local = await receiver((_req, res) => {
        res.statusCode = status;
        res.end();
      });
      const result = await postWebhook(`http://127.0.0.1:${local.port}/`, JSON_BODY, {}, privateToo());
      assert.deepEqual([result.status, result.ok], [status, ok]);
    }
  });

  test('a receiver that never answers times out, as a failure with a reason', async () => {
    const silent = await receiver(() => {
      // Never answers; closed by the receiver's close().
    });
    const result = await postWebhook(
      `http://127.0.0.1:${silent.port}/`,
      JSON_BODY,
      {},
      privateToo({ timeoutMs: 300 }),
    );
    assert.equal(result.errorKind, 'timeout');
    assert.equal(result.error, 'no answer within 300 ms');
    assert.equal(result.status, null);
    assert.equal(result.ok, false);
    assert.ok(result.durationMs >= 250, `took ${result.durationMs} ms`);
  });

  test('a 2xx whose body stalls still counts; the excerpt keeps what arrived', async () => {
    const stalling = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const result = await postWebhook(
      `http://127.0.0.1:${stalling.port}/`,
      JSON_BODY,
      {},
      privateToo({ timeoutMs: 300 }),
    );
    assert.equal(result.status, 200);
    assert.equal(result.ok, true);
    assert.equal(result.bodyExcerpt, 'partial');
  });

  test('only the first 4 KB of an answer are read, even of an endless one', async () => {
    const endless = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {
          // Fill the socket until it pushes back, then wait for it to drain.
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const result = await postWebhook(`http://127.0.0.1:${endless.port}/`, JSON_BODY, {}, privateToo());
    assert.equal(result.status, 200);
    assert.equal(result.bodyExcerpt.length, 4096);
    assert.equal(result.error, undefined);

    const small = await postWebhook(
      `http://127.0.0.1:${endless.port}/`,
      JSON_BODY,
      {},
      privateToo({ maxExcerptBytes: 10 }),
    );
    assert.equal(small.bodyExcerpt, 'x'.repeat(10));
  });

  test('network errors are results, never exceptions', async () => {
    const port = await freePort();
    const refused = await postWebhook(`http://127.0.0.1:${port}/`, JSON_BODY, {}, privateToo());
    assert.equal(refused.errorKind, 'network');
    assert.match(refused.error ?? '', /ECONNREFUSED/);

    const unknown = await postWebhook('https://nowhere.hooks.test/', JSON_BODY, {}, publicOnly());
    assert.deepEqual(
      [unknown.errorKind, unknown.error],
      ['refused', 'nowhere.hooks.test does not resolve to any address'],
    );

    const invalid = await postWebhook('not a url', JSON_BODY, {}, publicOnly());
    assert.deepEqual(
      [invalid.errorKind, invalid.error],
      ['invalid-url', 'the address is not a valid absolute URL'],
    );
  });
});
