// A webhook receiver on a real loopback port for tests: records what arrives and answers
// through the test's handler (http, or https with a given key and certificate).
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The TLS server name (SNI) the client sent, for https receivers. */
  servername?: string;
}

export interface Receiver {
  port: number;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

export async function startReceiver(
  handler: Handler = (_req, res) => res.end('ok'),
  tls?: { key: string; cert: string },
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (req.socket as TLSSocket).servername || undefined,
      };
      received.push(entry);
      handler(entry, res);
    });
  };
  const server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // Held-open answers (slow-receiver tests) must not keep the file alive.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
