// API_PROCESSES above 1: this process migrates the database once, then starts that many
// serving processes (node:cluster) sharing one listening port, and supervises them. Node.js
// runs a process's JavaScript on one core; one serving process per core is how a machine's
// cores all serve (measured: bench/RESULTS.md, docs/decisions.md).
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';
import type { createLogger } from './logger.ts';
import { connect } from './platform/db/connect.ts';
import { migrate } from './platform/db/migrate.ts';
import { assertRequestRoleIsConfined } from './platform/db/tenant.ts';

type Log = ReturnType<typeof createLogger>;

/** How long the serving processes get to finish their requests before they are killed. */
const STOP_GRACE_MS = 20_000;

export async function supervise(config: Config, log: Log): Promise<void> {
  // Once, here: the serving processes then find nothing to apply.
  const database = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(database);
    if (applied.length) log.info({ applied }, 'migrations applied');
    await assertRequestRoleIsConfined(database.db);
  } finally {
    await database.close();
  }

  // Our own count: a worker leaves cluster.workers only once both its exit and its
  // disconnect have been seen, in either order.
  const alive = new Set<Worker>();
  const serving = new Set<Worker>();
  const fork = () => alive.add(cluster.fork());
  let stopping = false;
  let exitCode = 0;

  const stop = (signal: string, code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    log.info({ signal, processes: alive.size }, 'stopping the serving processes');
    for (const w of alive) w.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const w of alive) w.process.kill('SIGKILL');
    }, STOP_GRACE_MS);
    force.unref();
    if (!alive.size) finish();
  };
  const finish = () => {
    log.info({ exitCode }, 'stopped');
    log.flushNow();
    process.exit(exitCode);
  };

  cluster.on('listening', (worker) => {
    serving.add(worker);
    if (serving.size === config.processes && !stopping) {
      log.info({ processes: config.processes, port: config.port }, 'serving with several processes');
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    const started = serving.delete(worker);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (!alive.size) finish();
      return;
    }
    if (!started) {
      // It printed why; starting it again would fail the same way.
      log.error({ worker: worker.process.pid, code, signal }, 'a serving process failed to start');
      stop('start-up failed', 1);
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a serving process ended; starting another');
    fork();
  });
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));

  for (let i = 0; i < config.processes; i++) fork();
}
