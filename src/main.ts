// Entry: config → database → migrate → app → listen → graceful stop.
import pino from 'pino';
import { buildApp, wireDeps } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { loggerOptions } from './logger.ts';
import { connect } from './platform/db/connect.ts';
import { migrate } from './platform/db/migrate.ts';
import { assertRequestRoleIsConfined } from './platform/db/tenant.ts';
import { createMailer } from './platform/mail/mailer.ts';

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
  const log = pino(loggerOptions(config.logLevel));
  const database = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'migrations applied');
  await assertRequestRoleIsConfined(database.db);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, log);
  const deps = wireDeps({ config, database, mailer, now: () => new Date() });
  const app = await buildApp(deps, { logger: loggerOptions(config.logLevel) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // Closes the rate limits' Redis connection too (an onClose hook).
      await app.close();
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

  await app.listen({ port: config.port, host: config.host });
  log.info(
    {
      port: config.port,
      database: database.kind === 'pg' ? 'postgresql' : `embedded (${config.dataDir})`,
      rateLimits: config.redisUrl ? 'redis (shared by every process)' : 'memory (this process only)',
    },
    'serving',
  );
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
