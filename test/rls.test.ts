// Row-level security, the second wall: a query that forgets its tenant_id filter still sees
// only its own tenant's rows, and the request role can neither escape it nor hard-delete.
// Also the events outbox, which rides in the caller's transaction.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { assertRequestRoleIsConfined, withoutTenant, withTenant } from '../src/platform/db/tenant.ts';
import { emitUnchecked } from '../src/platform/events/outbox.ts';
import { type Registered, register, startTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let a: Registered;
let b: Registered;
before(async () => {
  t = await startTestApp();
  a = await register(t.app, { companyName: 'Alpha Holdings' });
  b = await register(t.app, { companyName: 'Bravo Trading' });
});
after(() => t.close());

const db = () => t.database.db;

describe('row-level security', () => {
  test('inside withTenant(A) a query with no WHERE sees only A’s rows', async () => {
    await withTenant(db(), a.tenantId, async (tx) => {
      const companies = await tx.selectFrom('companies').select(['tenant_id', 'id', 'name']).execute();
      assert.deepEqual(companies, [{ tenant_id: a.tenantId, id: a.companyId, name: 'Alpha Holdings' }]);
      const users = await tx.selectFrom('users').select(['tenant_id', 'id']).execute();
      assert.deepEqual(users, [{ tenant_id: a.tenantId, id: a.userId }]);
      const tenants = await tx.selectFrom('tenants').select('id').execute();
      assert.deepEqual(tenants, [{ id: a.tenantId }]);
      const sessions = await tx.selectFrom('sessions').select('tenant_id').execute();
      assert.ok(sessions.length > 0 && sessions.every((s) => s.tenant_id === a.tenantId));
      // Asking for B's row by its id finds nothing either.
      const bCompany = await tx.selectFrom('companies').select('id').where('id', '=', b.companyId).execute();
      assert.deepEqual(bCompany, []);
    });
  });

  test('inside withTenant(A) a row for B cannot be written, and B’s rows cannot be changed', async () => {
    await assert.rejects(
      withTenant(db(), a.tenantId, (tx) =>
        tx
          .insertInto('companies')
          .values({
            tenant_id: b.tenantId,
            id: crypto.randomUUID(),
            name: 'Planted in B',
            base_currency: 'ZAR',
          })
          .execute(),
      ),
      /row-level security/,
    );
    const updated = await withTenant(db(), a.tenantId, (tx) =>
      tx.updateTable('companies').set({ name: 'Hijacked' }).where('id', '=', b.companyId).executeTakeFirst(),
    );
    assert.equal(Number(updated.numUpdatedRows), 0);
    const bRows = await withTenant(db(), b.tenantId, (tx) =>
      tx.selectFrom('companies').select('name').where('tenant_id', '=', b.tenantId).execute(),
    );
    assert.deepEqual(bRows, [{ name: 'Bravo Trading' }], 'B’s data is untouched and nothing was planted');
  });

  test('outside any tenant (withoutTenant) no tenant row is visible; only the sign-in directory is', async () => {
    await withoutTenant(db(), async (tx) => {
      for (const table of [
        'tenants',
        'users',
        'companies',
        'sessions',
        'refresh_tokens',
        'audit_log',
      ] as const) {
        const rows = await tx.selectFrom(table).select(sql<number>`1`.as('one')).execute();
        assert.equal(rows.length, 0, `${table} is hidden without a tenant`);
      }
      const directory = await tx
        .selectFrom('user_logins')
        .select('tenant_id')
        .where('email', 'in', [a.email, b.email])
        .execute();
      assert.equal(directory.length, 2);
    });
  });

  test('requests run as bp_app, which is neither superuser nor BYPASSRLS', async () => {
    await assertRequestRoleIsConfined(db());
    const role = await withTenant(db(), a.tenantId, (tx) =>
      sql<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean }>`
        select current_user, rolsuper, rolbypassrls from pg_roles where rolname = current_user`.execute(tx),
    );
    assert.deepEqual(role.rows, [{ current_user: 'bp_app', rolsuper: false, rolbypassrls: false }]);
  });

  test('the role and tenant are the transaction’s alone: the connection goes back to the pool clean', async () => {
    await withTenant(db(), a.tenantId, (tx) => tx.selectFrom('companies').select('id').execute());
    // On PostgreSQL a pool of connections: try several so one that served A is among them.
    const seen = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ who: string; tenant: string | null }>`
          select current_user as who, nullif(current_setting('app.tenant_id', true), '') as tenant`.execute(
          db(),
        ),
      ),
    );
    for (const r of seen) {
      assert.notEqual(r.rows[0]?.who, 'bp_app');
      assert.equal(r.rows[0]?.tenant, null);
    }
  });

  test('DELETE is not granted: nothing is hard-deleted, even a tenant’s own row', async () => {
    await assert.rejects(
      withTenant(db(), a.tenantId, (tx) =>
        tx
          .deleteFrom('companies')
          .where('tenant_id', '=', a.tenantId)
          .where('id', '=', a.companyId)
          .execute(),
      ),
      /permission denied for table companies/,
    );
    await assert.rejects(
      withTenant(db(), a.tenantId, (tx) =>
        tx.deleteFrom('sessions').where('tenant_id', '=', a.tenantId).execute(),
      ),
      /permission denied for table sessions/,
    );
    // The audit log is append-only: not even UPDATE.
    await assert.rejects(
      withTenant(db(), a.tenantId, (tx) =>
        tx
          .updateTable('audit_log')
          .set({ action: 'rewritten' })
          .where('tenant_id', '=', a.tenantId)
          .execute(),
      ),
      /permission denied for table audit_log/,
    );
  });
});

