// Save-time checks, with names resolved by a real (local) DNS server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDnsServer, type TestDnsServer } from '../../../test/support/dns-server.ts';
import { dnsResolver, type ResolveAddresses } from './target-addresses.ts';
import { HOSTILE_TARGETS, PUBLIC_V4, PUBLIC_V6 } from './webhook-target.fixtures.ts';
import { checkWebhookUrl } from './webhook-target.ts';

const NAMED = HOSTILE_TARGETS.filter((t) => t.address !== undefined);
const hostileName = (i: number) => `h${i}.hostile.test`;

let dns: TestDnsServer;
let resolve: ResolveAddresses;
before(async () => {
  dns = await startDnsServer(({ name }) => {
    const hostile = /^h(\d+)\.hostile\.test$/.exec(name);
    if (hostile) return [NAMED[Number(hostile[1])]!.address!];
    if (name === 'hooks.example.test') return [PUBLIC_V4, PUBLIC_V6];
    if (name === 'split.example.test') return [PUBLIC_V4, '10.0.0.7']; // one bad apple
    if (name === 'split6.example.test') return [PUBLIC_V4, '::ffff:127.0.0.1'];
    if (name === 'empty.example.test') return [];
    if (name === 'broken.example.test') return 'SERVFAIL';
    return undefined;
  });
  resolve = dnsResolver(dns.resolver());
});
after(() => dns.close());

const publicOnly = () => ({ allowPrivate: false, resolve });

describe('checkWebhookUrl: hostile targets are refused at save time', () => {
  test(`${HOSTILE_TARGETS.length} spellings of non-public hosts`, async () => {
    assert.ok(HOSTILE_TARGETS.length >= 20);
    for (const target of HOSTILE_TARGETS) {
      const verdict = await checkWebhookUrl(target.url, publicOnly());
      assert.equal(verdict.ok, false, `${target.what}: ${target.url} was accepted`);
      assert.ok(!verdict.ok && verdict.reason.length > 10, `${target.what}: a reason`);
    }
    // None of the literals or special names needed DNS: they are judged as spelled.
    assert.equal(dns.queries.length, 0);
  });

  test('names that resolve to each of those addresses', async () => {
    for (const [i, target] of NAMED.entries()) {
      const verdict = await checkWebhookUrl(`https://${hostileName(i)}/hook`, publicOnly());
      assert.equal(verdict.ok, false, `${target.what} via DNS was accepted`);
      assert.match(
        !verdict.ok ? verdict.reason : '',
        new RegExp(`^is refused: ${hostileName(i)} resolves to `),
      );
    }
  });

  test('a name is refused when any one of its addresses is not public', async () => {
    for (const name of ['split.example.test', 'split6.example.test']) {
      const verdict = await checkWebhookUrl(`https://${name}/`, publicOnly());
      assert.equal(verdict.ok, false, name);
    }
    const split = await checkWebhookUrl('https://split.example.test/', publicOnly());
    assert.match(!split.ok ? split.reason : '', /10\.0\.0\.7 is a private network address/);
  });

  test('a name that does not resolve, or has no addresses, is refused', async () => {
    const missing = await checkWebhookUrl('https://nowhere.example.test/', publicOnly());
    assert.match(!missing.ok ? missing.reason : '', /does not resolve/);
    const empty = await checkWebhookUrl('https://empty.example.test/', publicOnly());
    assert.match(!empty.ok ? empty.reason : '', /does not resolve/);
  });

  test('a name whose name server fails is refused (fail closed)', async () => {
    const verdict = await checkWebhookUrl('https://broken.example.test/', publicOnly());
    assert.deepEqual(verdict, {
      ok: false,
      reason: 'is refused: broken.example.test could not be resolved (ESERVFAIL)',
    });
  });
});

describe('checkWebhookUrl: what is accepted', () => {
  test('an https name resolving only to public addresses, with all its addresses', async () => {
    const verdict = await checkWebhookUrl('https://Hooks.Example.Test:8443/in?x=1', publicOnly());
    assert.deepEqual(verdict, {
      ok: true,
      url: 'https://hooks.example.test:8443/in?x=1',
      addresses: [PUBLIC_V4, PUBLIC_V6],
    });
  });

  test('a public IP literal needs no DNS', async () => {
    const verdict = await checkWebhookUrl(`https://[${PUBLIC_V6}]/`, publicOnly());
    assert.equal(verdict.ok, true);
    assert.equal((await checkWebhookUrl(`https://${PUBLIC_V4}/`, publicOnly())).ok, true);
  });
});

describe('checkWebhookUrl: the address itself', () => {
  test('https only; http, ftp, file and relative addresses are refused', async () => {
    for (const url of ['http://hooks.example.test/', 'ftp://hooks.example.test/', 'file:///etc/passwd']) {
      assert.deepEqual(await checkWebhookUrl(url, publicOnly()), {
        ok: false,
        reason: 'must start with https://',
      });
    }
    assert.deepEqual(await checkWebhookUrl('/relative', publicOnly()), {
      ok: false,
      reason: 'is not a valid absolute URL',
    });
  });

  test('credentials in the address and over-long addresses are refused', async () => {
    const withCredentials = await checkWebhookUrl('https://user:secret@hooks.example.test/', publicOnly());
    assert.deepEqual(withCredentials, { ok: false, reason: 'must not contain a user name or password' });
    const long = await checkWebhookUrl(`https://hooks.example.test/${'a'.repeat(2100)}`, publicOnly());
    assert.equal(long.ok, false);
  });
});

describe('checkWebhookUrl with allowPrivate (WEBHOOK_ALLOW_PRIVATE_TARGETS=1)', () => {
  const allowPrivate = () => ({ allowPrivate: true, resolve });

  test('admits http: and loopback or private receivers, and localhost', async () => {
    for (const url of [
      'http://127.0.0.1:3999/hook',
      'http://[::1]:3999/',
      'https://10.0.0.5/',
      'http://localhost/',
    ]) {
      const verdict = await checkWebhookUrl(url, allowPrivate());
      assert.equal(verdict.ok, true, url);
    }
    const localhost = await checkWebhookUrl('http://localhost:3999/', allowPrivate());
    assert.deepEqual(localhost.ok && localhost.addresses, ['127.0.0.1', '::1']);
  });

  test('still refuses metadata endpoints and names, and schemes other than http and https', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://metadata.google.internal/',
      'http://224.0.0.1/',
    ]) {
      assert.equal((await checkWebhookUrl(url, allowPrivate())).ok, false, url);
    }
    assert.deepEqual(await checkWebhookUrl('ftp://127.0.0.1/', allowPrivate()), {
      ok: false,
      reason: 'must start with https:// or http://',
    });
  });
});
