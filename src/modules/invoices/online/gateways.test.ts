// /api/payment-gateways: each gateway listed with whether it can take money and, when not, the
// reason in words (spec Payments rule 3); credentials sealed at rest and never answered back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { withTenant } from '../../../platform/db/tenant.ts';
import { GATEWAY_A_KEYS, GATEWAY_B_KEYS, onlineSetup, setGateway } from './online.factories.ts';

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
});
