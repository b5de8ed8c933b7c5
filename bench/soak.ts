// The soak (issue 15): the real server (`node src/main.ts`, its job worker on) under mixed
// traffic at a steady rate for SOAK_SECONDS (default 600), one minute at a time, on the embedded
// database (or DATABASE_URL's PostgreSQL, in a database of its own). Each minute: the requests
// answered by class, p50 and p99, and the server's resident memory (VmRSS). The traffic, per
// round of 8 requests: a page of invoices, a company, a contact list and the trial balance (reads),
// an invoice created (which emits invoice.created to a subscribed webhook) and a contact created
// (writes), and two calls with an API key's token (a key call). Every webhook event must reach the
// local receiver by the end. Verdicts: memory flat (the last minute's RSS within 20% of the
// first's), every minute's p99 within 2× of the first minute's, zero 5xx. Written to
// bench/SOAK.md. Not in CI: it needs a quiet machine for ten minutes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sha256 } from '../test/support/app.ts';
import { emptyPgDatabase } from '../test/support/db.ts';
import { freePort, startMain } from '../test/support/server.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 40);
const CONNECTIONS = 8;
const SLICE_S = Math.min(60, SECONDS);

interface Minute {
  minute: number;
  requests: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  p50: number;
  p99: number;
  rssMb: number;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

async function json(url: string, init: RequestInit & { token?: string; company?: string } = {}) {
  const res = await fetch(url, {
    ...init,
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.company ? { 'x-company-id': init.company } : {}),
    },
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const started = new Date();
const load = loadavg();
const database = process.env.DATABASE_URL ? await emptyPgDatabase(process.env.DATABASE_URL) : undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'bp-soak-'));

// The webhook receiver: counts each event once by its webhook-id.
const received = new Set<string>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.add(String(req.headers['webhook-id']));
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as { port: number }).port;

