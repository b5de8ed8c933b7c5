// The real service as a child process (`node src/main.ts`) on a real port, for journeys
// that cross a restart, start-up checks and graceful shutdown.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The environment of a child: this process's, less what a test must decide itself. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  // The suite's DATABASE_URL names the admin database, not this test's; the runner's
  // NODE_TEST_CONTEXT would make the child think it is a test file.
  for (const k of ['DATABASE_URL', 'JWT_SECRET', 'NODE_TEST_CONTEXT', 'PORT', 'DATA_DIR', 'LOG_LEVEL'])
    delete base[k];
  const out: NodeJS.ProcessEnv = { ...base, HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<Exit>;
}

/** Runs `node src/main.ts` to its end (for start-ups that must fail). */
export function runMain(env: Record<string, string | undefined>, timeoutMs = 30_000): Promise<Exit> {
  const child = spawn(process.execPath, ['src/main.ts'], { cwd: ROOT, env: childEnv(env) });
  const exited = collectExit(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return exited.finally(() => clearTimeout(timer));
}

function collectExit(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      // Let the pipes drain before answering.
      setImmediate(() => resolve({ code, signal, stdout, stderr }));
    });
  });
}

/** Starts `node src/main.ts` and waits until GET /health answers. */
export async function startMain(
  env: Record<string, string | undefined> & { PORT: string },
  timeoutMs = 60_000,
): Promise<RunningServer> {
  const child = spawn(process.execPath, ['src/main.ts'], { cwd: ROOT, env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      setImmediate(() => {
        exit = { code, signal, stdout, stderr };
        resolve(exit);
      });
    });
  });
  const url = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exit)
      throw new Error(`the server exited (${exit.code}) before serving:\n${exit.stderr}\n${exit.stdout}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /health within ${timeoutMs} ms:\n${stderr}\n${stdout}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => ({ stdout, stderr }),
    async stop() {
      if (!exit) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the service answered
type Json = any;

/** fetch with a JSON body and an optional bearer token; answers the status and parsed body. */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
