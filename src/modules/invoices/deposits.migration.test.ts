// Migrations 0028 and 0029 on data made before them: every company gets 4960 Forfeited deposits
// once; a deposit whose document priced VAT (never posted) is made to say what was posted: no
// VAT, its lines' nets the amounts received, its totals unchanged.
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

test('0028 adds 4960 Forfeited deposits; 0029 takes the VAT off an earlier deposit document', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 28),
  );
  const tenantId = crypto.randomUUID();
  const company = crypto.randomUUID();
  const contact = crypto.randomUUID();
  const deposit = crypto.randomUUID();
  await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    await tx
      .insertInto('companies')
      .values({ tenant_id: tenantId, id: company, name: 'Before Co' })
      .execute();
    await seedDefaultChart(tx, tenantId, company);
    const sales = (
      await tx
        .selectFrom('accounts')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('system_key', '=', 'sales')
        .executeTakeFirstOrThrow()
    ).id;
    await sql`insert into contacts (tenant_id, id, contact_type, name)
              values (${tenantId}, ${contact}, 'CUSTOMER', 'Early Customer')`.execute(tx);
    // A deposit as it was priced before: two lines of 200 at 15% (VAT 30 each, 230 each), one
    // with a 10% discount: gross 200, discount 20, net 180, VAT 27, total 207. Totals: net 380,
    // discount 20, VAT 57, total 437, which is what its entry posted.
    await sql`insert into invoices (tenant_id, id, company_id, document_type, number, status, contact_id,
                issue_date, due_date, vat_registered, subtotal, discount_total, vat_total, total)
              values (${tenantId}, ${deposit}, ${company}, 'deposit', 'DEP-0001', 'paid', ${contact},
                '2026-03-01', '2026-03-01', true, 380, 20, 57, 437)`.execute(tx);
    await sql`insert into invoice_lines (tenant_id, id, invoice_id, line_no, description, quantity, unit_price,
                discount_rate, tax_code, vat_rate, requested_vat_rate, account_id, net_amount, discount_amount,
                vat_amount, total_amount)
              values (${tenantId}, gen_random_uuid(), ${deposit}, 1, 'Deposit', 1, 200, 0, 'standard', 15, 15,
                ${sales}, 200, 0, 30, 230),
                     (${tenantId}, gen_random_uuid(), ${deposit}, 2, 'Deposit, discounted', 1, 200, 10, 'standard',
                15, null, ${sales}, 180, 20, 27, 207)`.execute(tx);
  });
  await migrate(database, readMigrations());
  await migrate(database, readMigrations());
  const [accounts, doc, lines] = await withTenant(database.db, tenantId, async (tx) => [
    await tx
      .selectFrom('accounts')
      .select(['code', 'name', 'system_key', 'subtype'])
      .where('tenant_id', '=', tenantId)
      .where('code', 'like', '4960%')
      .execute(),
    await tx
      .selectFrom('invoices')
      .select(['subtotal', 'discount_total', 'vat_total', 'total'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', deposit)
      .executeTakeFirstOrThrow(),
    await tx
      .selectFrom('invoice_lines')
      .select([
        'unit_price',
        'discount_amount',
        'net_amount',
        'vat_amount',
        'vat_rate',
        'tax_code',
        'requested_vat_rate',
        'total_amount',
      ])
      .where('tenant_id', '=', tenantId)
      .where('invoice_id', '=', deposit)
      .orderBy('line_no')
      .execute(),
  ]);
  assert.deepEqual(accounts, [
    { code: '4960', name: 'Forfeited deposits', system_key: 'forfeited_deposits', subtype: 'other_income' },
  ]);
  // Totals: subtotal = total 437, discount 20 × 1.15 = 23, VAT 0.
  assert.deepEqual(
    [doc.subtotal, doc.discount_total, doc.vat_total, doc.total].map(Number),
    [437, 23, 0, 437],
  );
  // Unit prices 200 × 1.15 = 230; nets the old totals (230, 207); no VAT, out of scope.
  assert.deepEqual(
    lines.map((l) => [
      Number(l.unit_price),
      Number(l.discount_amount),
      Number(l.net_amount),
      Number(l.vat_amount),
      Number(l.vat_rate),
      l.tax_code,
      l.requested_vat_rate,
      Number(l.total_amount),
    ]),
    [
      [230, 0, 230, 0, 0, 'out_of_scope', null, 230],
      [230, 23, 207, 0, 0, 'out_of_scope', null, 207],
    ],
  );
});
