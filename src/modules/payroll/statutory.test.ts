// statutoryFor on a migrated database (migration 0052's seeded tables), read as the app role
// inside a tenant transaction as a payslip will: the figures are the published ones the
// calculators' tests are worked on (calc/test-tables.ts), the tax-year boundary picks 2025/26 for
// February and 2026/27 for March, the minimum wage changes on 1 March, and a date no table covers
// is refused naming what is missing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freshDatabase, type TestDatabase } from '../../../test/support/db.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { HttpError } from '../../platform/http/problem.ts';
import { paye } from './calc/paye.ts';
import { ETI_2022, ETI_2025, SDL_2005, UIF_2021, Y2026, Y2027 } from './calc/test-tables.ts';
import { statutoryFor } from './statutory.ts';

let database: TestDatabase;
const tenant = crypto.randomUUID();

before(async () => {
  database = await freshDatabase();
});
after(async () => {
  await database.close();
});

const on = (date: string) => withTenant(database.db, tenant, (tx) => statutoryFor(tx, date));

/** Decimals as strings, to compare the loaded figures with the published ones. */
const plain = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && 'd' in v && 'e' in v ? String(v) : v)),
  );

test('March 2026: 2026/27, UIF from June 2021, SDL, the ETI from April 2025', async () => {
  const s = await on('2026-03-31');
  assert.deepEqual(plain(s.taxYear), plain(Y2027));
  assert.deepEqual(plain(s.uif), plain(UIF_2021));
  assert.deepEqual(plain(s.sdl), plain(SDL_2005));
  assert.deepEqual(plain(s.eti), plain(ETI_2025));
});

test('a February payslip against a March one: the tax-year boundary', async () => {
  const feb = await on('2026-02-28');
  const mar = await on('2026-03-01');
  assert.equal(feb.taxYear.code, '2025/26');
  assert.equal(mar.taxYear.code, '2026/27');
  assert.deepEqual(plain(feb.taxYear), plain(Y2026));
  // R25 000: February 41 797 ÷ 12 = 3 483.08; March 40 572 ÷ 12 = 3 381.00 (paye.test.ts)
  const r = (year: typeof feb.taxYear) =>
    paye(year, { frequency: 'monthly', regular: 25000, age: 40 }).paye.toFixed(2);
  assert.equal(r(feb.taxYear), '3483.08');
  assert.equal(r(mar.taxYear), '3381.00');
});

test('March 2025 has the earlier ETI amounts, April 2025 the new ones', async () => {
  assert.deepEqual(plain((await on('2025-03-31')).eti), plain(ETI_2022));
  assert.equal((await on('2025-04-30')).eti?.effectiveFrom, '2025-04-01');
});

test('a date with no table: 422 PAYROLL_TABLES_MISSING naming each one', async () => {
  await assert.rejects(on('2027-03-31'), (e: unknown) => {
    assert.ok(e instanceof HttpError);
    assert.equal(e.status, 422);
    assert.equal(e.extensions.code, 'PAYROLL_TABLES_MISSING');
    assert.deepEqual(e.extensions.reasons, ['no PAYE tax year covers 2027-03-31']);
    assert.match(e.message, /no PAYE tax year covers 2027-03-31/);
    return true;
  });
  // before every table: the tax year, UIF, SDL and the ETI all named
  await assert.rejects(on('2005-01-31'), (e: unknown) => {
    assert.ok(e instanceof HttpError);
    assert.deepEqual(e.extensions.reasons, [
      'no PAYE tax year covers 2005-01-31',
      'no UIF rates in effect on 2005-01-31',
      'no SDL rate in effect on 2005-01-31',
      'no ETI rules in effect on 2005-01-31',
      'no national minimum wage in effect on 2005-01-31',
    ]);
    return true;
  });
});

test('the National Minimum Wage an hour from each 1 March (Gazettes 50073, 52053, 54075)', async () => {
  const hourly = async (date: string) => {
    const m = (await on(date)).minimumWage;
    return [m.effectiveFrom, m.hourly.toFixed(2)];
  };
  // 2024's figure is before any seeded tax year, so it is read from the table itself.
  const rows = await withTenant(database.db, tenant, (tx) =>
    tx
      .selectFrom('payroll_minimum_wages')
      .select(['effective_from', 'hourly'])
      .orderBy('effective_from')
      .execute(),
  );
  assert.deepEqual(
    rows.map((r) => [r.effective_from, Number(r.hourly).toFixed(2)]),
    [
      ['2024-03-01', '27.58'],
      ['2025-03-01', '28.79'],
      ['2026-03-01', '30.23'],
    ],
  );
  assert.deepEqual(await hourly('2025-03-01'), ['2025-03-01', '28.79']);
  assert.deepEqual(await hourly('2026-02-28'), ['2025-03-01', '28.79']);
  assert.deepEqual(await hourly('2026-03-01'), ['2026-03-01', '30.23']);
});
