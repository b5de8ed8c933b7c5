import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAddress } from './address-policy.ts';

describe('checkAddress', () => {
  test('public internet addresses are allowed, in either family and in NAT64/6to4/mapped forms', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.215.14',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808', // DNS64 answer for a public IPv4 host
      '2002:808:808::1', // 6to4 from a public IPv4 host
    ]) {
      assert.deepEqual(checkAddress(address), { allowed: true }, address);
    }
  });

  test('every refused range gives a reason naming the address and the range', () => {
    const cases: Array<[string, RegExp]> = [
      ['127.0.0.1', /loopback/],
      ['::1', /loopback/],
      ['10.0.0.1', /private/],
      ['172.16.0.1', /private/],
      ['192.168.0.1', /private/],
      ['169.254.1.1', /link-local/],
      ['fe80::1', /link-local/],
      ['fe80::1%eth0', /link-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['224.0.0.251', /multicast/],
      ['ff02::1', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['0.0.0.0', /unspecified/],
      ['0.1.2.3', /unspecified/],
      ['::', /unspecified/],
      ['192.0.2.1', /reserved or documentation/],
      ['203.0.113.5', /reserved or documentation/],
      ['240.0.0.1', /reserved/],
      ['198.18.0.1', /reserved/],
      ['2001:db8::1', /reserved or documentation/],
      ['3fff::1', /reserved or documentation/],
      ['fc00::1', /unique-local/],
      ['fec0::1', /site-local/],
      ['2001::1', /Teredo/],
      ['64:ff9b:1::a00:1', /local-use NAT64/],
      ['::7f00:1', /IPv4-compatible .*127\.0\.0\.1/],
      ['::ffff:7f00:1', /carries an IPv4 address: 127\.0\.0\.1 is a loopback/],
      ['::ffff:10.0.0.1', /10\.0\.0\.1 is a private/],
      ['64:ff9b::a9fe:a9fe', /169\.254\.169\.254 is a cloud metadata/],
      ['2002:c0a8:101::1', /192\.168\.1\.1 is a private/],
      ['4000::1', /outside IPv6 global unicast/],
      ['not-an-address', /not an IP address/],
    ];
    for (const [address, reason] of cases) {
      const verdict = checkAddress(address);
      assert.equal(verdict.allowed, false, address);
      assert.ok(!verdict.allowed && verdict.reason.startsWith(address), `${address}: the reason names it`);
      assert.match(!verdict.allowed ? verdict.reason : '', reason, address);
    }
  });

  test('cloud metadata endpoints are named as such, including the public-looking Azure one', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.170.2',
      'fd00:ec2::254',
      '100.100.100.200',
      '168.63.129.16',
      '192.0.0.192',
    ]) {
      const verdict = checkAddress(address);
      assert.match(!verdict.allowed ? verdict.reason : 'allowed', /cloud metadata/, address);
    }
  });

  test('allowPrivate admits loopback and private receivers, never metadata or the rest', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.5', '192.168.1.20', 'fd12::5', '::ffff:127.0.0.1']) {
      assert.equal(checkAddress(address, true).allowed, true, address);
    }
    for (const address of [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      'fd00:ec2::254',
      '100.100.100.200',
      '168.63.129.16',
      '169.254.1.1',
      '100.64.0.1',
      '224.0.0.1',
      '0.0.0.0',
    ]) {
      assert.equal(checkAddress(address, true).allowed, false, address);
    }
  });
});
