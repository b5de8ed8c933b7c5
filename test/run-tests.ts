// `npm test`: migrate once (snapshot or template), then every test file in parallel, each
// on its own database. DATABASE_URL set: the same suite against that PostgreSQL server.
//
// The whole suite also records every answer of the service (OBSERVED_RESPONSES_DIR, a fresh
// temporary directory) and then runs test/observed-responses.check.ts on what it recorded:
// every status answered is declared in the OpenAPI document, every error body matches its
// schema. A run of chosen files records and checks too when OBSERVED_RESPONSES_DIR is set.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSnapshot } from './support/db.ts';

const started = Date.now();
await prepareSnapshot();
process.stdout.write(
  `test database ready on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'} in ${Date.now() - started} ms\n`,
);
const chosen = process.argv.slice(2);
const patterns = chosen.length ? chosen : ['src/**/*.test.ts', 'test/**/*.test.ts'];
const given = process.env.OBSERVED_RESPONSES_DIR;
const observed = given || (chosen.length ? undefined : mkdtempSync(join(tmpdir(), 'bp-observed-')));
const env = {
  ...process.env,
  // Every test file is a process of its own that loads the whole service: Node's compile cache
  // keeps the TypeScript it strips and the code it compiles between them (measured: importing
  // src/app.ts 1.7-1.9 s without, 1.1-1.2 s with).
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'bp-compile-cache'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  ...(observed ? { OBSERVED_RESPONSES_DIR: observed } : {}),
};
const result = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${Math.max(2, availableParallelism())}`,
    '--test-timeout=120000',
    // The usual report, then each file's time, slowest first (support/file-durations.ts).
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(import.meta.dirname, 'support', 'file-durations.ts')}`,
    '--test-reporter-destination=stdout',
    ...patterns,
  ],
  { stdio: 'inherit', env },
);
let status = result.status ?? 1;
if (observed) {
  process.stdout.write(`\nthe answers the tests saw, against the OpenAPI document (${observed}):\n`);
  const check = spawnSync(process.execPath, ['--test', 'test/observed-responses.check.ts'], {
    stdio: 'inherit',
    env,
  });
  const checked = check.status ?? 1;
  if (status === 0) status = checked;
  // A directory of our own is removed once it has nothing more to tell.
  if (!given && checked === 0) rmSync(observed, { recursive: true, force: true });
}
process.exit(status);
