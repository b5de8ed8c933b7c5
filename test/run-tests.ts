// `npm test`: migrate once (snapshot or template), then every test file in parallel, each
// on its own database. DATABASE_URL set: the same suite against that PostgreSQL server.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { prepareSnapshot } from './support/db.ts';

const started = Date.now();
await prepareSnapshot();
process.stdout.write(
  `test database ready on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'} in ${Date.now() - started} ms\n`,
);
const patterns = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['src/**/*.test.ts', 'test/**/*.test.ts'];
const result = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${Math.max(2, availableParallelism())}`,
    '--test-timeout=120000',
    ...patterns,
  ],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
