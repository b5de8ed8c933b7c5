// The app as deployed: `node src/main.ts` with API_PROCESSES (one serving process per core, as
// docs/operations.md says to run it), on a given PostgreSQL database, logging at info to
// nowhere (stdout ignored) as the in-process app logs to /dev/null. For the benches that
// compare the app with pgbench, which runs a thread per core.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/server.ts';

/** One per core. */
export const PROCESSES = availableParallelism();
/** Clock ticks a second of /proc/<pid>/stat (USER_HZ: 100 on Linux everywhere). */
const TICKS_PER_SECOND = 100;

export interface ServingProcesses {
  url: string;
  /** CPU milliseconds the serving processes have used so far (user and system). */
  cpuMs(): number;
  stop(): Promise<void>;
}

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

function cpuTicks(pid: number): number {
  // The fields after the command (which may hold spaces) start after its closing parenthesis;
  // utime and stime are the 14th and 15th fields of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export async function startProcesses(databaseUrl: string, jwtSecret: string): Promise<ServingProcesses> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bp-bench-processes-'));
  const port = await freePort();
  const root = join(import.meta.dirname, '..');
  const child = spawn(process.execPath, [join(root, 'src', 'main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PROCESSES: String(PROCESSES),
      // As the in-process app: it enqueues, nothing runs jobs during the measurements.
      JOBS_WORKER: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  // Serving once all the processes are there and the port answers; then a second for the last
  // one to listen (a connection the primary hands it before is queued, not refused).
  for (;;) {
    if (exited) throw new Error(`the serving processes stopped at start:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the serving processes did not start within 60 s:\n${stderr}`);
    }
    try {
      if (childrenOf(child.pid!).length === PROCESSES && (await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const workers = childrenOf(child.pid!);
  return {
    url,
    cpuMs: () => (workers.reduce((n, pid) => n + cpuTicks(pid), 0) * 1000) / TICKS_PER_SECOND,
    async stop() {
      child.kill('SIGTERM');
      await exit;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
