// withTenantReading: a read route's queries as the tenant, read-only; on PostgreSQL without a
// transaction of its own (each query carries the settings) and with the opening riding with
// the first query. Every rule of a tenant transaction must still hold, the check must come
// before anything reaches the handler or the caller, and nothing may stay on the connection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { freshDatabase, type TestDatabase } from '../../../test/support/db.ts';
import { connect, type Database } from './connect.ts';
import type { DB } from './schema.ts';
import { withTenant, withTenantReading } from './tenant.ts';

let database: TestDatabase;
// One connection, so that what one call leaves behind is what the next one finds.
let single: Database;
const tenantA = crypto.randomUUID();
const tenantB = crypto.randomUUID();

before(async () => {
  database = await freshDatabase();
  single = database.url ? await connect({ databaseUrl: database.url, poolSize: 1 }) : database;
  for (const [id, name] of [
    [tenantA, 'Reader A'],
    [tenantB, 'Reader B'],
  ] as const) {
    await withTenant(single.db, id, (tx) =>
      tx.insertInto('tenants').values({ id, name, plan: 'free' }).execute(),
    );
  }
});
after(async () => {
  if (single !== database) await single.close();
  await database.close();
});

const pipelined = () => single.kind === 'pg';

interface Opening {
  t: string;
  who: string;
}

/** What happened, in order: the check's view of the opening, and the handler's steps. */
let events: string[] = [];

function read<T>(
  fn: (tx: Kysely<DB>) => Promise<T>,
  check: (rows: Opening[]) => Promise<void> = async () => {},
): Promise<T> {
  return withTenantReading<Opening, T>(
    single.db,
    pipelined(),
    tenantA,
    "select current_setting('app.tenant_id') as t, current_user as who",
    async (rows) => {
      const seen = rows[0]?.t === tenantA && rows[0]?.who === 'bp_app';
      events.push(seen ? 'check saw the tenant as bp_app' : `check saw ${JSON.stringify(rows)}`);
      await check(rows);
    },
    fn,
  );
}

class Refused extends Error {}
const refuse = async () => {
  throw new Refused('refused by the check');
};

const settingsNow = (db: Kysely<DB>) =>
  sql<{
    t: string | null;
    who: string;
    ro: string;
  }>`select nullif(current_setting('app.tenant_id', true), '') as t, current_user as who, current_setting('transaction_read_only') as ro`
    .execute(db)
    .then((r) => r.rows[0]!);

test('the opening and every query read as the tenant, as bp_app, read-only', async () => {
  events = [];
  await read(async (tx) => {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await settingsNow(tx), { t: tenantA, who: 'bp_app', ro: 'on' });
    }
  });
  assert.deepEqual(events, ['check saw the tenant as bp_app']);
});

test('the check has run before the first query answers the handler', async () => {
  events = [];
  await read(async (tx) => {
    events.push('handler starts');
    await settingsNow(tx);
    events.push('first query answered');
    await settingsNow(tx);
  });
  const expected = pipelined()
    ? ['handler starts', 'check saw the tenant as bp_app', 'first query answered']
    : ['check saw the tenant as bp_app', 'handler starts', 'first query answered'];
  assert.deepEqual(events, expected);
});

test('on PostgreSQL the opening rides with the first query: no round trip of its own', async () => {
  // Every statement batch reaches pg's own Client.query once.
  // biome-ignore lint/suspicious/noExplicitAny: wrapping pg's query to count the calls
  const proto = pg.Client.prototype as any;
  const original = proto.query;
  let sent = 0;
  proto.query = function (...args: unknown[]) {
    sent++;
    return original.apply(this, args);
  };
  try {
    await read(async (tx) => {
      await settingsNow(tx);
      await settingsNow(tx);
    });
  } finally {
    proto.query = original;
  }
  // PGlite does not go through pg's Client: nothing to count there.
  assert.equal(sent, pipelined() ? 2 : 0);
});

test('row-level security shows the tenant its own rows only', async () => {
  const names = await read((tx) => tx.selectFrom('tenants').select('name').execute());
  assert.deepEqual(names, [{ name: 'Reader A' }]);
});

