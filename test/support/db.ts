// Test databases. Migrations run once per `npm test` (run-tests.ts): PGlite's migrated data
// directory is saved as a snapshot, or on PostgreSQL a migrated template database is made.
// Each test file then starts from its own copy, so files run in parallel without sharing rows.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createJobs } from '../../src/platform/jobs/jobs.ts';

/** pg-boss creates its schema at its first start: done once here, so no test file pays for it. */
async function createJobSchema(database: Database): Promise<void> {
  const log = { error() {}, warn() {}, info() {} };
  const jobs = createJobs({ database, log, work: false, poolSize: 1 });
  await jobs.start();
  await jobs.stop();
}

const ROOT = join(import.meta.dirname, '..', '..');
// Kept as a plain tar: each of the ~240 test files loads it, and unpacking gzip cost 0.6 s of
// the 1.7 s a load took (measured); the disk it takes (tens of MB in .cache/) is cheaper.
export const SNAPSHOT = join(ROOT, '.cache', 'test-snapshot.tar');
const SNAPSHOT_KEY = `${SNAPSHOT}.key`;
// One template per checkout, so that two checkouts (git worktrees) can run the suite against
// one PostgreSQL server at the same time.
const TEMPLATE = `bp_test_template_${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`;

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops a test database, ending its sessions. WITH (FORCE) cannot end a session it may not
 * signal (an autovacuum worker that has just started on it, on PostgreSQL 15): it finishes
 * quickly, so try again.
 */
async function dropDatabase(databaseUrl: string, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(databaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (e) {
      if (attempt > 40 || (e as { code?: string }).code !== '42501') throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * What the snapshot is made from: the migrations, the code that applies them and the locked
 * packages (PGlite, pg-boss's schema). A snapshot made from the same is used again by the next
 * `npm test` in this checkout instead of migrating afresh (measured: 12 s of CPU a run).
 */
function snapshotKey(): string {
  const hash = createHash('sha256');
  const files = (dir: string, pick: RegExp) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => pick.test(name))
      .sort()
      .map((name) => join(dir, name));
  for (const file of [
    ...files('migrations', /\.sql$/),
    ...files('src/platform/db', /^(?!.*\.test\.ts$).*\.ts$/),
    'package-lock.json',
  ]) {
    hash.update(file).update(readFileSync(join(ROOT, file)));
  }
  return hash.digest('hex');
}

/** Once per run: migrate and keep the result as the starting point of every test file. */
export async function prepareSnapshot(databaseUrl = process.env.DATABASE_URL): Promise<void> {
  if (databaseUrl) {
    await admin(databaseUrl, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${TEMPLATE}`);
    });
    const url = withDatabase(databaseUrl, TEMPLATE);
    const db = await connect({ databaseUrl: url, poolSize: 1 });
    await migrate(db);
    await createJobSchema(db);
    await db.close();
    return;
  }
  const key = snapshotKey();
  if (existsSync(SNAPSHOT) && existsSync(SNAPSHOT_KEY) && readFileSync(SNAPSHOT_KEY, 'utf8') === key) return;
  const db = await connect({});
  await migrate(db);
  await createJobSchema(db);
  const blob = await db.pglite!.dumpDataDir('none');
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  // Renamed into place: a run that starts meanwhile in this checkout reads a whole file.
  const partial = `${SNAPSHOT}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
  renameSync(partial, SNAPSHOT);
  writeFileSync(SNAPSHOT_KEY, key);
  await db.close();
}

export interface TestDatabase extends Database {
  /** The connection string of this file's own database (PostgreSQL only). */
  url?: string;
}

/** A database of this test file's own, migrated, empty. */
export async function freshDatabase(databaseUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (databaseUrl) {
    const name = `bp_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    // Copies of one template may not run at the same instant: retry while it is busy.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin(databaseUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`));
        break;
      } catch (e) {
        if (attempt > 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    const url = withDatabase(databaseUrl, name);
    const db = await connect({ databaseUrl: url });
    const close = db.close;
    return {
      ...db,
      url,
      close: async () => {
        await close();
        await dropDatabase(databaseUrl, name);
      },
    };
  }
  if (!existsSync(SNAPSHOT)) {
    // A file run on its own, without run-tests.ts: migrate from scratch.
    const db = await connect({});
    await migrate(db);
    return db;
  }
  return connect({ loadDataDir: new Blob([readFileSync(SNAPSHOT)]) });
}

/**
 * PostgreSQL only: a new database with nothing in it, not even the migrations, for tests
 * of the migrator and of start-up itself. `drop()` removes it.
 */
export async function emptyPgDatabase(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bp_test_empty_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(databaseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(databaseUrl, name),
    drop: () => dropDatabase(databaseUrl, name),
  };
}

/**
 * A database with nothing in it, for a test of one migration on data written before it: a
 * fresh embedded database, or with DATABASE_URL a new PostgreSQL database. Closing it (and
 * dropping the PostgreSQL one) is pushed onto `cleanups`, which the test file runs after its tests.
 */
export async function unmigratedDatabase(cleanups: Array<() => Promise<void>>): Promise<Database> {
  const pgUrl = process.env.DATABASE_URL;
  const empty = pgUrl ? await emptyPgDatabase(pgUrl) : undefined;
  if (empty) cleanups.push(empty.drop);
  const database = await connect({ databaseUrl: empty?.url, poolSize: 2 });
  cleanups.push(() => database.close());
  return database;
}
