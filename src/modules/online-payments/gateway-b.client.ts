// A client of gateway B's checkout API (Yoco-style, as published): POST {base}/api/checkouts
// with `Authorization: Bearer <secret key>` and an `Idempotency-Key`, body { amount (cents),
// currency "ZAR", successUrl, cancelUrl, failureUrl, metadata }, answered with the checkout's
// `id` and `redirectUrl` (where the payer pays). The same Idempotency-Key answers the same
// checkout, so a retried link creation never makes a second one.
import { fetch } from 'undici';

/** Each call's time allowed (connect, send, answer). */
export const CALL_TIMEOUT_MS = 15_000;

export interface CheckoutRequest {
  /** Cents (an integer). */
  amount: number;
  currency: 'ZAR';
  successUrl: string;
  cancelUrl: string;
  failureUrl: string;
  /** Echoed back on the checkout's payment events: who and what it is for. */
  metadata: Record<string, string>;
}

export interface Checkout {
  id: string;
  redirectUrl: string;
}

export class GatewayBError extends Error {
  /** unauthorized: the secret key was refused; refused: another 4xx; unavailable: 5xx, timeout, network. */
  readonly kind: 'unauthorized' | 'refused' | 'unavailable';
  constructor(kind: GatewayBError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export async function createCheckout(
  baseUrl: string,
  secretKey: string,
  body: CheckoutRequest,
  idempotencyKey: string,
): Promise<Checkout> {
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(`${baseUrl}/api/checkouts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secretKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new GatewayBError('unavailable', `gateway B could not be reached: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (res.status === 401 || res.status === 403)
    throw new GatewayBError('unauthorized', 'gateway B refused the secret key');
  if (res.status >= 500) throw new GatewayBError('unavailable', `gateway B answered ${res.status}`);
  if (!res.ok)
    throw new GatewayBError(
      'refused',
      `gateway B refused the checkout (${res.status}): ${text.slice(0, 200)}`,
    );
  let parsed: { id?: unknown; redirectUrl?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayBError('unavailable', 'gateway B answered something other than JSON');
  }
  if (typeof parsed.id !== 'string' || typeof parsed.redirectUrl !== 'string')
    throw new GatewayBError('unavailable', 'gateway B answered a checkout without id or redirectUrl');
  return { id: parsed.id, redirectUrl: parsed.redirectUrl };
}
