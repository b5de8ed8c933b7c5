// Applies the numbered SQL files in migrations/ in order, each once, recorded in
// schema_migrations. An advisory lock makes two processes starting at once take turns.
// A version is applied once by its number, so a file renamed or renumbered after a database
// recorded that number would be skipped there without a word: start-up refuses instead
// (recordedUnderAnotherName), before applying anything.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from './connect.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, '..', '..', '..', 'migrations');
const LOCK_KEY = 727_001; // any constant shared by every process of this service

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}

export async function migrate(database: Database, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await database.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        version integer primary key, name text not null, applied_at timestamptz not null default now())`.execute(
        conn,
      );
      const done = new Map(
        (
          await sql<{ version: number; name: string }>`select version, name from schema_migrations`.execute(
            conn,
          )
        ).rows.map((r) => [r.version, r.name]),
      );
      const renamed = recordedUnderAnotherName(done, migrations);
      if (renamed) throw new Error(renamed);
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        // Each file is one transaction: it lands whole or not at all.
        await conn.transaction().execute(async (tx) => {
          await sql.raw(m.sql).execute(tx);
          await sql`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`.execute(
            tx,
          );
        });
        applied.push(m.name);
      }
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
  return applied;
}

/**
 * The first migration whose number the database recorded under another file name, said so that
 * whoever starts the service knows both names; undefined when every recorded number matches.
 */
export function recordedUnderAnotherName(
  recorded: ReadonlyMap<number, string>,
  migrations: readonly Migration[],
): string | undefined {
  for (const m of migrations) {
    const name = recorded.get(m.version);
    if (name !== undefined && name !== m.name)
      return (
        `migration ${String(m.version).padStart(4, '0')} was applied to this database as ${name}, ` +
        `but the file of that number is now ${m.name}: a renamed or renumbered migration would be ` +
        'skipped here. Give the file back its name (and number the new one after the last), then start again.'
      );
  }
  return undefined;
}