test('parameters reach the query as given', async () => {
  const row = await read((tx) =>
    sql<{ a: string; b: number; c: null }>`select ${'x;y'}::text as a, ${42}::int as b, ${null}::text as c`
      .execute(tx)
      .then((r) => r.rows[0]),
  );
  assert.deepEqual(row, { a: 'x;y', b: 42, c: null });
});

test('a refusing check fails the request, even when the handler swallows the failed query', async () => {
  let reached = false;
  await assert.rejects(
    read(async (tx) => {
      reached = true;
      await settingsNow(tx).catch(() => {});
      return 'looked fine';
    }, refuse),
    Refused,
  );
  // On PGlite the check comes first and the handler never starts.
  assert.equal(reached, pipelined());
});

test('a handler that makes no query is still checked, and the refusal wins over its own error', async () => {
  events = [];
  await assert.rejects(
    read(async () => {
      throw new Error('a 400 of the handler');
    }, refuse),
    Refused,
  );
  assert.deepEqual(events, ['check saw the tenant as bp_app']);
  events = [];
  assert.equal(await read(async () => 'no query needed'), 'no query needed');
  assert.deepEqual(events, ['check saw the tenant as bp_app']);
});

test('when the first query fails, the opening is checked on its own', async () => {
  events = [];
  await assert.rejects(
    read((tx) => sql`select 1 / 0`.execute(tx)),
    /division by zero/,
  );
  assert.deepEqual(events, ['check saw the tenant as bp_app']);
  events = [];
  await assert.rejects(
    read((tx) => sql`select 1 / 0`.execute(tx), refuse),
    Refused,
  );
  assert.deepEqual(events, ['check saw the tenant as bp_app']);
});

test('a write is refused and nothing is written', async () => {
  const id = crypto.randomUUID();
  await assert.rejects(
    read((tx) => tx.insertInto('tenants').values({ id, name: 'Sneaked in', plan: 'free' }).execute()),
    /read-only transaction/,
  );
  const rows = await withTenant(single.db, id, (tx) => tx.selectFrom('tenants').selectAll().execute());
  assert.equal(rows.length, 0);
});

test('a query that fails: on PostgreSQL the next one still reads with the settings; in a transaction it is refused', async () => {
  await read(async (tx) => {
    await assert.rejects(sql`select 1 / 0`.execute(tx), /division by zero/);
    if (pipelined()) assert.deepEqual(await settingsNow(tx), { t: tenantA, who: 'bp_app', ro: 'on' });
    else await assert.rejects(settingsNow(tx), /current transaction is aborted/);
  });
});

test('nothing stays on the connection afterwards: no tenant, the login role, writable', async () => {
  await read(async (tx) => {
    await settingsNow(tx);
  });
  const afterwards = await settingsNow(single.db);
  assert.equal(afterwards.t, null);
  assert.notEqual(afterwards.who, 'bp_app');
  assert.equal(afterwards.ro, 'off');
  // A tenant transaction on the same connection writes as usual.
  await withTenant(single.db, tenantB, (tx) =>
    tx.updateTable('tenants').set({ name: 'Reader B, renamed' }).where('id', '=', tenantB).execute(),
  );
  const b = await withTenant(single.db, tenantB, (tx) => tx.selectFrom('tenants').select('name').execute());
  assert.deepEqual(b, [{ name: 'Reader B, renamed' }]);
});

test('a read refused or failed midway leaves the connection clean too', async () => {
  await assert.rejects(
    read(async (tx) => {
      await settingsNow(tx);
      throw new Error('the handler failed');
    }),
    /the handler failed/,
  );
  assert.equal((await settingsNow(single.db)).t, null);
  await assert.rejects(read(settingsNow, refuse), Refused);
  assert.equal((await settingsNow(single.db)).t, null);
});

test('a tenant id that is not a UUID is refused before any SQL', async () => {
  await assert.rejects(
    withTenantReading(
      single.db,
      pipelined(),
      "x'; drop table users; --",
      'select 1',
      async () => {},
      async () => 1,
    ),
    /tenant UUID/,
  );
});
