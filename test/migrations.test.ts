// Migrations at start-up: each file once, whole or not at all, and safe when several
// processes start at once (an advisory lock makes them take turns).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { connect, type Database } from '../src/platform/db/connect.ts';
import { migrate, readMigrations } from '../src/platform/db/migrate.ts';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { call, freePort, startMain } from './support/server.ts';

const PG = process.env.DATABASE_URL;
const ALL = readMigrations().map((m) => m.name);
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A database with nothing in it: embedded in memory, or a new database on the server. */
async function emptyDatabaseUrl(): Promise<string | undefined> {
  if (!PG) return undefined;
  const empty = await emptyPgDatabase(PG);
  cleanups.push(empty.drop);
  return empty.url;
}

async function open(url: string | undefined): Promise<Database> {
  const database = await connect({ databaseUrl: url, poolSize: 2 });
  cleanups.push(() => database.close());
  return database;
}

async function recorded(database: Database): Promise<string[]> {
  const r = await sql<{ name: string }>`select name from schema_migrations order by version`.execute(
    database.db,
  );
  return r.rows.map((row) => row.name);
}

// The first two tests share one database: an embedded migration from nothing is the slow part.
let sharedDatabase: Promise<Database> | undefined;
const shared = () => {
  sharedDatabase ??= emptyDatabaseUrl().then(open);
  return sharedDatabase;
};

describe('migrations', () => {
  test('migrating twice: the first run applies every file, the second applies nothing', async () => {
    const database = await shared();
    assert.deepEqual(await migrate(database), ALL);
    assert.deepEqual(await migrate(database), []);
    assert.deepEqual(await recorded(database), ALL);
  });

  test('a failing file is rolled back whole and not recorded; the next run can go on', async () => {
    const database = await shared();
    await migrate(database);
    const bad = {
      version: 9999,
      name: '9999_bad.sql',
      sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();',
    };
    await assert.rejects(migrate(database, [...readMigrations(), bad]), /no_such_function/);
    const table = await sql<{ t: string | null }>`select to_regclass('half_done')::text as t`.execute(
      database.db,
    );
    assert.equal(table.rows[0]?.t, null, 'the table created before the error was rolled back');
    assert.deepEqual(await recorded(database), ALL);
    // The advisory lock was released: a corrected file applies.
    const fixed = { ...bad, sql: 'CREATE TABLE half_done (id int);' };
    assert.deepEqual(await migrate(database, [...readMigrations(), fixed]), ['9999_bad.sql']);
  });

  test('two migrators at once apply each file exactly once', async () => {
    const url = await emptyDatabaseUrl();
    // On PostgreSQL two pools, so the advisory lock is really contended; embedded, one
    // database serves both callers in turn.
    const a = await open(url);
    const b = url ? await open(url) : a;
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    assert.deepEqual([...ra, ...rb].sort(), ALL);
    assert.ok(ra.length === 0 || rb.length === 0, 'one of the two found nothing left to do');
    assert.deepEqual(await recorded(a), ALL);
  });

  // Two processes on one embedded data directory is not a thing (PGlite is one process's
  // database), so this journey exists only against a PostgreSQL server.
  if (PG) {
    test('two processes starting at once on one PostgreSQL database both serve, migrations applied once', async () => {
      const url = await emptyDatabaseUrl();
      const dataDir = mkdtempSync(join(tmpdir(), 'bp-two-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const [p1, p2] = await Promise.all([freePort(), freePort()]);
      const servers = await Promise.all(
        [p1, p2].map((port) => startMain({ DATA_DIR: dataDir, DATABASE_URL: url, PORT: String(port) })),
      );
      try {
        const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
        const password = sha256('two at once');
        const email = `two.${Date.now()}@example.co.za`;
        const reg = await call(`${one.url}/auth/register`, {
          body: { tenantName: 'Twin Peaks', name: 'Sipho', email, password },
        });
        assert.equal(reg.status, 201, JSON.stringify(reg.body));
        // Same database, same secret in DATA_DIR: a token from one process works on the other.
        assert.equal((await call(`${two.url}/api/companies`, { token: reg.body.accessToken })).status, 200);
        assert.equal((await call(`${two.url}/auth/login`, { body: { email, password } })).status, 200);
      } finally {
        const exits = await Promise.all(servers.map((s) => s.stop()));
        for (const exit of exits) assert.equal(exit.code, 0, exit.stderr);
        const applied = exits.filter((e) => /migrations applied/.test(e.stdout));
        assert.equal(applied.length, 1, 'exactly one of the two applied the migrations');
      }
      const check = await open(url);
      assert.deepEqual(await recorded(check), ALL);
    });
  }
});
