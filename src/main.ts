// Entry: config → database → migrate → app → listen → graceful stop. With API_PROCESSES above
// 1, this process supervises that many serving processes, each running the same steps.
import cluster from 'node:cluster';
import { buildApp, wireDeps } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { connect } from './platform/db/connect.ts';
import { migrate } from './platform/db/migrate.ts';
import { assertRequestRoleIsConfined } from './platform/db/tenant.ts';
import { createJobs } from './platform/jobs/jobs.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { supervise } from './supervisor.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  // Lines still buffered when the process ends, however it ends, are written synchronously.
  process.on('exit', () => log.flushNow());
  if (config.processes > 1 && cluster.isPrimary) {
    if (!config.redisUrl) {
      log.warn(
        { processes: config.processes },
        'rate limits are counted in each process (no REDIS_URL): a caller gets a budget per process',
      );
    }
    await supervise(config, log);
    return;
  }
  const database = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'migrations applied');
  await assertRequestRoleIsConfined(database.db);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, log);
  const jobs = createJobs({ database, log, work: config.jobsWorker });
  const deps = wireDeps({ config, database, mailer, jobs, now: () => new Date() });
  const app = await buildApp(deps, { loggerInstance: log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // The worker first: no new job starts, and handlers in flight finish while the
      // database is still open (embedded, they share its one connection with requests).
      await jobs.stopWorking();
      // Closes the rate limits' Redis connection too (an onClose hook).
      await app.close();
      // After the requests: one in flight may still enqueue in its transaction.
      await jobs.stop();
      mailer.close();
      await database.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // Before listening: creates or migrates the job schema (under pg-boss's own lock) and
  // starts the worker, so a process that serves can also enqueue.
  await jobs.start();
  await app.listen({ port: config.port, host: config.host });
  log.info(
    {
      port: config.port,
      database: database.kind === 'pg' ? 'postgresql' : `embedded (${config.dataDir})`,
      jobs: config.jobsWorker ? 'enqueue and run' : 'enqueue only (JOBS_WORKER=0)',
      rateLimits: config.redisUrl ? 'redis (shared by every process)' : 'memory (this process only)',
    },
    'serving',
  );
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
