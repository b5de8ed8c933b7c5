// The signature is the spec's, computed independently here, and the standardwebhooks
// library's verifier accepts it (and refuses a changed body or an old timestamp).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signDelivery } from './signing.ts';
import { newSigningSecret } from './webhooks.service.ts';

test('v1, base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded secret', () => {
  const secret = newSigningSecret();
  const at = new Date('2026-11-22T10:00:00.750Z');
  const body = JSON.stringify({ id: 'evt', type: 'invoice.paid', data: { total: '1149.99' } });
  const h = signDelivery(secret, 'b6c1b8a8-1d5e-4a53-9a0c-3e0f0f5f1a11', at, body);
  assert.equal(h['webhook-id'], 'b6c1b8a8-1d5e-4a53-9a0c-3e0f0f5f1a11');
  assert.equal(h['webhook-timestamp'], String(Math.floor(at.getTime() / 1000)));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${h['webhook-id']}.${h['webhook-timestamp']}.${body}`)
    .digest('base64');
  assert.equal(h['webhook-signature'], `v1,${expected}`);
});

test('the standardwebhooks verifier accepts a fresh delivery and refuses a changed body', () => {
  const secret = newSigningSecret();
  const body = '{"hello":"world"}';
  const h = signDelivery(secret, crypto.randomUUID(), new Date(), body);
  assert.deepEqual(new Webhook(secret).verify(body, { ...h }), { hello: 'world' });
  assert.throws(() => new Webhook(secret).verify('{"hello":"there"}', { ...h }));
  const old = signDelivery(secret, crypto.randomUUID(), new Date(Date.now() - 10 * 60_000), body);
  assert.throws(() => new Webhook(secret).verify(body, { ...old }), /timestamp/i);
});
