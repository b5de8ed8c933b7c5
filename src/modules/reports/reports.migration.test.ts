// Migration 0011 on books posted before it: the monthly roll-up is filled from the daily
// balances (row-level security is forced on the tables' owner too, so the backfill must lift
// it for its one statement), and the reports read the same figures after it as the lines say.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { accountTotals, post, seedDefaultChart } from '../ledger/index.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('0011 rolls up the daily balances of earlier postings into months', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 11),
  );
  const tenantId = crypto.randomUUID();
  const companyId = crypto.randomUUID();
  const accounts = await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    await tx
      .insertInto('companies')
      .values({ tenant_id: tenantId, id: companyId, name: 'Before Co' })
      .execute();
    await seedDefaultChart(tx, tenantId, companyId);
    const rows = await tx
      .selectFrom('accounts')
      .select(['id', 'code'])
      .where('tenant_id', '=', tenantId)
      .where('code', 'in', ['1000', '4000', '6400'])
      .orderBy('code')
      .execute();
    const [bank, sales, rent] = rows.map((r) => r.id) as [string, string, string];
    const ctx = { db: tx, tenantId };
    for (const [date, amount] of [
      ['2026-01-05', '100.00'],
      ['2026-01-31', '20.50'],
      ['2026-02-01', '7.25'],
      ['2026-03-15', '1000.00'],
    ] as const) {
      await post(ctx, {
        companyId,
        date,
        description: 'sale',
        source: { type: 'test' },
        lines: [
          { accountId: bank, debit: amount },
          { accountId: sales, credit: amount },
        ],
      });
    }
    await post(ctx, {
      companyId,
      date: '2026-02-10',
      description: 'rent',
      source: { type: 'test' },
      lines: [
        { accountId: rent, debit: '300.00' },
        { accountId: bank, credit: '300.00' },
      ],
    });
    return { bank, sales, rent };
  });

  await migrate(database);

  await withTenant(database.db, tenantId, async (tx) => {
    const months = await sql<{ account_id: string; month: string; debit: string; credit: string }>`
      select account_id, month, debit::text, credit::text from account_month_balances
       where tenant_id = ${tenantId} order by account_id, month`.execute(tx);
    const fromLines = await sql<{ account_id: string; month: string; debit: string; credit: string }>`
      select account_id, date_trunc('month', date)::date as month, sum(debit)::text as debit, sum(credit)::text as credit
        from journal_lines where tenant_id = ${tenantId}
       group by 1, 2 order by 1, 2`.execute(tx);
    assert.equal(months.rows.length, 7); // bank and sales in three months, rent in one
    assert.deepEqual(months.rows, fromLines.rows);
    // The reports' reading (months and days) agrees, and new postings keep the months.
    const q1 = await accountTotals(tx, tenantId, companyId, { from: '2026-01-06', to: '2026-02-28' });
    const bank = q1.find((a) => a.accountId === accounts.bank)!;
    assert.equal(bank.net.toFixed(2), '-272.25');
    await post(
      { db: tx, tenantId },
      {
        companyId,
        date: '2026-02-20',
        description: 'late sale',
        source: { type: 'test' },
        lines: [
          { accountId: accounts.bank, debit: '50.00' },
          { accountId: accounts.sales, credit: '50.00' },
        ],
      },
    );
    const feb = await sql<{ debit: string }>`
      select debit::text from account_month_balances
       where tenant_id = ${tenantId} and account_id = ${accounts.bank} and month = '2026-02-01'`.execute(tx);
    assert.equal(feb.rows[0]?.debit, '57.25');
  });
});
