// Hostile webhook targets shared by the save-time and the connect-time tests. `url` spells
// the address the way an attacker would; `address` is what a name server would answer
// for a name pointing there (undefined when the entry is about the spelling or the name).

export interface HostileTarget {
  what: string;
  url: string;
  address?: string;
}

export const HOSTILE_TARGETS: HostileTarget[] = [
  { what: 'loopback, dotted', url: 'https://127.0.0.1/hook', address: '127.0.0.1' },
  { what: 'loopback, decimal', url: 'https://2130706433/hook', address: '127.0.0.1' },
  { what: 'loopback, hexadecimal', url: 'https://0x7f000001/hook', address: '127.0.0.1' },
  { what: 'loopback, octal', url: 'https://0177.0.0.1/hook', address: '127.0.0.1' },
  { what: 'loopback, short form', url: 'https://127.1/hook', address: '127.0.0.1' },
  { what: 'loopback, mixed hex and octal parts', url: 'https://0x7f.0.00.1/hook', address: '127.0.0.1' },
  { what: 'loopback, trailing dot', url: 'https://127.0.0.1./hook', address: '127.0.0.1' },
  { what: 'loopback, full-width digits', url: 'https://１２７.０.０.１/hook', address: '127.0.0.1' },
  { what: 'loopback, percent-escaped', url: 'https://%31%32%37.0.0.1/hook', address: '127.0.0.1' },
  { what: 'loopback elsewhere in 127/8', url: 'https://127.53.1.2/hook', address: '127.53.1.2' },
  { what: 'IPv6 loopback', url: 'https://[::1]/hook', address: '::1' },
  {
    what: 'IPv4-mapped loopback, dotted',
    url: 'https://[::ffff:127.0.0.1]/hook',
    address: '::ffff:127.0.0.1',
  },
  { what: 'IPv4-mapped loopback, hex', url: 'https://[::ffff:7f00:1]/hook', address: '::ffff:7f00:1' },
  { what: 'IPv4-compatible loopback', url: 'https://[::127.0.0.1]/hook', address: '::7f00:1' },
  { what: 'NAT64 of a private address', url: 'https://[64:ff9b::10.0.0.1]/hook', address: '64:ff9b::a00:1' },
  {
    what: '6to4 of the metadata address',
    url: 'https://[2002:a9fe:a9fe::1]/hook',
    address: '2002:a9fe:a9fe::1',
  },
  { what: 'unspecified, dotted', url: 'https://0.0.0.0/hook', address: '0.0.0.0' },
  { what: 'unspecified, "0"', url: 'https://0/hook', address: '0.0.0.0' },
  { what: 'IPv6 unspecified', url: 'https://[::]/hook', address: '::' },
  { what: 'private 10/8', url: 'https://10.1.2.3/hook', address: '10.1.2.3' },
  { what: 'private 172.16/12', url: 'https://172.31.255.254/hook', address: '172.31.255.254' },
  { what: 'private 192.168/16, decimal', url: 'https://3232235777/hook', address: '192.168.1.1' },
  { what: 'link-local', url: 'https://169.254.10.20/hook', address: '169.254.10.20' },
  { what: 'IPv6 link-local', url: 'https://[fe80::1]/hook', address: 'fe80::1' },
  { what: 'CGNAT 100.64/10', url: 'https://100.64.0.1/hook', address: '100.64.0.1' },
  { what: 'metadata', url: 'https://169.254.169.254/latest/meta-data/', address: '169.254.169.254' },
  { what: 'metadata, decimal', url: 'https://2852039166/latest/meta-data/', address: '169.254.169.254' },
  { what: 'metadata, IPv4-mapped', url: 'https://[::ffff:a9fe:a9fe]/', address: '::ffff:169.254.169.254' },
  { what: 'metadata, AWS IPv6', url: 'https://[fd00:ec2::254]/', address: 'fd00:ec2::254' },
  { what: 'metadata, Alibaba', url: 'https://100.100.100.200/', address: '100.100.100.200' },
  { what: 'Azure WireServer', url: 'https://168.63.129.16/', address: '168.63.129.16' },
  { what: 'multicast', url: 'https://224.0.0.1/hook', address: '224.0.0.1' },
  { what: 'IPv6 multicast', url: 'https://[ff02::1]/hook', address: 'ff02::1' },
  { what: 'broadcast, decimal', url: 'https://4294967295/hook', address: '255.255.255.255' },
  { what: 'reserved 240/4', url: 'https://240.0.0.1/hook', address: '240.0.0.1' },
  { what: 'documentation TEST-NET-1', url: 'https://192.0.2.10/hook', address: '192.0.2.10' },
  { what: 'benchmarking 198.18/15', url: 'https://198.18.0.1/hook', address: '198.18.0.1' },
  { what: 'IPv6 documentation', url: 'https://[2001:db8::1]/hook', address: '2001:db8::1' },
  { what: 'IPv6 unique-local', url: 'https://[fd12:3456:789a::1]/hook', address: 'fd12:3456:789a::1' },
  { what: 'IPv6 link-local with a zone id', url: 'https://[fe80::1%25eth0]/hook' },
  { what: 'localhost', url: 'https://localhost/hook' },
  { what: 'localhost, upper case with trailing dot', url: 'https://LOCALHOST./hook' },
  { what: 'a .localhost name', url: 'https://api.localhost/hook' },
  { what: 'GCP metadata name', url: 'https://metadata.google.internal/computeMetadata/v1/' },
  { what: 'GCP metadata name, trailing dot', url: 'https://metadata.google.internal./computeMetadata/v1/' },
  { what: 'a single-label (search-domain) name', url: 'https://redis/hook' },
  { what: 'a .internal name', url: 'https://billing.corp.internal/hook' },
  { what: 'an mDNS name', url: 'https://printer.local/hook' },
];

/** Public addresses: allowed, and never connected to by the tests. */
export const PUBLIC_V4 = '93.184.215.14';
export const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';
