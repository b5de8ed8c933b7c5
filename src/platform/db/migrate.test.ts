// A migration is applied once by its number: a file renamed or renumbered after a database
// recorded that number would be skipped there silently, so start-up refuses, naming both files.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { type Migration, migrate } from './migrate.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const first: Migration = { version: 1, name: '0001_things.sql', sql: 'CREATE TABLE things (id int);' };
const second: Migration = { version: 2, name: '0002_more.sql', sql: 'CREATE TABLE more (id int);' };

describe('migrate: a recorded version under another name', () => {
  test('a renamed file stops start-up before anything is applied, naming both names', async () => {
    const database = await unmigratedDatabase(cleanups);
    assert.deepEqual(await migrate(database, [first]), ['0001_things.sql']);
    const renamed = { ...first, name: '0001_stuff.sql' };
    const third: Migration = { version: 3, name: '0003_last.sql', sql: 'CREATE TABLE last (id int);' };
    await assert.rejects(
      migrate(database, [renamed, third]),
      (e: Error) =>
        /migration 0001 was applied to this database as 0001_things\.sql/.test(e.message) &&
        /the file of that number is now 0001_stuff\.sql/.test(e.message),
    );
    const table = await sql<{ t: string | null }>`select to_regclass('last')::text as t`.execute(database.db);
    assert.equal(table.rows[0]?.t, null, 'nothing after the refusal was applied');
  });

  test('a renumbered file (another file now holds the number) is refused too', async () => {
    const database = await unmigratedDatabase(cleanups);
    await migrate(database, [first, second]);
    // 0002_more.sql renumbered to 0003, and a new file given number 2.
    const newcomer: Migration = { version: 2, name: '0002_new.sql', sql: 'CREATE TABLE newcomer (id int);' };
    await assert.rejects(
      migrate(database, [first, newcomer, { ...second, version: 3, name: '0003_more.sql' }]),
      /applied to this database as 0002_more\.sql, but the file of that number is now 0002_new\.sql/,
    );
  });

  test('the same names apply nothing more and pass; a new number applies', async () => {
    const database = await unmigratedDatabase(cleanups);
    await migrate(database, [first]);
    assert.deepEqual(await migrate(database, [first]), []);
    assert.deepEqual(await migrate(database, [first, second]), ['0002_more.sql']);
  });
});
