// What the bench's sections share: load with autocannon in its own process, a listening app,
// a round-trip counter, the targets (PGlite, PostgreSQL) and how figures are summarised.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import type { Database } from '../src/platform/db/connect.ts';

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_S = 1;
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const ROUNDS = 2;
export const POOL_SIZE = 10;
export const ROOT = join(import.meta.dirname, '..');
export const AUTOCANNON = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');

export interface Measure {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /** Milliseconds of CPU the load generator used (when measured). */
  loadCpuMs?: number;
  /** Milliseconds of CPU the server process used (when measured). */
  serverCpuMs?: number;
}

/** One autocannon run in a child process; fails on any error or non-2xx answer. */
export function autocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  request: {
    method?: 'GET' | 'POST';
    body?: string;
    /** A field of the JSON body made unique per request (a fresh body each time: POST only). */
    vary?: string;
    /** Every answer must have this status (not only a 2xx). */
    status?: number;
    /** Measure the load generator's own CPU time (`loadCpuMs`). */
    cpu?: boolean;
  } = {},
): Promise<Measure> {
  let args: string[];
  if (request.vary || request.cpu) {
    // The CLI sends one body; the programmatic API, in a child of its own, builds each request.
    const config = {
      url,
      headers,
      seconds,
      connections: CONNECTIONS,
      method: request.method ?? 'GET',
      body: request.body,
      vary: request.vary,
    };
    args = [join(import.meta.dirname, 'autocannon-child.ts'), JSON.stringify(config)];
  } else {
    args = [AUTOCANNON, '-j', '-n', '-c', String(CONNECTIONS), '-d', String(seconds)];
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
    if (request.method) args.push('-m', request.method);
    if (request.body !== undefined) args.push('-b', request.body);
    args.push(url);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out);
      const statuses = Object.entries(r.statusCodeStats ?? {}).map(
        ([status, s]) => [Number(status), (s as { count: number }).count] as const,
      );
      const unexpected =
        request.status !== undefined && statuses.some(([status]) => status !== request.status);
      if (r.errors || r.timeouts || r.non2xx || unexpected) {
        // The status counts name a 429 from the key's meter.
        return reject(
          new Error(
            `${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx ` +
              `(statuses ${statuses.map(([status, n]) => `${status}: ${n}`).join(', ')})`,
          ),
        );
      }
      resolve({
        requestsPerSecond: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        ...(r.cpuMs === undefined ? {} : { loadCpuMs: r.cpuMs }),
      });
    });
  });
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** Counts the round trips a request makes through Kysely (the opening script and COMMIT included). */
export function statementCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      this.count++;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
}

export interface Target {
  label: string;
  database: Database;
  /** The database of the floor route: one statement, no transaction, tenant visible. */
  floor: Database;
  /** PostgreSQL: the connection string of the fresh database. */
  url?: string;
  version: string;
  cleanup(): Promise<void>;
}

/** Median microseconds of one call, one at a time, after a warm-up (the median shrugs off
 * the other work on a shared machine better than the mean). */
export async function timeEach(fn: () => Promise<unknown>, n = 1000): Promise<number> {
  for (let i = 0; i < 50; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)]!;
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

export function summarise(ms: Measure[]) {
  return {
    rps: mean(ms.map((m) => m.requestsPerSecond)),
    p50: mean(ms.map((m) => m.p50)),
    p99: mean(ms.map((m) => m.p99)),
  };
}
