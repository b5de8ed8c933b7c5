// Applies the numbered SQL files in migrations/ in order, each once, recorded in
// schema_migrations. An advisory lock makes two processes starting at once take turns.
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
      const done = new Set(
        (await sql<{ version: number }>`select version from schema_migrations`.execute(conn)).rows.map(
          (r) => r.version,
        ),
      );
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
