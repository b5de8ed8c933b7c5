// Properties of the posting service, over random sequences of balanced postings and
// reversals (fast-check): the trial balance always nets to zero; the balance as of any day
// equals the sum of the lines dated on or before it, and over any range the sum of its lines
// (months from the monthly roll-up, days from the daily rows); a reversal nets its entry to zero; an
// unbalanced posting is refused with nothing written, by the service and by the database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import { HttpError } from '../../platform/http/problem.ts';
import { money, sum } from '../../platform/money/money.ts';
import { accountTotals } from './balances.ts';
import { type LedgerCtx, post, reverse, seedDefaultChart } from './posting.ts';

let t: TestApp;
let tenantId: string;
before(async () => {
  t = await startTestApp();
  tenantId = (await register(t.app)).tenantId;
});
after(() => t.close());

const ACCOUNT_COUNT = 6;
const DAYS = ['2026-01-01', '2026-01-15', '2026-02-01', '2026-02-28', '2026-03-01', '2026-03-31'];
/** Ranges [from, to] that read whole months, days around them, days only, or nothing. */
const RANGES: Array<[string, string | undefined]> = [
  ['2026-01-10', '2026-02-28'], // days of January, then February whole
  ['2026-01-31', '2026-03-01'], // a day, a whole month, a day
  ['2026-02-01', undefined], // whole months from February on
  ['2026-01-10', '2026-01-15'], // days inside one month
  ['2026-01-31', '2026-02-15'], // across a month's end, no whole month
  ['2026-03-31', '2026-03-01'], // from after to: nothing
];

/** A new company with the default chart; answers the ids of a few ordinary accounts. */
async function freshCompany(tx: Tx): Promise<{ companyId: string; accounts: string[] }> {
  const companyId = crypto.randomUUID();
  await tx.insertInto('companies').values({ tenant_id: tenantId, id: companyId, name: 'Prop' }).execute();
  await seedDefaultChart(tx, tenantId, companyId);
  const rows = await tx
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('is_control', '=', false)
    .orderBy('code')
    .limit(ACCOUNT_COUNT)
    .execute();
  return { companyId, accounts: rows.map((r) => r.id) };
}

