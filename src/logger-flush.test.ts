// The exit flush of the logger (logger.ts): it still writes every line left when someone
// reads, and it returns at once when nobody does (EPIPE), instead of retrying forever.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createLogger } from './logger.ts';

const dir = mkdtempSync(join(tmpdir(), 'bp-log-flush-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('flushNow writes every line still buffered', async () => {
  const file = join(dir, 'out.log');
  const log = createLogger('info', file);
  await new Promise((r) => setTimeout(r, 50)); // the file opens asynchronously
  for (let i = 0; i < 500; i++) log.info({ i }, 'line');
  log.flushNow();
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(lines.length, 500);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).i),
    [...Array(500).keys()],
  );
});

test('a process whose stdout reader is gone logs, flushes and exits at once', async () => {
  // The child logs to a pipe whose reader (this process) has closed it, then exits: the flush
  // at exit meets EPIPE and gives the lines up.
  const script = [
    "import { createLogger } from './src/logger.ts';",
    "const log = createLogger('info');",
    "setTimeout(() => { for (let i = 0; i < 100; i++) log.info('after the reader went'); process.exit(0); }, 300);",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.destroy();
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 10_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, `killed after ${Date.now() - started} ms`);
});

// Issue 35: a write that fails for good other than EPIPE (which pino's destination gives up by
// itself) was an `error` nobody handled: the process ended at once, dropping requests in flight.
test('a destination that refuses writes (here a read-only descriptor, EBADF): lines given up, the process lives on', async () => {
  const file = join(dir, 'read-only.log');
  const script = [
    "import { openSync, writeFileSync } from 'node:fs';",
    "import { createLogger } from './src/logger.ts';",
    `writeFileSync(${JSON.stringify(file)}, '');`,
    `const log = createLogger('info', openSync(${JSON.stringify(file)}, 'r'));`,
    "for (let i = 0; i < 50; i++) log.info('to nobody');",
    "setTimeout(() => { log.info('still here'); process.stderr.write('alive\\n'); process.exit(0); }, 300);",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stderr, /log lines are given up: their destination failed \(EBADF\)/);
  assert.match(stderr, /alive/);
});
