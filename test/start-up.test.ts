// Start-up refusals of `node src/main.ts`: bad configuration names the variable and exits
// non-zero; a request role that is a superuser or bypasses row-level security is refused.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../src/platform/db/connect.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { SNAPSHOT } from './support/db.ts';
import { runMain } from './support/server.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bp-start-up-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('start-up', () => {
  test('bad configuration exits with code 2 and a message naming the variable', async () => {
    const cases = [
      { env: { PORT: 'abc' }, variable: 'PORT' },
      { env: { DATABASE_URL: 'nonsense' }, variable: 'DATABASE_URL' },
      { env: { LOG_LEVEL: 'loud' }, variable: 'LOG_LEVEL' },
      { env: { API_PROCESSES: 'many' }, variable: 'API_PROCESSES' },
      // The embedded database is one process's.
      { env: { API_PROCESSES: '2', DATABASE_URL: '' }, variable: 'API_PROCESSES' },
    ];
    const exits = await Promise.all(cases.map((c) => runMain({ DATA_DIR: tempDir(), ...c.env })));
    exits.forEach((exit, i) => {
      const { variable } = cases[i]!;
      assert.equal(exit.code, 2, `${variable}: exit ${exit.code}\n${exit.stderr}`);
      assert.match(exit.stderr, new RegExp(`^Configuration error: ${variable}\\b`, 'm'));
      assert.doesNotMatch(exit.stderr, /\n\s+at /, 'a message, not a stack trace');
    });
  });

  test('a database that cannot be reached stops start-up with a non-zero exit and the reason', async () => {
    const exit = await runMain({
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none',
    });
    assert.equal(exit.code, 1);
    assert.match(exit.stderr, /^Start-up failed: .*ECONNREFUSED/m);
    assert.doesNotMatch(exit.stderr, /nobody:pw/, 'the password in DATABASE_URL is not repeated');
  });

  // Always on the embedded database: changing the cluster-wide bp_app role of a shared
  // PostgreSQL server would break every other test running against it.
  test('refuses to serve when the request role bypasses row-level security or is a superuser', async () => {
    const dataDir = tempDir();
    // Start from the suite's migrated snapshot when there is one (migrating from nothing is slow).
    let load = existsSync(SNAPSHOT) ? new Blob([readFileSync(SNAPSHOT)]) : undefined;
    const alterAppRole = async (attributes: string) => {
      const database = await connect({ dataDir, ...(load ? { loadDataDir: load } : {}) });
      load = undefined;
      await migrate(database);
      await sql.raw(`ALTER ROLE bp_app ${attributes}`).execute(database.db);
      await database.close();
    };

    await alterAppRole('BYPASSRLS');
    const bypass = await runMain({ DATA_DIR: dataDir, PORT: '0' });
    assert.equal(bypass.code, 1, bypass.stderr);
    assert.match(bypass.stderr, /Refusing to serve: requests would run as "bp_app"/);

    await alterAppRole('NOBYPASSRLS SUPERUSER');
    const superuser = await runMain({ DATA_DIR: dataDir, PORT: '0' });
    assert.equal(superuser.code, 1, superuser.stderr);
    assert.match(superuser.stderr, /Refusing to serve: requests would run as "bp_app"/);
  });
});