const server = await startMain({
  PORT: String(await freePort()),
  DATA_DIR: dataDir,
  DATABASE_URL: database?.url,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
  LOG_LEVEL: 'warn',
});
const pid = server.child.pid!;
try {
  const url = server.url;
  const reg = await json(`${url}/auth/register`, {
    method: 'POST',
    body: JSON.stringify({
      tenantName: 'Soak Traders',
      name: 'Owner',
      email: 'soak@example.co.za',
      password: sha256('Soak password 1'),
      plan: 'business',
    }),
  });
  const token = reg.accessToken as string;
  const company = reg.companyId as string;
  const contact = await json(`${url}/api/contacts`, {
    method: 'POST',
    token,
    body: JSON.stringify({ name: 'Soak customer', contactType: 'CUSTOMER' }),
  });
  await json(`${url}/api/webhooks`, {
    method: 'POST',
    token,
    body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hooks`, eventTypes: ['invoice.created'] }),
  });
  const made = await json(`${url}/api/api-keys`, {
    method: 'POST',
    token,
    body: JSON.stringify({
      name: 'soak',
      owner: 'user',
      scopes: ['contacts:read'],
      rateLimitPerMinute: 100_000,
    }),
  });
  const keyToken = (await json(`${url}/auth/token`, { method: 'POST', token: made.key }))
    .accessToken as string;

  const owner = { authorization: `Bearer ${token}`, 'x-company-id': company };
  const key = { authorization: `Bearer ${keyToken}`, 'x-company-id': company };
  const write = { ...owner, 'content-type': 'application/json' };
  const invoice = JSON.stringify({
    documentType: 'invoice',
    contactId: contact.id,
    issueDate: '2026-11-02',
    dueDate: '2026-11-30',
    lines: [{ description: 'Soak widget', quantity: 2, unitPrice: 149.95 }],
  });
  const requests = [
    { method: 'GET', path: '/api/invoices?limit=20', headers: owner },
    { method: 'POST', path: '/api/invoices', headers: write, body: invoice },
    { method: 'GET', path: `/api/companies/${company}`, headers: owner },
    { method: 'GET', path: '/api/contacts?limit=20', headers: key },
    { method: 'POST', path: '/api/contacts', headers: write, body: JSON.stringify({ name: 'Walk-in' }) },
    { method: 'GET', path: '/api/reports/trial-balance', headers: owner },
    { method: 'GET', path: '/api/contacts?limit=20', headers: key },
    { method: 'GET', path: '/api/contacts?limit=5&q=walk', headers: owner },
  ];

  const minutes: Minute[] = [];
  const startRss = await rssMb(pid);
  process.stdout.write(`soak: ${SECONDS} s at ${RATE} req/s, server RSS at start ${startRss} MB\n`);
  for (let m = 1; m * SLICE_S <= SECONDS; m++) {
    const r = (await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SLICE_S,
      overallRate: RATE,
      requests,
    })) as {
      requests: { total: number };
      latency: { p50: number; p99: number };
      '2xx': number;
      '4xx': number;
      '5xx': number;
      non2xx: number;
    };
    const row: Minute = {
      minute: m,
      requests: r['2xx'] + r.non2xx,
      ok: r['2xx'],
      clientErrors: r['4xx'],
      serverErrors: r['5xx'],
      p50: r.latency.p50,
      p99: r.latency.p99,
      rssMb: await rssMb(pid),
    };
    minutes.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  // Every invoice created emitted one event: all of them arrive (the worker polls every 2 s).
  const created = minutes.length ? (await json(`${url}/api/invoices?limit=1`, { token, company })).total : 0;
  const deadline = Date.now() + 60_000;
  while (received.size < created && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));

  const first = minutes[0]!;
  const last = minutes.at(-1)!;
  const worstP99 = Math.max(...minutes.map((x) => x.p99));
  const serverErrors = minutes.reduce((n, x) => n + x.serverErrors, 0);
  const clientErrors = minutes.reduce((n, x) => n + x.clientErrors, 0);
  const rssGrowth = last.rssMb / first.rssMb;
  const verdicts = [
    `memory: RSS ${startRss} MB at start, ${first.rssMb} MB after the first minute, ${last.rssMb} MB at the end (${rssGrowth.toFixed(2)}× the first minute's; goal ≤ 1.20): **${rssGrowth <= 1.2 ? 'flat' : 'grew'}**`,
    `p99: first minute ${first.p99} ms, worst minute ${worstP99} ms (${(worstP99 / first.p99).toFixed(2)}×; goal ≤ 2): **${worstP99 <= 2 * first.p99 ? 'held' : 'exceeded'}**`,
    `5xx: **${serverErrors}** (goal 0); 4xx: ${clientErrors}`,
    `webhooks: ${received.size} of ${created} invoice.created events arrived, each once`,
  ];
  const text = [
    '# Soak: ten minutes of mixed traffic on the real server',
    '',
    `Written by \`node bench/soak.ts\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC; ${SECONDS} s at ${RATE} requests/s over ${CONNECTIONS} connections (autocannon, \`overallRate\`), one row a minute.`,
    '',
    `- Machine: 2 cores, load average at start ${load.map((l) => l.toFixed(2)).join(' / ')}; database: ${database ? 'PostgreSQL (DATABASE_URL, a database of its own)' : 'embedded PGlite (DATA_DIR on disk)'}; the server is \`node src/main.ts\` with its job worker, LOG_LEVEL=warn.`,
    '- Each round of 8 requests: a page of invoices, an invoice created (emitting invoice.created to a subscribed local webhook), a company, a contact list with an API key’s token (twice), a contact created, the trial balance, a contact search.',
    '',
    '| minute | requests | 2xx | 4xx | 5xx | p50 ms | p99 ms | server RSS MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...minutes.map(
      (x) =>
        `| ${x.minute} | ${x.requests} | ${x.ok} | ${x.clientErrors} | ${x.serverErrors} | ${x.p50} | ${x.p99} | ${x.rssMb} |`,
    ),
    '',
    ...verdicts.map((v) => `- ${v}`),
    '',
  ].join('\n');
  if (SECONDS >= 600) writeFileSync(join(import.meta.dirname, 'SOAK.md'), text);
  process.stdout.write(`\n${text}`);
} finally {
  await server.stop();
  receiver.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
