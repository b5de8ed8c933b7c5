// Migration 0024 on lines stored before it: each line's tax code is filled from its rate (0 →
// zero, any other rate → standard); a company not registered on the issue date stored 0 whatever
// the line asked, so there the rate asked for decides (none asked: standard).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { seedDefaultChart } from '../ledger/index.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('0024 gives every stored line a tax code from its rate', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 24),
  );
  const tenantId = crypto.randomUUID();
  const companyId = crypto.randomUUID();
  const contactId = crypto.randomUUID();
  // [registered, vat_rate stored, requested_vat_rate, the code expected]
  const cases: Array<[boolean, string, string | null, string]> = [
    [true, '15.000', null, 'standard'],
    [true, '14.000', '14', 'standard'],
    [true, '0.000', '0', 'zero'],
    [false, '0.000', null, 'standard'],
    [false, '0.000', '15', 'standard'],
    [false, '0.000', '0', 'zero'],
  ];
  const lineIds = await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    await tx
      .insertInto('companies')
      .values({ tenant_id: tenantId, id: companyId, name: 'Before Co' })
      .execute();
    await seedDefaultChart(tx, tenantId, companyId);
    const sales = await tx
      .selectFrom('accounts')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('code', '=', '4000')
      .executeTakeFirstOrThrow();
    await sql`insert into contacts (tenant_id, id, contact_type, name)
      values (${tenantId}, ${contactId}, 'CUSTOMER', 'Thandi Stores')`.execute(tx);
    const ids: string[] = [];
    for (const [i, [registered, rate, requested]] of cases.entries()) {
      const invoiceId = crypto.randomUUID();
      const lineId = crypto.randomUUID();
      await sql`insert into invoices (tenant_id, id, company_id, document_type, number, status, contact_id,
          issue_date, due_date, vat_registered, subtotal, discount_total, vat_total, total)
        values (${tenantId}, ${invoiceId}, ${companyId}, 'invoice', ${`INV-${i + 1}`}, 'draft', ${contactId},
          '2026-03-02', '2026-04-01', ${registered}, 100, 0, 0, 100)`.execute(tx);
      await sql`insert into invoice_lines (tenant_id, id, invoice_id, line_no, description, quantity, unit_price,
          vat_rate, requested_vat_rate, account_id, net_amount, discount_amount, vat_amount, total_amount)
        values (${tenantId}, ${lineId}, ${invoiceId}, 1, 'x', 1, 100, ${rate}, ${requested}, ${sales.id},
          100, 0, 0, 100)`.execute(tx);
      ids.push(lineId);
    }
    return ids;
  });

  await migrate(database);

  await withTenant(database.db, tenantId, async (tx) => {
    const rows = await tx
      .selectFrom('invoice_lines')
      .select(['id', 'tax_code'])
      .where('tenant_id', '=', tenantId)
      .execute();
    const codes = new Map(rows.map((r) => [r.id, r.tax_code]));
    assert.deepEqual(
      lineIds.map((id) => codes.get(id)),
      cases.map((c) => c[3]),
    );
  });
});
