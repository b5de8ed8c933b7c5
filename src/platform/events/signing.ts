// Delivery headers per Standard Webhooks (the spec's table): webhook-id is the event id,
// identical on every retry; webhook-timestamp is when this attempt was signed;
// webhook-signature is "v1," and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed
// with the secret after its whsec_ prefix. Signed by the `standardwebhooks` library itself,
// so what we send is what its verifiers accept.
import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signDelivery(secret: string, eventId: string, at: Date, body: string): SignedHeaders {
  const seconds = Math.floor(at.getTime() / 1000);
  // The library signs the whole seconds of the Date it is given; give it exactly those.
  const signedAt = new Date(seconds * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': new Webhook(secret).sign(eventId, signedAt, body),
  };
}