describe('events outbox', () => {
  const countEvents = (type: string) =>
    withTenant(db(), a.tenantId, async (tx) =>
      tx
        .selectFrom('events')
        .select(['type', 'company_id', 'data'])
        .where('tenant_id', '=', a.tenantId)
        .where('type', '=', type)
        .execute(),
    );

  test('emit() writes the event in the caller’s transaction: committed with it', async () => {
    const emitted = await withTenant(db(), a.tenantId, (tx) =>
      emitUnchecked(
        { db: tx, deps: t.deps, tenantId: a.tenantId, companyId: a.companyId },
        'test.committed',
        {
          n: 1,
        },
      ),
    );
    assert.equal(emitted.type, 'test.committed');
    assert.equal(emitted.companyId, a.companyId);
    assert.deepEqual(await countEvents('test.committed'), [
      { type: 'test.committed', company_id: a.companyId, data: { n: 1 } },
    ]);
  });

  test('emit() then a failure: the event is rolled back with the change it announced', async () => {
    await assert.rejects(
      withTenant(db(), a.tenantId, async (tx) => {
        await tx
          .updateTable('companies')
          .set({ name: 'Renamed' })
          .where('tenant_id', '=', a.tenantId)
          .where('id', '=', a.companyId)
          .execute();
        await emitUnchecked(
          { db: tx, deps: t.deps, tenantId: a.tenantId, companyId: a.companyId },
          'test.rolled-back',
          {},
        );
        throw new Error('the business rule failed after the event was emitted');
      }),
      /business rule failed/,
    );
    assert.deepEqual(await countEvents('test.rolled-back'), []);
    const name = await withTenant(db(), a.tenantId, (tx) =>
      tx
        .selectFrom('companies')
        .select('name')
        .where('tenant_id', '=', a.tenantId)
        .where('id', '=', a.companyId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(name.name, 'Alpha Holdings');
  });

  test('an event cannot be emitted into another tenant', async () => {
    await assert.rejects(
      withTenant(db(), a.tenantId, (tx) =>
        emitUnchecked({ db: tx, deps: t.deps, tenantId: b.tenantId, companyId: undefined }, 'x', {}),
      ),
      /row-level security/,
    );
  });
});
