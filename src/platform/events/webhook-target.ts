// The save-time check of a webhook address. It answers a reason the route turns into a
// 400 naming the field; the delivery connector checks again on every connection, so this
// check is a courtesy to the person saving, not the wall.
import { type ResolveAddresses, targetAddresses } from './target-addresses.ts';

export type WebhookUrlVerdict =
  | { ok: true; url: string; addresses: string[] }
  | { ok: false; reason: string };

export interface WebhookUrlOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: admits http: and loopback/private receivers (never metadata). */
  allowPrivate: boolean;
  /** Where names are resolved; the process's name servers by default. */
  resolve?: ResolveAddresses;
}

/** Longer addresses are no receiver's and only fill logs. */
export const MAX_URL_LENGTH = 2048;

/**
 * Checks a webhook address: https (http too under allowPrivate), no credentials, and a
 * host that is, or resolves only to, public internet addresses. The host is read through
 * WHATWG URL parsing, which already turns every IPv4 spelling (2130706433, 0x7f000001,
 * 0177.0.0.1, 127.1, full-width digits, percent-escapes) into dotted decimal and IPv6 into
 * its compressed form; address-policy.ts then judges what that leaves.
 */
export async function checkWebhookUrl(raw: string, options: WebhookUrlOptions): Promise<WebhookUrlVerdict> {
  const parsed = parseWebhookUrl(raw, options.allowPrivate);
  if (!parsed.ok) return parsed;
  const target = await targetAddresses(parsed.url.hostname, options);
  if (!target.allowed) return { ok: false, reason: `is refused: ${target.reason}` };
  return { ok: true, url: parsed.url.href, addresses: target.addresses };
}

/** The checks that need no DNS: length, URL syntax, scheme, no credentials. */
export function parseWebhookUrl(
  raw: string,
  allowPrivate: boolean,
): { ok: true; url: URL } | { ok: false; reason: string } {
  if (raw.length > MAX_URL_LENGTH)
    return { ok: false, reason: `is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return { ok: false, reason: `must start with ${schemes.map((s) => `${s}//`).join(' or ')}` };
  }
  // Credentials in an address end up in logs and delivery records; receivers verify our
  // signature instead.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'must not contain a user name or password' };
  }
  return { ok: true, url };
}
