// A tiny authoritative DNS server over UDP for tests: answers A and AAAA queries from a
// function, so a test can make a name resolve to anything, or to something else on the
// next query (DNS rebinding), through the real resolver code path.
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

const TYPE_A = 1;
const TYPE_AAAA = 28;

export interface DnsQuery {
  name: string;
  type: 'A' | 'AAAA' | 'other';
}

/** Addresses for a name; undefined means no such name (NXDOMAIN), 'SERVFAIL' a broken server. */
export type Answer = (query: DnsQuery) => string[] | undefined | 'SERVFAIL';

export interface TestDnsServer {
  port: number;
  queries: DnsQuery[];
  /** A resolver that asks only this server, quickly giving up. */
  resolver(): Resolver;
  close(): Promise<void>;
}

export async function startDnsServer(answer: Answer): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const queries: DnsQuery[] = [];
  socket.on('message', (message, peer) => {
    const reply = respond(message, answer, queries);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    port,
    queries,
    resolver() {
      // No retries: the server is local and always answers.
      const resolver = new Resolver({ timeout: 2000, tries: 1 });
      resolver.setServers([`127.0.0.1:${port}`]);
      return resolver;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function respond(message: Buffer, answer: Answer, log: DnsQuery[]): Buffer | undefined {
  if (message.length < 12) return undefined;
  // The question: labels, then type and class.
  const labels: string[] = [];
  let at = 12;
  while (at < message.length && message[at] !== 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += length + 1;
  }
  const questionEnd = at + 5;
  if (questionEnd > message.length) return undefined;
  const qtype = message.readUInt16BE(at + 1);
  const query: DnsQuery = {
    name: labels.join('.').toLowerCase(),
    type: qtype === TYPE_A ? 'A' : qtype === TYPE_AAAA ? 'AAAA' : 'other',
  };
  log.push(query);

  const answered = answer(query);
  const addresses = answered === 'SERVFAIL' ? [] : answered;
  const rcode = answered === 'SERVFAIL' ? 2 : answered === undefined ? 3 : 0;
  const wanted = (addresses ?? []).filter(
    (a) => ipaddr.parse(a).kind() === (qtype === TYPE_A ? 'ipv4' : 'ipv6'),
  );
  const records = query.type === 'other' ? [] : wanted;

  const header = Buffer.alloc(12);
  header.writeUInt16BE(message.readUInt16BE(0), 0); // same id
  // QR, AA, RD, RA, and the response code.
  header.writeUInt16BE(0x8580 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const question = message.subarray(12, questionEnd);
  const answers = records.map((address) => {
    const rdata = Buffer.from(ipaddr.parse(address).toByteArray());
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question
    rr.writeUInt16BE(qtype, 2);
    rr.writeUInt16BE(1, 4); // class IN
    rr.writeUInt32BE(0, 6); // TTL 0: nothing cached between a test's queries
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}
