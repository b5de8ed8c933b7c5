// The connect step of the webhook dispatcher: where SSRF is actually stopped. Every new
// connection resolves the host itself, judges every address, and opens the socket to one
// of those judged addresses by IP, so nothing resolves the name again between the check
// and the connect (no DNS rebinding). The peer of the opened socket is judged once more.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';
import { checkAddress } from './address-policy.ts';
import { type ResolveAddresses, targetAddresses } from './target-addresses.ts';

/** A delivery refused by the address policy; its message is the reason. */
export class WebhookTargetRefused extends Error {
  readonly code = 'WEBHOOK_TARGET_REFUSED';
  override name = 'WebhookTargetRefused';
}

export interface SafeConnectorOptions {
  allowPrivate: boolean;
  resolve?: ResolveAddresses;
  /** TCP plus TLS handshake, per address tried. */
  connectTimeoutMs: number;
  /** Extra trusted certificate authorities (a private PKI, or a test's self-signed receiver). */
  ca?: string | Buffer;
}

/** Errors after which the next resolved address is worth trying: the host was not reached. */
const UNREACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);

function sameAddress(a: string, b: string): boolean {
  try {
    // process() folds ::ffff:a.b.c.d into a.b.c.d, as a dual-stack socket may report it.
    return ipaddr.process(a).toString() === ipaddr.process(b).toString();
  } catch {
    return false;
  }
}

export function safeConnector(options: SafeConnectorOptions): buildConnector.connector {
  // Certificate checking stays on: rejectUnauthorized is never turned off, and the
  // certificate is checked against `servername`, the URL's host name, not the pinned IP.
  const connectTo = buildConnector({
    timeout: options.connectTimeoutMs,
    allowH2: false,
    rejectUnauthorized: true,
    ...(options.ca ? { ca: options.ca } : {}),
  });

  return (target, callback) => {
    // undici hands over the URL's hostname (IPv6 without brackets). Its `servername` may
    // come from a Host header, so ours is recomputed from the hostname alone.
    // Plain http has no server name to send (and undici would otherwise route it through
    // a lookup hook).
    const named = isIP(target.hostname) === 0 && target.protocol === 'https:';
    const servername = named ? target.hostname.replace(/\.$/, '') : undefined;

    targetAddresses(target.hostname, options).then(
      (verdict) => {
        if (!verdict.allowed) {
          callback(new WebhookTargetRefused(verdict.reason), null);
          return;
        }
        tryAddress(verdict.addresses, 0);
      },
      (error: Error) => callback(error, null),
    );

    function tryAddress(addresses: string[], index: number): void {
      const address = addresses[index]!;
      connectTo({ ...target, hostname: address, servername }, (error, socket) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          if (UNREACHED.has(code) && index + 1 < addresses.length) tryAddress(addresses, index + 1);
          else callback(error, null);
          return;
        }
        const peer = socket.remoteAddress ?? '';
        const verdict = checkAddress(peer, options.allowPrivate);
        if (!sameAddress(peer, address) || !verdict.allowed) {
          socket.destroy();
          const reason = verdict.allowed
            ? `connected to ${peer || 'an unknown peer'}, not ${address}`
            : verdict.reason;
          callback(new WebhookTargetRefused(reason), null);
          return;
        }
        callback(null, socket);
      });
    }
  };
}
