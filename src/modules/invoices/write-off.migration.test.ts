// Migration 0025 on companies made before it: each gets 4950 Bad debts recovered (system key
// bad_debts_recovered) once, and one that had taken the code 4950 for its own account gets 4950.1
// (its own account untouched).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { seedDefaultChart } from '../ledger/index.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('0025 adds 4950 Bad debts recovered to every company made before it, once', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 25),
  );
  const tenantId = crypto.randomUUID();
  const plain = crypto.randomUUID();
  const taken = crypto.randomUUID();
  await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    for (const [id, name] of [
      [plain, 'Plain Co'],
      [taken, 'Taken Co'],
    ] as const) {
      await tx.insertInto('companies').values({ tenant_id: tenantId, id, name }).execute();
      await seedDefaultChart(tx, tenantId, id);
    }
    await tx
      .insertInto('accounts')
      .values({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        company_id: taken,
        code: '4950',
        name: 'Scrap sales',
        type: 'income',
        subtype: 'other_income',
      })
      .execute();
  });
  await migrate(database, readMigrations());
  await migrate(database, readMigrations());
  const rows = await withTenant(database.db, tenantId, (tx) =>
    tx
      .selectFrom('accounts')
      .select(['company_id', 'code', 'name', 'system_key'])
      .where('tenant_id', '=', tenantId)
      .where('code', 'like', '4950%')
      .orderBy('company_id')
      .orderBy('code')
      .execute(),
  );
  const of = (company: string) =>
    rows.filter((r) => r.company_id === company).map((r) => [r.code, r.name, r.system_key]);
  assert.deepEqual(of(plain), [['4950', 'Bad debts recovered', 'bad_debts_recovered']]);
  assert.deepEqual(of(taken), [
    ['4950', 'Scrap sales', null],
    ['4950.1', 'Bad debts recovered', 'bad_debts_recovered'],
  ]);
});
