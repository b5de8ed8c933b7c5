// A local fake of payment gateway B (Yoco-style) on a real loopback port, speaking the
// published checkout API: POST /api/checkouts with `Authorization: Bearer <secret key>` and an
// `Idempotency-Key` (the same key answers the same checkout), body { amount (cents), currency,
// successUrl, cancelUrl, failureUrl, metadata }, answered with { id, redirectUrl, status,
// amount, currency, metadata }. GET /checkout/{id} is the payer's page. Tests steer it (refuse
// the key, fail with 500) and read what it was asked.
//
// It also plays the gateway's side of the webhooks: the tenant's webhook registered at the
// gateway (`subscribe`), and events sent there as Yoco sends them, Standard Webhooks signed
// (webhook-id, webhook-timestamp, webhook-signature): `pay` (payment.succeeded), `refund`
// (refund.succeeded), `redeliver` (the gateway's retry: same webhook-id and body, a fresh
// timestamp), `send` (a forged or tampered delivery). Every delivery's answer is recorded.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface FakeCheckout {
  id: string;
  redirectUrl: string;
  status: 'created' | 'completed';
  amount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  failureUrl: string;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}

/** An event the fake sent, kept so it can be sent again exactly. */
export interface FakeEvent {
  id: string;
  type: string;
  body: string;
  url: string;
  secret: string;
}

/** One delivery of an event (or of a forged body) and what the receiver answered. */
export interface FakeDelivery {
  eventId: string | null;
  url: string;
  status: number;
  body: string;
}

export interface FakeGatewayB {
  url: string;
  /** The secret key the fake accepts. */
  secretKey: string;
  checkouts: FakeCheckout[];
  /** Every request: method, path and status answered. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** Answer every checkout call with this status (500: down; null: normal). */
  failWith: number | null;
  /** Events sent (by id) and every delivery with the receiver's answer. */
  events: Map<string, FakeEvent>;
  deliveries: FakeDelivery[];
  /** The tenant's webhook at the gateway: where events go and the secret they are signed with. */
  subscribe(url: string, secret: string): void;
  /** The payer pays the checkout: payment.succeeded (amount in cents; the checkout's by default). */
  pay(checkoutId: string, opts?: { amount?: number }): Promise<FakeDelivery & { paymentId: string }>;
  /** refund.succeeded for a payment made with `pay`. */
  refund(paymentId: string, amountCents: number): Promise<FakeDelivery & { refundId: string }>;
  /** Any other event type on a payment made with `pay` (refund.failed, ...). */
  emit(type: string, paymentId: string, payload?: Record<string, unknown>): Promise<FakeDelivery>;
  /** The gateway's retry of an event: the same webhook-id and body, signed with a fresh timestamp. */
  redeliver(eventId: string): Promise<FakeDelivery>;
  /** A delivery of these exact bytes and headers (forged, tampered, stale). */
  send(raw: string, headers: Record<string, string>, url?: string): Promise<FakeDelivery>;
  /** Standard Webhooks headers for a body, signed with a secret, at a time (now by default). */
  sign(secret: string, eventId: string, body: string, at?: Date): Record<string, string>;
  close(): Promise<void>;
}

