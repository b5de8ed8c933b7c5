// One webhook POST through the SSRF-safe dispatcher. It never throws for anything the
// network or the receiver does: every outcome is a result the delivery log can keep.
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher, request } from 'undici';
import { safeConnector, WebhookTargetRefused } from './safe-connector.ts';
import type { ResolveAddresses } from './target-addresses.ts';
import { parseWebhookUrl } from './webhook-target.ts';

/** The spec: a 2xx within 10 seconds counts as delivered. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer the delivery log keeps. */
export const BODY_EXCERPT_BYTES = 4096;

export type DeliveryErrorKind = 'invalid-url' | 'refused' | 'timeout' | 'tls' | 'network';

export interface DeliveryResult {
  /** The receiver's status, or null when no answer arrived. A 3xx is an answer: never followed. */
  status: number | null;
  /** A 2xx arrived within the time allowed. */
  ok: boolean;
  durationMs: number;
  /** The start of the answer's body, at most BODY_EXCERPT_BYTES bytes, as UTF-8. */
  bodyExcerpt: string;
  /** Why no answer arrived; absent when one did. */
  error?: string;
  errorKind?: DeliveryErrorKind;
}

export interface DeliveryPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http: and loopback/private receivers, for development and tests. */
  allowPrivate: boolean;
  /** Where names are resolved; the process's name servers by default. */
  resolve?: ResolveAddresses;
  /** Extra trusted certificate authorities (a private PKI, or a test's self-signed receiver). */
  ca?: string;
}

export interface PostWebhookOptions extends DeliveryPolicy {
  /** Total time for resolving, connecting, sending and the answer's headers. Default 10 s. */
  timeoutMs?: number;
  maxExcerptBytes?: number;
}

/**
 * A dispatcher that connects only to checked public addresses (safe-connector.ts). Its
 * kept-alive connections stay pinned to the address they were opened to, which was
 * checked; a new connection resolves and checks afresh.
 */
export function createWebhookDispatcher(policy: DeliveryPolicy): Agent {
  return new Agent({
    connect: safeConnector({ ...policy, connectTimeoutMs: DELIVERY_TIMEOUT_MS }),
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
    // A receiver gets one request at a time on a connection: no pipelining to strangers.
    pipelining: 1,
  });
}

// One dispatcher per policy, so that deliveries to one receiver reuse connections.
const DEFAULT_RESOLVER = {};
let dispatchers = new WeakMap<object, Map<string, Agent>>();
const open = new Set<Agent>();

function dispatcherFor(policy: DeliveryPolicy): Agent {
  const byResolver = dispatchers.get(policy.resolve ?? DEFAULT_RESOLVER) ?? new Map<string, Agent>();
  dispatchers.set(policy.resolve ?? DEFAULT_RESOLVER, byResolver);
  const key = `${policy.allowPrivate}|${policy.ca ?? ''}`;
  let agent = byResolver.get(key);
  if (!agent) {
    agent = createWebhookDispatcher(policy);
    byResolver.set(key, agent);
    open.add(agent);
  }
  return agent;
}

/** Closes every dispatcher postWebhook opened (graceful stop, end of a test file). */
export async function closeWebhookDispatchers(): Promise<void> {
  const agents = [...open];
  open.clear();
  dispatchers = new WeakMap();
  await Promise.all(agents.map((a) => a.destroy()));
}

/** Headers a caller may not set: the connection's own business. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);

/**
 * POSTs `body` to `url` and answers what happened. Refused targets, DNS failures,
 * timeouts, TLS and network errors come back as `error` with an `errorKind`.
 */
export async function postWebhook(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  options: PostWebhookOptions,
): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const parsed = parseWebhookUrl(url, options.allowPrivate);
  if (!parsed.ok) {
    return failed(elapsed(), 'invalid-url', `the address ${parsed.reason}`);
  }

  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const sent: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(headers)) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) sent[name.toLowerCase()] = value;
  }

  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(parsed.url, {
      method: 'POST',
      body,
      headers: sent,
      signal,
      dispatcher: dispatcherFor(options),
    });
  } catch (error) {
    if (signal.aborted) return failed(elapsed(), 'timeout', `no answer within ${timeoutMs} ms`);
    return failed(elapsed(), ...describe(error));
  }

  const status = answer.statusCode;
  const bodyExcerpt = await readExcerpt(answer.body, options.maxExcerptBytes ?? BODY_EXCERPT_BYTES);
  return { status, ok: status >= 200 && status < 300, durationMs: elapsed(), bodyExcerpt };
}

function failed(durationMs: number, errorKind: DeliveryErrorKind, error: string): DeliveryResult {
  return { status: null, ok: false, durationMs, bodyExcerpt: '', error, errorKind };
}

const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

function describe(error: unknown): [DeliveryErrorKind, string] {
  if (error instanceof WebhookTargetRefused) return ['refused', error.message];
  const e = error as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  const text = `${code ? `${code}: ` : ''}${e?.message ?? String(error)}`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return ['timeout', text];
  if (TLS_CODE.test(code)) return ['tls', text];
  return ['network', text];
}

/**
 * Reads at most `limit` bytes of the answer, then drops the connection rather than read
 * a hostile receiver's endless body. A body cut short by the deadline keeps what arrived:
 * the status already counts.
 */
async function readExcerpt(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const piece = chunk as Buffer;
      chunks.push(piece.subarray(0, limit - size));
      size += Math.min(piece.length, limit - size);
      if (size >= limit) break;
    }
  } catch {
    // Deadline or a reset mid-body: keep the excerpt so far.
  } finally {
    body.destroy();
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}
