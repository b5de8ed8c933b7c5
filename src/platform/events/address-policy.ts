// Which IP addresses a webhook may be delivered to: the public internet only. One pure
// function, used both when a webhook is saved and on every connection the delivery client
// opens, so the two checks cannot drift apart.
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Cloud metadata and platform endpoints. Most sit in ranges refused anyway (link-local,
 * CGNAT, unique-local); they are listed by name so that allowPrivate, which admits loopback
 * and private receivers for development, never admits them, and so that the one that looks
 * public (Azure's 168.63.129.16) is refused at all.
 */
const METADATA: ReadonlyArray<[string, string]> = [
  ['169.254.169.254', 'AWS, GCP, Azure, Oracle and OpenStack instance metadata'],
  ['169.254.170.2', 'AWS ECS task metadata'],
  ['169.254.169.253', 'AWS VPC DNS'],
  ['169.254.169.123', 'AWS time sync'],
  ['fd00:ec2::254', 'AWS IPv6 instance metadata'],
  ['fd00:ec2::23', 'AWS IPv6 VPC DNS'],
  ['100.100.100.200', 'Alibaba Cloud instance metadata'],
  ['168.63.129.16', 'Azure WireServer'],
  ['192.0.0.192', 'Oracle Cloud legacy metadata'],
];
const METADATA_BY_ADDRESS = new Map(METADATA.map(([ip, what]) => [canonical(ipaddr.parse(ip)), what]));

/** Words for ipaddr.js's range names, so a refusal reads well in a 400. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  private: 'a private network address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a benchmarking address',
  as112: 'an AS112 address',
  amt: 'an AMT relay address',
  uniqueLocal: 'a unique-local (fc00::/7) address',
  deprecatedSiteLocal: 'a site-local (fec0::/10) address',
  discard: 'a discard-only (100::/64) address',
  rfc6145: 'an IPv4-translated (::ffff:0:0:0/96) address',
  teredo: 'a Teredo tunnel address',
  as112v6: 'an AS112 address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a drone remote ID address',
  segmentRouting: 'a segment routing address',
  rfc6052: 'a local-use NAT64 (64:ff9b:1::/48) address',
};

/** Ranges that loopback/private development receivers live in: what allowPrivate admits. */
const PRIVATE_DEVELOPMENT_RANGES = new Set(['loopback', 'private', 'uniqueLocal']);

/** IPv6 global unicast is 2000::/3; anything outside it is not a public internet host. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64 well-known prefix (RFC 6052): DNS64 networks hand these out for public IPv4 hosts. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

function canonical(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toNormalizedString() : addr.toString();
}

function refused(address: string, what: string): AddressVerdict {
  return { allowed: false, reason: `${address} is ${what}, not a public internet address` };
}

/**
 * Decides whether `address` (any notation ipaddr.js parses; a zone id is ignored) may be
 * connected to. `allowPrivate` admits loopback and private-network receivers for
 * development and tests, never metadata endpoints. Anything unparseable is refused.
 */
export function checkAddress(address: string, allowPrivate = false): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return { allowed: false, reason: `${address} is not an IP address` };
  }
  return parsed.kind() === 'ipv4'
    ? checkV4(parsed as ipaddr.IPv4, address, allowPrivate)
    : checkV6(parsed as ipaddr.IPv6, address, allowPrivate);
}

function checkV4(addr: ipaddr.IPv4, shown: string, allowPrivate: boolean): AddressVerdict {
  const metadata = METADATA_BY_ADDRESS.get(canonical(addr));
  if (metadata) return refused(shown, `a cloud metadata endpoint (${metadata})`);
  const range = addr.range();
  if (range === 'unicast') return { allowed: true };
  if (allowPrivate && PRIVATE_DEVELOPMENT_RANGES.has(range)) return { allowed: true };
  return refused(shown, RANGE_WORDS[range] ?? `in the special-purpose range "${range}"`);
}

function checkV6(addr: ipaddr.IPv6, shown: string, allowPrivate: boolean): AddressVerdict {
  const metadata = METADATA_BY_ADDRESS.get(canonical(addr));
  if (metadata) return refused(shown, `a cloud metadata endpoint (${metadata})`);

  // IPv6 forms that carry an IPv4 address: the kernel (mapped) or a translator (NAT64,
  // 6to4) delivers to that IPv4 host, so the IPv4 host is what gets judged.
  const embedded = embeddedV4(addr);
  if (embedded) {
    const inner = checkV4(embedded, embedded.toString(), allowPrivate);
    return inner.allowed
      ? inner
      : { allowed: false, reason: `${shown} carries an IPv4 address: ${inner.reason}` };
  }

  // The deprecated IPv4-compatible form ::a.b.c.d is routed nowhere today; refuse it
  // outright rather than guess how a stack treats it (::1 and :: are judged below).
  if (addr.parts.slice(0, 6).every((w) => w === 0) && (addr.parts[6] !== 0 || addr.parts[7]! > 1)) {
    return refused(shown, `an IPv4-compatible IPv6 address (${lastWordsAsV4(addr).toString()})`);
  }

  const range = addr.range() as string;
  if (allowPrivate && PRIVATE_DEVELOPMENT_RANGES.has(range)) return { allowed: true };
  if (range !== 'unicast') {
    return refused(shown, RANGE_WORDS[range] ?? `in the special-purpose range "${range}"`);
  }
  // ipaddr.js calls every unlisted address "unicast", including unassigned space and the
  // deprecated IPv4-compatible ::a.b.c.d form: only global unicast is the internet.
  if (!addr.match(GLOBAL_UNICAST_V6)) return refused(shown, 'outside IPv6 global unicast space (2000::/3)');
  return { allowed: true };
}

/** The IPv4 address inside an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 address, if any. */
function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = addr.parts;
  if (addr.isIPv4MappedAddress() || addr.match(NAT64_WELL_KNOWN)) return lastWordsAsV4(addr);
  if (addr.match(SIX_TO_FOUR)) return v4FromWords(p[1]!, p[2]!);
  return undefined;
}

function lastWordsAsV4(addr: ipaddr.IPv6): ipaddr.IPv4 {
  return v4FromWords(addr.parts[6]!, addr.parts[7]!);
}

function v4FromWords(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}
