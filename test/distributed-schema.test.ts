// A schema ready for a distributed PostgreSQL (issue 15; docs/operations.md, "Scaling out"):
// read from pg_catalog after every migration, so a new migration that breaks a rule fails CI.
// Citus distributes a table by one column and needs that column in every primary key, unique
// index and foreign key between distributed tables; row-level security is this service's
// second wall between tenants. The rules, for every table of `public` with a tenant_id that
// is not one of the reference tables (src/platform/db/reference-tables.ts, the one list):
//   1. tenant_id is the first column of the primary key;
//   2. every unique index (unique constraints, partial and expression indexes included)
//      has tenant_id among its columns;
//   3. every foreign key to another tenant table pairs tenant_id with tenant_id;
//   4. row-level security is enabled and forced;
// and every table without tenant_id is a listed reference table, every listed one exists,
// and no reference table points at a tenant table (Citus refuses that foreign key).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { REFERENCE_TABLES } from '../src/platform/db/reference-tables.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

let d: TestDatabase;
before(async () => {
  d = await freshDatabase();
});
after(() => d.close());

async function rows<T>(query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(d.db)).rows;
}

const reference = new Set(Object.keys(REFERENCE_TABLES));

interface Table {
  name: string;
  hasTenant: boolean;
}

async function tables(): Promise<Table[]> {
  return rows<Table>(sql`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS "hasTenant"
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY 1`);
}

/** The tenant tables: a tenant_id, and not a reference table. */
async function tenantTables(): Promise<string[]> {
  return (await tables()).filter((t) => t.hasTenant && !reference.has(t.name)).map((t) => t.name);
}

describe('the schema can be distributed by tenant_id', () => {
  test('every table without tenant_id is a listed reference table; every listed one exists', async () => {
    const all = await tables();
    const without = all.filter((t) => !t.hasTenant && !reference.has(t.name)).map((t) => t.name);
    assert.deepEqual(
      without,
      [],
      'tables with no tenant_id: add tenant_id, or list them in reference-tables.ts',
    );
    const names = new Set(all.map((t) => t.name));
    for (const listed of reference) assert.ok(names.has(listed), `reference table ${listed} does not exist`);
    assert.ok((await tenantTables()).length > 30, 'the tenant tables were not found');
  });

  test('tenant_id is the first column of every tenant table’s primary key', async () => {
    const offenders = await rows<{ name: string; key: string | null }>(sql`
      SELECT c.relname AS name, pg_get_constraintdef(k.oid) AS key
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
      LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND (k.oid IS NULL OR k.conkey[1] <> a.attnum)
      ORDER BY 1`);
    assert.deepEqual(
      offenders.filter((o) => !reference.has(o.name)),
      [],
      'a primary key without tenant_id first (or no primary key)',
    );
  });

  test('every unique index of a tenant table includes tenant_id', async () => {
    const offenders = await rows<{ name: string; index: string }>(sql`
      SELECT c.relname AS name, pg_get_indexdef(x.indexrelid) AS index
      FROM pg_index x
      JOIN pg_class c ON c.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND x.indisunique AND NOT (a.attnum = ANY (x.indkey::int2[]))
      ORDER BY 1, 2`);
    assert.deepEqual(
      offenders.filter((o) => !reference.has(o.name)),
      [],
      'a unique index or constraint without tenant_id',
    );
  });

  test('every foreign key between tenant tables pairs tenant_id with tenant_id', async () => {
    const keys = await rows<{ name: string; target: string; key: string; paired: boolean }>(sql`
      SELECT c.relname AS name, f.relname AS target, pg_get_constraintdef(k.oid) AS key,
             EXISTS (
               SELECT 1 FROM unnest(k.conkey, k.confkey) AS p(mine, theirs)
               JOIN pg_attribute am ON am.attrelid = k.conrelid AND am.attnum = p.mine
               JOIN pg_attribute at ON at.attrelid = k.confrelid AND at.attnum = p.theirs
               WHERE am.attname = 'tenant_id' AND at.attname = 'tenant_id'
             ) AS paired
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class f ON f.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND k.contype = 'f'
      ORDER BY 1, 3`);
    const tenant = new Set(await tenantTables());
    const between = keys.filter((k) => tenant.has(k.name) && tenant.has(k.target));
    assert.ok(between.length > 20, 'the foreign keys were not found');
    assert.deepEqual(
      between.filter((k) => !k.paired).map((k) => `${k.name}: ${k.key}`),
      [],
      'a foreign key between tenant tables without tenant_id = tenant_id',
    );
    assert.deepEqual(
      keys.filter((k) => reference.has(k.name) && tenant.has(k.target)).map((k) => `${k.name}: ${k.key}`),
      [],
      'a reference table pointing at a tenant table',
    );
  });

  test('every tenant table has row-level security enabled and forced', async () => {
    const flags = await rows<{ name: string; enabled: boolean; forced: boolean }>(sql`
      SELECT c.relname AS name, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`);
    const tenant = new Set(await tenantTables());
    assert.deepEqual(
      flags.filter((f) => tenant.has(f.name) && !(f.enabled && f.forced)).map((f) => f.name),
      [],
      'tenant tables without row-level security enabled and forced',
    );
  });
});
