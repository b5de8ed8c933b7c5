// A node:test reporter: after the run, how long each test file took, slowest first, so that
// the suite's time is seen where it goes (its budget: README, "Tests"). A file's time is the
// wall clock from the start of its process to the end of its last test (its modules' loading
// included); its CPU is not known here (each file is a process of its own).
import { relative } from 'node:path';

interface Event {
  type: string;
  data?: { file?: string; nesting?: number; details?: { duration_ms?: number } };
}

interface Seen {
  first: number;
  last: number;
  tests: number;
}

/** How many of the slowest files are printed; all of them with TEST_DURATIONS=all. */
const SHOWN = process.env.TEST_DURATIONS === 'all' ? Number.POSITIVE_INFINITY : 25;

export default async function* fileDurations(source: AsyncIterable<Event>): AsyncGenerator<string> {
  const files = new Map<string, Seen>();
  const started = Date.now();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const seen = files.get(file);
    // The runner takes a file off its queue when it starts the file's process; `test:complete`
    // is sent as each test ends (`test:pass` may be replayed later, in declaration order).
    if (!seen) {
      if (event.type === 'test:dequeue') files.set(file, { first: now, last: now, tests: 0 });
    } else if (event.type === 'test:complete') {
      seen.last = now;
      seen.tests++;
    }
  }
  const rows = [...files]
    .map(([file, seen]) => ({
      file: relative(process.cwd(), file),
      ms: seen.last - seen.first,
      tests: seen.tests,
    }))
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  yield `\ntest files by time (${rows.length} files, ${(total / 1000).toFixed(0)} s of file time in ${((Date.now() - started) / 1000).toFixed(0)} s of run):\n`;
  for (const row of rows.slice(0, SHOWN)) {
    yield `${(row.ms / 1000).toFixed(1).padStart(7)} s  ${row.file} (${row.tests} tests)\n`;
  }
}
