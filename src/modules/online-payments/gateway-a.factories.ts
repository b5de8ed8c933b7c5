// Test helpers of gateway A's ITN: the app listening on a real port (the fake gateway posts to
// it), the fake gateway A with two merchants, a business ready to be paid, and the ITN posted
// and waited for until the job worker has checked it.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type FakeGatewayA, startFakeGatewayA } from '../../../test/support/fake-gateway-a.ts';
import { fetched } from '../invoices/invoices.factories.ts';
import {
  GATEWAY_A_KEYS,
  insertLink,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

/** A second merchant at the gateway: another business's. */
export const OTHER_KEYS = {
  merchantId: '10000999',
  merchantKey: 'a1b2c3d4e5f6g',
  passphrase: 'Another-Pass9',
};

export interface Bench {
  t: TestApp;
  fake: FakeGatewayA;
  /** The app's own address (the ITN's notify_url is under it). */
  base: string;
  close(): Promise<void>;
}

export async function startBench(): Promise<Bench> {
  const t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  const fake = await startFakeGatewayA([{ ...GATEWAY_A_KEYS }, { ...OTHER_KEYS }]);
  t.deps.config.gatewayABaseUrl = fake.url;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
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

export interface Ready {
  o: Online;
  invoice: { id: string; number: string };
  link: { id: string; token: string };
}

/** A business with gateway A set, a released invoice of R1,150.00 and its payment link. */
export async function ready(b: Bench, plan = 'free'): Promise<Ready> {
  const o = await onlineSetup(b.t, plan);
  await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
  const invoice = await openInvoice(o);
  const link = await insertLink(b.t, o, invoice.id, 'gatewaya');
  return { o, invoice, link };
}

export const notifyUrl = (b: Bench, o: Online) => `${b.base}/webhooks/gatewaya/itn/${o.tenantId}`;

/** The ITN the gateway would post for the link (R1,150.00 COMPLETE unless told otherwise). */
export function itnOf(b: Bench, r: Ready, extra: Parameters<FakeGatewayA['itnFields']>[0] = {}) {
  return b.fake.itnFields({
    m_payment_id: r.link.id,
    custom_str1: r.o.tenantId,
    custom_str2: r.invoice.id,
    item_name: `Invoice ${r.invoice.number}`,
    ...extra,
  });
}

export interface Notification {
  id: string;
  status: string;
  trusted: boolean;
  outcome: string;
  checks: Array<{ check: string; passed: boolean; detail: string }>;
  paymentId: string | null;
  invoiceId: string | null;
  amount: number | null;
  fee: number | null;
  externalPaymentId: string | null;
  kind: string;
  resolvedByType: string | null;
}

/** Posts the ITN as the gateway does and waits for the worker to finish its checks. */
export async function postItn(
  b: Bench,
  o: Online,
  fields: Array<[string, string]>,
  options?: Parameters<FakeGatewayA['sendItn']>[2],
): Promise<Notification> {
  const sent = await b.fake.sendItn(notifyUrl(b, o), fields, options);
  assert.equal(sent.status, 200, sent.answer);
  return checked(o, JSON.parse(sent.answer).id);
}

/** The notification once it is no longer waiting for its checks. */
export async function checked(o: Online, id: string): Promise<Notification> {
  for (let i = 0; i < 200; i++) {
    const n = (await fetched(o, `/api/payment-notifications/${id}`)) as Notification;
    if (n.status !== 'received') return n;
    await sleep(100);
  }
  throw new Error(`notification ${id} was never checked`);
}

/** The checks as "name:ok" or "name:failed", in order. */
export const checksOf = (n: Notification) => n.checks.map((c) => `${c.check}:${c.passed ? 'ok' : 'failed'}`);

export async function paymentsOf(o: Online, invoiceId: string) {
  return (await fetched(o, `/api/invoices/${invoiceId}/payments`)) as Array<{
    id: string;
    amount: number;
    entryId: string;
    reference: string | null;
  }>;
}