const shortId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 22)}`;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeGatewayB(
  secretKey = 'sk_test_960bfde0VBrLlpK098e4ffeb53e1',
): Promise<FakeGatewayB> {
  const checkouts: FakeCheckout[] = [];
  const requests: FakeGatewayB['requests'] = [];
  const fake: FakeGatewayB = {
    url: '',
    secretKey,
    checkouts,
    requests,
    failWith: null,
    events: new Map(),
    deliveries: [],
    subscribe(url, secret) {
      webhook = { url, secret };
    },
    sign(secret, eventId, body, at = new Date()) {
      return {
        'content-type': 'application/json',
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(eventId, at, body),
      };
    },
    async send(raw, headers, url) {
      const target = url ?? subscribed().url;
      return deliver(headers['webhook-id'] ?? null, target, raw, headers);
    },
    async redeliver(eventId) {
      const e = fake.events.get(eventId);
      if (!e) throw new Error(`the fake sent no event ${eventId}`);
      return deliver(e.id, e.url, e.body, fake.sign(e.secret, e.id, e.body));
    },
    async pay(checkoutId, opts = {}) {
      const c = checkouts.find((x) => x.id === checkoutId);
      if (!c) throw new Error(`no checkout ${checkoutId} at the fake`);
      c.status = 'completed';
      const paymentId = shortId('p');
      const amount = opts.amount ?? c.amount;
      payments.set(paymentId, { checkout: c, amount });
      const d = await event('payment.succeeded', {
        id: paymentId,
        type: 'payment',
        createdDate: new Date().toISOString(),
        amount,
        currency: c.currency,
        status: 'succeeded',
        mode: 'test',
        metadata: { checkoutId: c.id, ...c.metadata },
      });
      return { ...d, paymentId };
    },
    async refund(paymentId, amountCents) {
      const p = payments.get(paymentId);
      if (!p) throw new Error(`no payment ${paymentId} at the fake`);
      const refundId = shortId('rf');
      const d = await event('refund.succeeded', {
        id: refundId,
        type: 'refund',
        createdDate: new Date().toISOString(),
        amount: amountCents,
        currency: p.checkout.currency,
        paymentId,
        status: 'succeeded',
        mode: 'test',
        metadata: { checkoutId: p.checkout.id, ...p.checkout.metadata },
      });
      return { ...d, refundId };
    },
    async emit(type, paymentId, payload = {}) {
      const p = payments.get(paymentId);
      return event(type, {
        id: shortId('ev'),
        createdDate: new Date().toISOString(),
        paymentId,
        mode: 'test',
        metadata: p ? { checkoutId: p.checkout.id, ...p.checkout.metadata } : {},
        ...payload,
      });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let webhook: { url: string; secret: string } | null = null;
  const payments = new Map<string, { checkout: FakeCheckout; amount: number }>();
  const subscribed = () => {
    if (!webhook) throw new Error('no webhook subscribed at the fake gateway B');
    return webhook;
  };
  const deliver = async (
    eventId: string | null,
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<FakeDelivery> => {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
    const d: FakeDelivery = { eventId, url, status: res.status, body: await res.text() };
    fake.deliveries.push(d);
    return d;
  };
  const event = async (type: string, payload: Record<string, unknown>) => {
    const { url, secret } = subscribed();
    const id = shortId('evt');
    const body = JSON.stringify({ id, type, createdDate: new Date().toISOString(), payload });
    fake.events.set(id, { id, type, body, url, secret });
    return deliver(id, url, body, fake.sign(secret, id, body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path.startsWith('/checkout/')) {
      const c = checkouts.find((x) => x.id === path.slice('/checkout/'.length));
      res.writeHead(c ? 200 : 404, { 'content-type': 'text/html' });
      res.end(c ? `<h1>Gateway B checkout</h1><p>R${(c.amount / 100).toFixed(2)}</p>` : 'no such checkout');
      return c ? 200 : 404;
    }
    if (req.method !== 'POST' || path !== '/api/checkouts') {
      send(res, 404, { message: 'not found' });
      return 404;
    }
    const raw = await bodyOf(req);
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
      send(res, 401, { message: 'invalid secret key' });
      return 401;
    }
    if (fake.failWith) {
      send(res, fake.failWith, { message: 'failure' });
      return fake.failWith;
    }
    let body: Partial<FakeCheckout>;
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, { message: 'body is not JSON' });
      return 400;
    }
    if (!Number.isInteger(body.amount) || (body.amount ?? 0) < 200 || body.currency !== 'ZAR') {
      send(res, 400, { message: 'amount must be whole cents of at least 200, currency ZAR' });
      return 400;
    }
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const again = key ? checkouts.find((c) => c.idempotencyKey === key) : undefined;
    if (again) {
      send(res, 200, again);
      return 200;
    }
    const id = shortId('ch');
    const c: FakeCheckout = {
      id,
      redirectUrl: `${fake.url}/checkout/${id}`,
      status: 'created',
      amount: body.amount!,
      currency: body.currency!,
      successUrl: body.successUrl ?? '',
      cancelUrl: body.cancelUrl ?? '',
      failureUrl: body.failureUrl ?? '',
      metadata: body.metadata ?? {},
      idempotencyKey: key,
    };
    checkouts.push(c);
    send(res, 200, c);
    return 200;
  };
  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? '', path: req.url ?? '', status }),
      (err) => {
        send(res, 500, { message: String(err) });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
