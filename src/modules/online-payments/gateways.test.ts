// /api/payment-gateways: each gateway listed with whether it can take money and, when not, the
// reason in words (spec Payments rule 3); credentials sealed at rest and never answered back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { parseSecretKeys } from '../../platform/secrets/keys.ts';
import { GATEWAY_A_KEYS, GATEWAY_B_KEYS, onlineSetup, openInvoice, setGateway } from './online.factories.ts';

describe('payment gateways', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('unset, each gateway is listed unavailable with the reason', async () => {
    const o = await onlineSetup(t);
    const res = await o.api({ method: 'GET', url: '/api/payment-gateways' });
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json();
    assert.deepEqual(
      list.map((g: { gateway: string; available: boolean }) => [g.gateway, g.available]),
      [
        ['gatewaya', false],
        ['gatewayb', false],
      ],
    );
    assert.match(list[0].reason, /no credentials/);
  });

  test('a gateway B key without its webhook signing secret is unavailable, and says so', async () => {
    const o = await onlineSetup(t);
    const g = await setGateway(o, 'gatewayb', { secretKey: GATEWAY_B_KEYS.secretKey });
    assert.equal(g.available, false);
    assert.match(g.reason, /secret key but no webhook signing secret/);
    const full = await setGateway(o, 'gatewayb', GATEWAY_B_KEYS);
    assert.equal(full.available, true);
    assert.equal(full.reason, null);
  });

  test('credentials are sealed at rest and never answered back', async () => {
    const o = await onlineSetup(t);
    const g = await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    assert.equal(g.available, true);
    assert.equal(g.merchantId, GATEWAY_A_KEYS.merchantId);
    assert.equal(g.hasMerchantKey, true);
    assert.equal(g.hasPassphrase, true);
    const listed = await o.api({ method: 'GET', url: '/api/payment-gateways' });
    for (const secret of [GATEWAY_A_KEYS.merchantKey, GATEWAY_A_KEYS.passphrase])
      assert.ok(!listed.body.includes(secret), 'a secret answered back');
    const row = await withTenant(t.database.db, o.tenantId, (tx) =>
      tx.selectFrom('payment_gateway_accounts').selectAll().executeTakeFirstOrThrow(),
    );
    assert.match(row.merchant_key_sealed!, /^v1:test:/);
    assert.match(row.passphrase_sealed!, /^v1:test:/);
    for (const secret of [GATEWAY_A_KEYS.merchantKey, GATEWAY_A_KEYS.passphrase])
      assert.ok(!JSON.stringify(row).includes(secret), 'no secret in clear in the row');
    const audit = await withTenant(t.database.db, o.tenantId, (tx) =>
      tx.selectFrom('audit_log').select('details').execute(),
    );
    assert.ok(!JSON.stringify(audit).includes(GATEWAY_A_KEYS.merchantKey), 'no secret in the audit log');
  });

  test("the other gateway's fields are refused, naming the field", async () => {
    const o = await onlineSetup(t);
    const res = await o.api({
      method: 'PUT',
      url: '/api/payment-gateways/gatewaya',
      payload: { ...GATEWAY_A_KEYS, secretKey: 'sk_x' },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().detail, /secretKey/);
  });

  test('credentials that will not decrypt: listed unavailable with the reason, a 503 where used', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    const keys = t.deps.config.secretKeys;
    // Another SECRETS_KEY than the one the credentials were sealed under (a key rotated away).
    const other = parseSecretKeys(`other:${'5a'.repeat(32)}`);
    t.deps.config.secretKeys = () => other;
    try {
      const listed = (await o.api({ method: 'GET', url: '/api/payment-gateways' })).json();
      assert.equal(listed[0].available, false);
      assert.match(listed[0].reason, /cannot be decrypted/);
      // Named, the gateway is used: its credentials will not open, 503.
      const link = await o.api({
        method: 'POST',
        url: `/api/invoices/${inv.id}/payment-links`,
        payload: { gateway: 'gatewaya' },
      });
      assert.equal(link.statusCode, 503, link.body);
      assert.match(link.json().detail, /cannot be decrypted/);
      // Not named, no gateway can take money: 409 with each one's reason.
      const any = await o.api({ method: 'POST', url: `/api/invoices/${inv.id}/payment-links`, payload: {} });
      assert.equal(any.statusCode, 409, any.body);
      assert.match(any.json().detail, /cannot be decrypted/);
    } finally {
      t.deps.config.secretKeys = keys;
    }
  });

  test('one business, a gateway A merchant per company; a merchant id is held by one company only', async () => {
    const o = await onlineSetup(t, 'business');
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const second = await o.api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Second (Pty) Ltd' },
    });
    assert.equal(second.statusCode, 201, second.body);
    const api2 = as(t.app, o.b.token, second.json().id);
    const other = { merchantId: '10000999', merchantKey: 'a1b2c3d4e5f6g', passphrase: 'Another-Pass9' };
    const set = await api2({ method: 'PUT', url: '/api/payment-gateways/gatewaya', payload: other });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().available, true);
    // Each company lists its own merchant.
    const first = (await o.api({ method: 'GET', url: '/api/payment-gateways' })).json()[0];
    assert.equal(first.merchantId, GATEWAY_A_KEYS.merchantId);
    assert.equal(
      (await api2({ method: 'GET', url: '/api/payment-gateways' })).json()[0].merchantId,
      other.merchantId,
    );
    // The first company's merchant id in the second company: 409 naming it.
    const taken = await api2({
      method: 'PUT',
      url: '/api/payment-gateways/gatewaya',
      payload: GATEWAY_A_KEYS,
    });
    assert.equal(taken.statusCode, 409, taken.body);
    assert.equal(taken.json().field, 'merchantId');
  });
});
