// Test helpers of gateway B's webhooks: the app listening on a real port (the fake gateway
// posts to it over HTTP), a business with gateway B set up and its webhook subscribed at the
// fake, and an invoice with a checkout and its payment link.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type FakeGatewayB, startFakeGatewayB } from '../../../test/support/fake-gateway-b.ts';
import type { Config } from '../../config.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createCheckout } from './gateway-b.client.ts';
import {
  GATEWAY_B_KEYS,
  insertLink,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

export interface GatewayBWorld {
  t: TestApp;
  fake: FakeGatewayB;
  /** The app's address (publicBaseUrl). */
  base: string;
  close(): Promise<void>;
}

export async function startGatewayBWorld(config: Partial<Config> = {}): Promise<GatewayBWorld> {
  const t = await startTestApp({ config });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const fake = await startFakeGatewayB(GATEWAY_B_KEYS.secretKey);
  t.deps.config.publicBaseUrl = base;
  t.deps.config.gatewayBBaseUrl = fake.url;
  return {
    t,
    fake,
    base,
    close: async () => {
      await fake.close();
      await t.close();
    },
  };
}

export function webhookUrl(w: GatewayBWorld, tenantId: string) {
  return `${w.base}/webhooks/gatewayb/invoice/${tenantId}`;
}

/** A business (plan business: it may subscribe webhooks) with gateway B set up and subscribed at the fake. */
export async function gatewayBBusiness(
  w: GatewayBWorld,
  keys: { secretKey?: string; webhookSecret?: string } = GATEWAY_B_KEYS,
): Promise<Online> {
  const o = await onlineSetup(w.t, 'business');
  await setGateway(o, 'gatewayb', keys);
  if (keys.webhookSecret) w.fake.subscribe(webhookUrl(w, o.tenantId), keys.webhookSecret);
  return o;
}

/**
 * An open invoice of R1,150.00 with a checkout at the fake for it (the metadata the links API
 * sets: tenantId, invoiceId, linkId) and its payment link row.
 */
export async function invoiceWithCheckout(w: GatewayBWorld, o: Online) {
  const invoice = await openInvoice(o);
  const checkout = await createCheckout(
    w.fake.url,
    GATEWAY_B_KEYS.secretKey,
    {
      amount: 115_000,
      currency: 'ZAR',
      successUrl: `${w.base}/paid`,
      cancelUrl: `${w.base}/cancelled`,
      failureUrl: `${w.base}/failed`,
      metadata: { tenantId: o.tenantId, invoiceId: invoice.id },
    },
    crypto.randomUUID(),
  );
  const link = await insertLink(w.t, o, invoice.id, 'gatewayb', {
    checkoutId: checkout.id,
    checkoutUrl: checkout.redirectUrl,
  });
  // The link's id is known once its row is written; the links API sets it in the metadata too.
  w.fake.checkouts.find((c) => c.id === checkout.id)!.metadata.linkId = link.id;
  return { invoice, checkout, link };
}

/** The tenant's inbox rows, oldest first (straight from the table: every company's and none). */
export async function inboxOf(w: GatewayBWorld, tenantId: string) {
  return withTenant(w.t.database.db, tenantId, (tx) =>
    tx.selectFrom('payment_notifications').selectAll().orderBy('received_at').orderBy('created_at').execute(),
  );
}

/** The invoice's payments (reversed ones included). */
export async function paymentsOf(w: GatewayBWorld, tenantId: string, invoiceId: string) {
  return withTenant(w.t.database.db, tenantId, (tx) =>
    tx.selectFrom('invoice_payments').selectAll().where('invoice_id', '=', invoiceId).execute(),
  );
}

export async function invoiceOf(o: Online, id: string) {
  const res = await o.api({ method: 'GET', url: `/api/invoices/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { status: string; amountDue: number; total: number };
}