/** A balanced set of lines: random amounts in cents, the last line balancing the rest. */
const balancedLines = fc
  .array(
    fc.record({
      account: fc.integer({ min: 0, max: ACCOUNT_COUNT - 1 }),
      cents: fc.integer({ min: 1, max: 10_000_000 }),
      side: fc.constantFrom('debit', 'credit'),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .chain((lines) =>
    fc.integer({ min: 0, max: ACCOUNT_COUNT - 1 }).map((last) => {
      const net = lines.reduce((s, l) => s + (l.side === 'debit' ? l.cents : -l.cents), 0);
      // A zero net leaves the balancing line out; a single line is topped up by a pair.
      const all = [...lines];
      if (net !== 0) all.push({ account: last, cents: Math.abs(net), side: net > 0 ? 'credit' : 'debit' });
      if (all.length < 2)
        all.push({
          account: last,
          cents: all[0]!.cents,
          side: all[0]!.side === 'debit' ? 'credit' : 'debit',
        });
      return all;
    }),
  );

type Op =
  | { kind: 'post'; day: number; lines: Array<{ account: number; cents: number; side: string }> }
  | { kind: 'reverse'; which: number };

const ops = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('post' as const),
        day: fc.integer({ min: 0, max: DAYS.length - 1 }),
        lines: balancedLines,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reverse' as const), which: fc.nat() }) },
  ),
  { minLength: 1, maxLength: 12 },
);

const asAmount = (cents: number) => (cents / 100).toFixed(2);

async function lineSum(tx: Tx, companyId: string, asOf?: string, from?: string) {
  let q = tx
    .selectFrom('journal_lines')
    .select([
      'account_id',
      (eb) => eb.fn.sum<string>('debit').as('d'),
      (eb) => eb.fn.sum<string>('credit').as('c'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId);
  if (asOf) q = q.where('date', '<=', asOf);
  if (from) q = q.where('date', '>=', from);
  const rows = await q.groupBy('account_id').execute();
  return new Map(rows.map((r) => [r.account_id, money(r.d).minus(r.c).toFixed(2)]));
}

describe('posting: properties', () => {
  test('any sequence of balanced postings and reversals: the trial balance nets to zero and asOf(d) is the sum of lines to d', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (sequence: Op[]) => {
        await withTenant(t.database.db, tenantId, async (tx) => {
          const ctx: LedgerCtx = { db: tx, tenantId };
          const { companyId, accounts } = await freshCompany(tx);
          const posted: string[] = [];
          for (const op of sequence) {
            if (op.kind === 'post') {
              posted.push(
                await post(ctx, {
                  companyId,
                  date: DAYS[op.day]!,
                  description: 'random',
                  source: { type: 'test' },
                  lines: op.lines.map((l) => ({
                    accountId: accounts[l.account]!,
                    [l.side]: asAmount(l.cents),
                  })),
                }),
              );
            } else if (posted.length) {
              const entry = posted[op.which % posted.length]!;
              const already = await tx
                .selectFrom('journal_entries')
                .select('id')
                .where('tenant_id', '=', tenantId)
                .where('reverses_entry_id', '=', entry)
                .executeTakeFirst();
              if (already) continue;
              const reversal = await reverse(ctx, entry);
              // The entry and its reversal net to zero on every account.
              const both = await tx
                .selectFrom('journal_lines')
                .select([
                  'account_id',
                  (eb) => eb.fn.sum<string>(eb('debit', '-', eb.ref('credit'))).as('net'),
                ])
                .where('tenant_id', '=', tenantId)
                .where('entry_id', 'in', [entry, reversal])
                .groupBy('account_id')
                .execute();
              for (const r of both) assert.equal(money(r.net).toFixed(2), '0.00');
            }
          }
          // The trial balance nets to zero, whole and as of every day.
          for (const asOf of [undefined, ...DAYS]) {
            const totals = await accountTotals(tx, tenantId, companyId, { to: asOf });
            assert.equal(sum(totals.map((a) => a.net)).toFixed(2), '0.00', `nets to zero as of ${asOf}`);
            assert.ok(sum(totals.map((a) => a.debit)).equals(sum(totals.map((a) => a.credit))));
            const fromLines = await lineSum(tx, companyId, asOf);
            for (const a of totals) {
              assert.equal(
                a.net.toFixed(2),
                fromLines.get(a.accountId) ?? '0.00',
                `account ${a.code} as of ${asOf}`,
              );
            }
          }
          // Any range [from, to]: whole months from the monthly roll-up and the days around
          // them from the daily rows add up to the lines of the range.
          for (const [from, to] of RANGES) {
            const totals = await accountTotals(tx, tenantId, companyId, { from, to });
            const fromLines = await lineSum(tx, companyId, to, from);
            for (const a of totals) {
              assert.equal(
                a.net.toFixed(2),
                fromLines.get(a.accountId) ?? '0.00',
                `account ${a.code} from ${from} to ${to}`,
              );
            }
          }
        });
      }),
      { numRuns: 25 },
    );
  });

  test('an unbalanced posting is refused and nothing is written', async () => {
    const { companyId, accounts } = await withTenant(t.database.db, tenantId, freshCompany);
    await fc.assert(
      fc.asyncProperty(
        balancedLines,
        fc.integer({ min: 1, max: 100_000 }).map((c) => (c % 2 ? c : -c)),
        async (lines, skew) => {
          const skewed = lines.map((l, i) => (i === 0 ? { ...l, cents: l.cents + skew } : l));
          if (skewed[0]!.cents <= 0) return;
          const attempt = withTenant(t.database.db, tenantId, (tx) =>
            post(
              { db: tx, tenantId },
              {
                companyId,
                date: '2026-01-01',
                description: 'unbalanced',
                source: { type: 'test' },
                lines: skewed.map((l) => ({ accountId: accounts[l.account]!, [l.side]: asAmount(l.cents) })),
              },
            ),
          );
          await assert.rejects(attempt, (err: unknown) => err instanceof HttpError && err.status === 400);
        },
      ),
      { numRuns: 50 },
    );
    const written = await withTenant(t.database.db, tenantId, (tx) =>
      tx
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(Number(written.n), 0);
    const balances = await withTenant(t.database.db, tenantId, (tx) =>
      tx.selectFrom('account_balances').selectAll().where('company_id', '=', companyId).execute(),
    );
    assert.equal(balances.length, 0);
  });

  test('the database itself refuses an unbalanced entry, a one-line entry and a change to a posted line', async () => {
    const { companyId, accounts } = await withTenant(t.database.db, tenantId, freshCompany);
    const entry = (date = '2026-01-01') => ({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      company_id: companyId,
      date,
      description: 'raw',
      source_type: 'test',
    });
    const line = (entryId: string, no: number, account: string, debit: string, credit: string) => ({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      entry_id: entryId,
      line_no: no,
      company_id: companyId,
      date: '2026-01-01',
      account_id: account,
      debit,
      credit,
    });
    const unbalanced = withTenant(t.database.db, tenantId, async (tx) => {
      const e = entry();
      await tx.insertInto('journal_entries').values(e).execute();
      await tx
        .insertInto('journal_lines')
        .values([line(e.id, 1, accounts[0]!, '10.00', '0'), line(e.id, 2, accounts[1]!, '0', '9.99')])
        .execute();
    });
    await assert.rejects(unbalanced, /does not balance/);
    const lonely = withTenant(t.database.db, tenantId, async (tx) => {
      await tx.insertInto('journal_entries').values(entry()).execute();
    });
    await assert.rejects(lonely, /at least two/);
    const e = entry();
    await withTenant(t.database.db, tenantId, async (tx) => {
      await tx.insertInto('journal_entries').values(e).execute();
      await tx
        .insertInto('journal_lines')
        .values([line(e.id, 1, accounts[0]!, '10.00', '0'), line(e.id, 2, accounts[1]!, '0', '10.00')])
        .execute();
    });
    const change = withTenant(t.database.db, tenantId, (tx) =>
      tx.updateTable('journal_lines').set({ debit: '11.00' }).where('entry_id', '=', e.id).execute(),
    );
    await assert.rejects(change, /permission denied/);
    const late = withTenant(t.database.db, tenantId, async (tx) => {
      await tx
        .insertInto('journal_lines')
        .values([line(e.id, 3, accounts[0]!, '1.00', '0')])
        .execute();
    });
    await assert.rejects(late, /does not balance/);
  });
});
