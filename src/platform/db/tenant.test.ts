import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '../../../test/support/db.ts';
import { withTenant, withTenantOpening } from './tenant.ts';

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.close());

const tenant = crypto.randomUUID();

test('a transaction whose failed statement was swallowed does not report success', async () => {
  const id = crypto.randomUUID();
  await assert.rejects(
    withTenant(database.db, id, async (tx) => {
      await tx.insertInto('tenants').values({ id, name: 'Lost', plan: 'free' }).execute();
      // The duplicate key fails and aborts the transaction; the caller swallows it.
      await tx
        .insertInto('tenants')
        .values({ id, name: 'Dup', plan: 'free' })
        .execute()
        .catch(() => {});
      return 'looked fine';
    }),
    /Unable to commit|current transaction is aborted/,
  );
  const rows = await withTenant(database.db, id, (tx) => tx.selectFrom('tenants').selectAll().execute());
  assert.equal(rows.length, 0, 'nothing of the failed transaction was kept');
});

test('statements handed to atCommit are committed with the transaction, after what it sent', async () => {
  const id = crypto.randomUUID();
  const result = await withTenantOpening(database.db, id, 'select 1 as one', async (tx, _rows, atCommit) => {
    await tx.insertInto('tenants').values({ id, name: 'Before', plan: 'free' }).execute();
    // Runs after the insert above: it sees the row and changes it.
    atCommit(tx.updateTable('tenants').set({ name: 'At commit' }).where('id', '=', id).compile());
    return 'done';
  });
  assert.equal(result, 'done');
  const rows = await withTenant(database.db, id, (tx) => tx.selectFrom('tenants').select('name').execute());
  assert.deepEqual(rows, [{ name: 'At commit' }]);
});

test('a statement handed to atCommit that fails commits nothing, and leaves no transaction open', async () => {
  const id = crypto.randomUUID();
  await assert.rejects(
    withTenantOpening(database.db, id, 'select 1 as one', async (tx, _rows, atCommit) => {
      await tx.insertInto('tenants').values({ id, name: 'Lost', plan: 'free' }).execute();
      // The same id again: a duplicate key when it runs.
      atCommit(tx.insertInto('tenants').values({ id, name: 'Dup', plan: 'free' }).compile());
      return 'looked fine';
    }),
    /duplicate key/,
  );
  for (let i = 0; i < 3; i++) {
    // Every connection of the pool (one on PGlite) is clean: no transaction left open.
    const rows = await withTenant(database.db, id, (tx) => tx.selectFrom('tenants').selectAll().execute());
    assert.equal(rows.length, 0, 'nothing of the failed transaction was kept');
  }
  const open = await sql<{ open: boolean }>`select now() <> statement_timestamp() as open`.execute(
    database.db,
  );
  assert.equal(open.rows[0]?.open, false, 'the next statement runs in a transaction of its own');
});

test('atCommit after a swallowed failure does not report success', async () => {
  const id = crypto.randomUUID();
  await assert.rejects(
    withTenantOpening(database.db, id, 'select 1 as one', async (tx, _rows, atCommit) => {
      await tx.insertInto('tenants').values({ id, name: 'Lost', plan: 'free' }).execute();
      await tx
        .insertInto('tenants')
        .values({ id, name: 'Dup', plan: 'free' })
        .execute()
        .catch(() => {});
      atCommit(tx.updateTable('tenants').set({ name: 'x' }).where('id', '=', id).compile());
      return 'looked fine';
    }),
    /Unable to commit|current transaction is aborted/,
  );
  const rows = await withTenant(database.db, id, (tx) => tx.selectFrom('tenants').selectAll().execute());
  assert.equal(rows.length, 0);
});

test('the opening query rides with BEGIN and sees the tenant and the request role', async () => {
  const result = await withTenantOpening<{ tenant: string; who: string }, string>(
    database.db,
    tenant,
    "select current_setting('app.tenant_id') as tenant, current_user as who",
    async (_tx, rows) => `${rows[0]?.tenant}/${rows[0]?.who}`,
  );
  assert.equal(result, `${tenant}/bp_app`);
});

test('a tenant id that is not a UUID is refused before any SQL', async () => {
  await assert.rejects(
    withTenant(database.db, "x'; drop table users; --", async () => 1),
    /tenant UUID/,
  );
});

test('settings do not leak to the next transaction on the same connection', async () => {
  await withTenant(database.db, tenant, async () => undefined);
  const r = await database.db
    .transaction()
    .execute((tx) =>
      sql<{ t: string | null }>`select nullif(current_setting('app.tenant_id', true), '') as t`.execute(tx),
    );
  assert.equal(r.rows[0]?.t ?? null, null);
});
