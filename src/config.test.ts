import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bp-config-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SECRET = 'a-secret-of-at-least-thirty-two-characters';

/** loadConfig with a throwaway DATA_DIR unless the test names one. */
function load(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: SECRET, ...env });
}

function refuses(env: Record<string, string>, variable: string) {
  assert.throws(
    () => load(env),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${String(e)}`);
      assert.match(e.message, new RegExp(`\\b${variable}\\b`), `the message names ${variable}`);
      return true;
    },
  );
}

describe('loadConfig', () => {
  test('defaults: port 3000, embedded database in ./data, enterprise plan, info logs', () => {
    const c = loadConfig({ JWT_SECRET: SECRET });
    assert.equal(c.port, 3000);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.publicBaseUrl, 'http://localhost:3000');
    assert.equal(c.smtpUrl, undefined);
    assert.equal(c.defaultPlan, 'enterprise');
    assert.equal(c.logLevel, 'info');
    assert.equal(c.webhookAllowPrivateTargets, false);
    assert.equal(c.whatsappConfigured, false);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.jobsWorker, true);
    assert.equal(c.processes, 1);
    assert.deepEqual(c.corsOrigins, []);
  });

  test('reads every variable it knows', () => {
    const dir = tempDir();
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: 'postgresql://app:pw@db.internal:5432/platform',
      PUBLIC_BASE_URL: 'https://books.example.co.za/',
      JWT_SECRET: SECRET,
      SMTP_URL: 'smtps://user:pw@mail.example.co.za',
      MAIL_FROM: 'Books <books@example.co.za>',
      WHATSAPP_TOKEN: 'x',
      DEFAULT_PLAN: 'business',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      REDIS_URL: 'redis://cache:6379',
      JOBS_WORKER: '0',
      API_PROCESSES: '4',
      CORS_ORIGINS: 'https://app.example.co.za, http://localhost:5173/,https://APP.example.co.za',
    });
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, dir);
    assert.equal(c.databaseUrl, 'postgresql://app:pw@db.internal:5432/platform');
    assert.equal(c.publicBaseUrl, 'https://books.example.co.za', 'trailing slash dropped');
    assert.deepEqual(c.jwtSecret, new TextEncoder().encode(SECRET));
    assert.equal(c.smtpUrl, 'smtps://user:pw@mail.example.co.za');
    assert.equal(c.mailFrom, 'Books <books@example.co.za>');
    assert.equal(c.whatsappConfigured, true);
    assert.equal(c.defaultPlan, 'business');
    assert.equal(c.logLevel, 'warn');
    assert.equal(c.webhookAllowPrivateTargets, true);
    assert.equal(c.redisUrl, 'redis://cache:6379');
    assert.equal(c.jobsWorker, false);
    assert.equal(c.processes, 4);
    // Trimmed, written as a browser sends Origin (no trailing slash, lower-case host), once each.
    assert.deepEqual(c.corsOrigins, ['https://app.example.co.za', 'http://localhost:5173']);
  });

  test('API_PROCESSES=auto is one process per core, on PostgreSQL', () => {
    const c = load({ API_PROCESSES: 'auto', DATABASE_URL: 'postgres://app@db/platform' });
    assert.equal(c.processes, availableParallelism());
  });

  test('PUBLIC_BASE_URL defaults to localhost on the configured port', () => {
    assert.equal(load({ PORT: '4100' }).publicBaseUrl, 'http://localhost:4100');
  });

  test('a bad value stops start-up with a message naming the variable', () => {
    refuses({ PORT: 'abc' }, 'PORT');
    refuses({ PORT: '70000' }, 'PORT');
    refuses({ PORT: '80.5' }, 'PORT');
    refuses({ PORT: '-1' }, 'PORT');
    refuses({ DATABASE_URL: 'nonsense' }, 'DATABASE_URL');
    refuses({ DATABASE_URL: 'mysql://root@localhost/db' }, 'DATABASE_URL');
    refuses({ PUBLIC_BASE_URL: 'ftp://example.co.za' }, 'PUBLIC_BASE_URL');
    refuses({ SMTP_URL: 'http://mail' }, 'SMTP_URL');
    refuses({ REDIS_URL: 'not a url' }, 'REDIS_URL');
    refuses({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    refuses({ DEFAULT_PLAN: 'gold' }, 'DEFAULT_PLAN');
    refuses({ JWT_SECRET: 'short' }, 'JWT_SECRET');
    refuses({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_TARGETS');
    refuses({ JOBS_WORKER: 'no' }, 'JOBS_WORKER');
    const pg = { DATABASE_URL: 'postgres://app@db/platform' };
    for (const bad of ['0', '1.5', 'two', '-2', '257'])
      refuses({ ...pg, API_PROCESSES: bad }, 'API_PROCESSES');
    // The embedded database is one process's.
    refuses({ API_PROCESSES: '2' }, 'API_PROCESSES');
    for (const bad of [
      '*',
      'app.example.co.za',
      'ftp://app.example.co.za',
      'https://app.example.co.za/path',
      'https://app.example.co.za?x=1',
      'https://user:pw@app.example.co.za',
      'https://a.example.co.za,,https://b.example.co.za',
    ])
      refuses({ CORS_ORIGINS: bad }, 'CORS_ORIGINS');
  });

  test('the message does not repeat a DATABASE_URL that may hold a password', () => {
    assert.throws(
      () => load({ DATABASE_URL: 'mysql://root:hunter2-secret@localhost/db' }),
      (e: Error) => !e.message.includes('hunter2-secret'),
    );
  });

  test('empty values count as unset', () => {
    const c = load({ PORT: '', DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: '', DEFAULT_PLAN: '' });
    assert.equal(c.port, 3000);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.smtpUrl, undefined);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.defaultPlan, 'enterprise');
  });

  test('without JWT_SECRET a secret is generated once, kept in DATA_DIR (mode 600) and reused', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    assert.deepEqual(second.jwtSecret, first.jwtSecret);
    assert.ok(first.jwtSecret.length >= 32);
    const file = join(dir, 'jwt-secret');
    assert.equal(readFileSync(file, 'utf8'), new TextDecoder().decode(first.jwtSecret));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const elsewhere = loadConfig({ DATA_DIR: tempDir() });
    assert.notDeepEqual(elsewhere.jwtSecret, first.jwtSecret, 'another data directory, another secret');
  });

  test('JWT_SECRET, when set, wins over the kept secret', () => {
    const dir = tempDir();
    loadConfig({ DATA_DIR: dir });
    assert.deepEqual(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).jwtSecret,
      new TextEncoder().encode(SECRET),
    );
  });
});

describe('BANK_FEED_BASE_URL', () => {
  test("defaults to Investec's API host; given, it is used without a trailing slash; not http(s): refused", () => {
    assert.equal(load({}).bankFeedBaseUrl, 'https://openapi.investec.com');
    assert.equal(
      load({ BANK_FEED_BASE_URL: 'http://127.0.0.1:4010/' }).bankFeedBaseUrl,
      'http://127.0.0.1:4010',
    );
    assert.throws(() => load({ BANK_FEED_BASE_URL: 'ftp://bank' }), /BANK_FEED_BASE_URL/);
  });
});

describe('GATEWAY_A_BASE_URL and GATEWAY_B_BASE_URL', () => {
  test("default to the gateways' hosts; given, used without a trailing slash; not http(s): refused", () => {
    assert.equal(load({}).gatewayABaseUrl, 'https://www.payfast.co.za');
    assert.equal(load({}).gatewayBBaseUrl, 'https://payments.yoco.com');
    assert.equal(
      load({ GATEWAY_A_BASE_URL: 'http://127.0.0.1:4020/' }).gatewayABaseUrl,
      'http://127.0.0.1:4020',
    );
    assert.equal(
      load({ GATEWAY_B_BASE_URL: 'http://127.0.0.1:4030' }).gatewayBBaseUrl,
      'http://127.0.0.1:4030',
    );
    assert.throws(() => load({ GATEWAY_A_BASE_URL: 'ftp://gateway' }), /GATEWAY_A_BASE_URL/);
    assert.throws(() => load({ GATEWAY_B_BASE_URL: 'gateway' }), /GATEWAY_B_BASE_URL/);
  });
});
