// From a webhook's host (an IP literal or a name) to the addresses we may connect to, or a
// reason to refuse. Save-time checks and the delivery connector both call this, so a name
// is judged by exactly the same rules in both places.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { checkAddress } from './address-policy.ts';

/** Every A and AAAA address of a name. Throws when the name cannot be resolved. */
export type ResolveAddresses = (hostname: string) => Promise<string[]>;

export type TargetVerdict = { allowed: true; addresses: string[] } | { allowed: false; reason: string };

/** Answers for both families that mean "no such records", as opposed to a failed lookup. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * A resolver that asks DNS directly (c-ares: A and AAAA queries) rather than getaddrinfo:
 * it returns every record, does not occupy libuv's small thread pool while a slow name
 * server answers, and can be pointed at a test name server with setServers().
 */
export function dnsResolver(resolver: Resolver): ResolveAddresses {
  return async (hostname) => {
    const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: string[] = [];
    for (const answer of answers) {
      if (answer.status === 'fulfilled') addresses.push(...answer.value);
      // A timeout or SERVFAIL on either family leaves that family unknown: fail closed
      // instead of judging the name on half its records.
      else if (!NO_RECORDS.has((answer.reason as NodeJS.ErrnoException).code ?? '')) throw answer.reason;
    }
    return addresses;
  };
}

let systemResolve: ResolveAddresses | undefined;
/** The process's name servers (/etc/resolv.conf), with a bounded wait. */
export function defaultResolve(): ResolveAddresses {
  systemResolve ??= dnsResolver(new Resolver({ timeout: 2500, tries: 2 }));
  return systemResolve;
}

/** Names that never denote a public internet host, whatever a resolver answers for them. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);
/** Private-use suffixes: mDNS (RFC 6762), home networks (RFC 8375), ICANN's .internal. */
const PRIVATE_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain'];
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The addresses of `host` (a URL hostname: lower case, IPv6 in brackets, maybe a trailing
 * dot), refused when any of them is not public (see address-policy.ts), when the name is a
 * metadata or private-use name, or when it does not resolve.
 */
export async function targetAddresses(
  host: string,
  options: { allowPrivate: boolean; resolve?: ResolveAddresses },
): Promise<TargetVerdict> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return judge([bare], options.allowPrivate);

  const name = bare.toLowerCase().replace(/\.$/, '');
  if (name === '') return { allowed: false, reason: 'the address has no host' };
  if (METADATA_NAMES.has(name)) return { allowed: false, reason: `${name} is a cloud metadata name` };
  if (isLoopbackName(name)) {
    // RFC 6761: localhost names mean this machine, whatever DNS says.
    return options.allowPrivate
      ? judge(LOOPBACK_ADDRESSES, true)
      : { allowed: false, reason: `${name} names this machine (loopback)` };
  }
  if (!options.allowPrivate) {
    // A single label is completed by the search domains of our own network (a container
    // or service name): never a public internet host.
    if (!name.includes('.'))
      return { allowed: false, reason: `${name} is not a fully qualified public name` };
    const suffix = PRIVATE_SUFFIXES.find((s) => name.endsWith(s));
    if (suffix) return { allowed: false, reason: `${name} is a private-use name (${suffix.slice(1)})` };
  }

  let addresses: string[];
  try {
    addresses = await (options.resolve ?? defaultResolve())(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    return { allowed: false, reason: `${name} could not be resolved (${code})` };
  }
  if (addresses.length === 0) return { allowed: false, reason: `${name} does not resolve to any address` };
  return judge(addresses, options.allowPrivate, name);
}

/** All or nothing: one refused address refuses the name, since any of them may be used. */
function judge(addresses: string[], allowPrivate: boolean, name?: string): TargetVerdict {
  for (const address of addresses) {
    const verdict = checkAddress(address, allowPrivate);
    if (!verdict.allowed) {
      return { allowed: false, reason: name ? `${name} resolves to ${verdict.reason}` : verdict.reason };
    }
  }
  return { allowed: true, addresses: [...new Set(addresses)] };
}
