// Journey over a real port: register, stop the service with SIGTERM, start it again on the
// same data, and carry on with the tokens issued before the restart.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { call, freePort, type RunningServer, startMain } from './support/server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'bp-restart-'));
// On PostgreSQL the rows live in this file's own empty database (the service migrates it at
// its first start); DATA_DIR still keeps the JWT secret.
let database: Awaited<ReturnType<typeof emptyPgDatabase>> | undefined;
let env: Record<string, string | undefined>;
let running: RunningServer | undefined;

before(async () => {
  if (process.env.DATABASE_URL) database = await emptyPgDatabase(process.env.DATABASE_URL);
  env = { DATA_DIR: dataDir, DATABASE_URL: database?.url, PORT: String(await freePort()) };
});
after(async () => {
  await running?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('restart', () => {
  const password = sha256('Correct horse battery staple');
  const email = `restart.${Date.now()}@example.co.za`;
  let first: { accessToken: string; refreshToken: string; companyId: string; tenantId: string };
  let firstLog = '';

  test('first start: migrations applied, a tenant registers over the real port', async () => {
    running = await startMain({ ...env, PORT: env.PORT! });
    const reg = await call(`${running.url}/auth/register`, {
      body: {
        tenantName: 'Karoo Traders',
        name: 'Thandi',
        email,
        password,
        companyName: 'Karoo Traders (Pty) Ltd',
      },
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    first = reg.body;
    assert.ok(reg.headers.get('x-request-id'));
    const list = await call(`${running.url}/api/companies`, { token: first.accessToken });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((c: { id: string }) => c.id),
      [first.companyId],
    );
    assert.ok(existsSync(join(dataDir, 'jwt-secret')), 'the generated JWT secret is kept in DATA_DIR');
  });

  test('SIGTERM stops it gracefully with exit code 0', async () => {
    const exit = await running!.stop();
    running = undefined;
    assert.equal(exit.code, 0, `exit ${exit.code} ${exit.signal}\n${exit.stderr}`);
    assert.match(exit.stdout, /stopping: finishing requests in flight/);
    assert.match(exit.stdout, /"msg":"stopped"/);
    firstLog = exit.stdout + exit.stderr;
    assert.match(firstLog, /migrations applied/);
  });

  test('the log carries request ids and no credential', () => {
    assert.match(firstLog, /"reqId":"[\w.-]+"/);
    for (const secret of [password, first.accessToken, first.refreshToken]) {
      assert.ok(!firstLog.includes(secret), 'a credential reached the log');
    }
  });

  test('second start on the same data: nothing to migrate; the tenant, session and tokens survive', async () => {
    running = await startMain({ ...env, PORT: env.PORT! });
    const api = running.url;

    const list = await call(`${api}/api/companies`, { token: first.accessToken });
    assert.equal(list.status, 200, 'the access token issued before the restart still works');
    assert.equal(list.body[0].name, 'Karoo Traders (Pty) Ltd');

    const refreshed = await call(`${api}/auth/refresh`, { body: { refreshToken: first.refreshToken } });
    assert.equal(refreshed.status, 200, 'the refresh token issued before the restart still refreshes');
    assert.equal(refreshed.body.tenantId, first.tenantId);
    assert.notEqual(refreshed.body.refreshToken, first.refreshToken);
    assert.equal((await call(`${api}/api/companies`, { token: refreshed.body.accessToken })).status, 200);

    const login = await call(`${api}/auth/login`, { body: { email, password } });
    assert.equal(login.status, 200);
    assert.equal(login.body.tenantId, first.tenantId);
    assert.equal(login.body.tenantName, 'Karoo Traders');

    const exit = await running.stop();
    running = undefined;
    assert.equal(exit.code, 0, exit.stderr);
    assert.doesNotMatch(exit.stdout, /migrations applied/);
  });
});
