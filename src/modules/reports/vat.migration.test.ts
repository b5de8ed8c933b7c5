// Migration 0030 on books made before it: a company gets the VAT category B (two-monthly, the
// default), and the submitted VAT periods are the tenant's own (row-level security, forced).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('0030: an existing company is category B; submissions are seen by their tenant only', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 30),
  );
  const tenantA = crypto.randomUUID();
  const tenantB = crypto.randomUUID();
  const company = crypto.randomUUID();
  await withTenant(database.db, tenantA, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantA, name: 'Before', plan: 'free' }).execute();
    await sql`insert into companies (tenant_id, id, name) values (${tenantA}, ${company}, 'Old Co')`.execute(
      tx,
    );
  });
  await migrate(database, readMigrations());
  await withTenant(database.db, tenantA, async (tx) => {
    const row = await tx
      .selectFrom('companies')
      .select('vat_category')
      .where('tenant_id', '=', tenantA)
      .where('id', '=', company)
      .executeTakeFirstOrThrow();
    assert.equal(row.vat_category, 'B');
    await tx
      .insertInto('vat_period_submissions')
      .values({
        tenant_id: tenantA,
        company_id: company,
        period_id: '2026-02',
        date_from: '2026-01-01',
        date_to: '2026-02-28',
      })
      .execute();
  });
  await withTenant(database.db, tenantB, async (tx) => {
    assert.deepEqual(await tx.selectFrom('vat_period_submissions').selectAll().execute(), []);
  });
  const seen = await withTenant(database.db, tenantA, (tx) =>
    tx.selectFrom('vat_period_submissions').select('period_id').execute(),
  );
  assert.deepEqual(seen, [{ period_id: '2026-02' }]);
});
