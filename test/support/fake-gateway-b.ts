// A local fake of payment gateway B (Yoco-style) on a real loopback port, speaking the
// published checkout API: POST /api/checkouts with `Authorization: Bearer <secret key>` and an
// `Idempotency-Key` (the same key answers the same checkout), body { amount (cents), currency,
// successUrl, cancelUrl, failureUrl, metadata }, answered with { id, redirectUrl, status,
// amount, currency, metadata }. GET /checkout/{id} is the payer's page. Tests steer it (refuse
// the key, fail with 500) and read what it was asked.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface FakeGatewayB {
  url: string;
  /** The secret key the fake accepts. */
  secretKey: string;
  checkouts: FakeCheckout[];
  /** Every request: method, path and status answered. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** Answer every checkout call with this status (500: down; null: normal). */
  failWith: number | null;
  close(): Promise<void>;
}

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
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
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
    const id = `ch_${randomUUID().replace(/-/g, '').slice(0, 22)}`;
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
