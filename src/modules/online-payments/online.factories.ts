// Test helpers of online payments: a business with a customer and a released invoice, and its
// gateways' credentials set through the API as a person sets them.
import assert from 'node:assert/strict';
import { type Registered, register, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { released, type Sales, salesSetup } from '../invoices/invoices.factories.ts';
import { newLinkToken } from './links.token.ts';

export interface Online extends Sales {
  b: Registered;
  tenantId: string;
  companyId: string;
}

/** Gateway A's test credentials (a merchant of the fake gateway). */
export const GATEWAY_A_KEYS = {
  merchantId: '10000100',
  merchantKey: '46f0cd694581a',
  passphrase: 'jt7NOE43FZPn',
};
/** Gateway B's test credentials: the webhook secret is whsec_ + base64 of 24 bytes. */
export const GATEWAY_B_KEYS = {
  secretKey: 'sk_test_960bfde0VBrLlpK098e4ffeb53e1',
  webhookSecret: `whsec_${Buffer.from('gateway-b-test-webhook-secret!!').toString('base64')}`,
};

/** A VAT-registered business (plan free: invoices are in every plan) with one customer. */
export async function onlineSetup(t: TestApp, plan = 'free'): Promise<Online> {
  const b = await register(t.app, { plan });
  const s = await salesSetup(t, b);
  return { ...s, b, tenantId: b.tenantId, companyId: b.companyId };
}

export async function setGateway(o: Sales, gateway: 'gatewaya' | 'gatewayb', payload: object) {
  const res = await o.api({ method: 'PUT', url: `/api/payment-gateways/${gateway}`, payload });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** A released invoice of R1,150.00 (R1,000 + 15% VAT), issued 2026-03-02. */
export async function openInvoice(o: Sales, extra: Record<string, unknown> = {}) {
  return released(o, { lines: [{ description: 'Website hosting', quantity: 1, unitPrice: 1000 }], ...extra });
}

/**
 * A payment link row written straight to the table, for tests of the inbound notifications
 * (the links API makes them the same way: links.service.ts).
 */
export async function insertLink(
  t: TestApp,
  o: Online,
  invoiceId: string,
  gateway: 'gatewaya' | 'gatewayb',
  extra: { amount?: string; checkoutId?: string; checkoutUrl?: string; expiresAt?: Date } = {},
): Promise<{ id: string; token: string }> {
  const id = crypto.randomUUID();
  const token = newLinkToken(o.tenantId);
  await withTenant(t.database.db, o.tenantId, (tx) =>
    tx
      .insertInto('payment_links')
      .values({
        tenant_id: o.tenantId,
        id,
        company_id: o.companyId,
        invoice_id: invoiceId,
        gateway,
        token,
        amount: extra.amount ?? '1150.00',
        expires_at: extra.expiresAt ?? new Date(Date.now() + 30 * 86_400_000),
        checkout_id: extra.checkoutId ?? null,
        checkout_url: extra.checkoutUrl ?? null,
      })
      .execute(),
  );
  return { id, token };
}
