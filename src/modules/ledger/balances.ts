// Balances from the running totals, never from the lines: what every report stands on. Their
// cost follows the number of accounts and months, not of lines or days: whole months come from
// account_month_balances (migration 0011), the days of a partly covered first or last month
// from account_balances (0008), so a range reads at most accounts × (months + 62) rows.

import type { Decimal } from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import { addDays, isMonthEnd, isMonthStart, monthStart, nextMonthStart } from '../../platform/dates/days.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import type { AccountSubtype, AccountType, TaxCode } from './ledger.tables.ts';

export interface AccountTotal {
  accountId: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  systemKey: string | null;
  isActive: boolean;
  debit: Decimal;
  credit: Decimal;
  /** debit − credit */
  net: Decimal;
}

/** A range of days, both ends inclusive, either end open. */
export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * How a range is read: whole months [months.from, months.to) from the monthly roll-up, and
 * the days of a partly covered first or last month from the daily rows. No whole month in
 * the range (both ends inside one month, or a range of a few days across a month's end):
 * days only.
 */
export function splitRange(range: DayRange): {
  months: { from?: string; to?: string } | null;
  days: Array<{ from: string; to: string }>;
} {
  const { from, to } = range;
  const m1 = from === undefined ? undefined : isMonthStart(from) ? from : nextMonthStart(from);
  const m2 = to === undefined ? undefined : isMonthEnd(to) ? nextMonthStart(to) : monthStart(to);
  if (from !== undefined && to !== undefined && m1! >= m2!) {
    return { months: null, days: from > to ? [] : [{ from, to }] };
  }
  const days: Array<{ from: string; to: string }> = [];
  if (from !== undefined && m1 !== undefined && from < m1) days.push({ from, to: addDays(m1, -1) });
  if (to !== undefined && m2 !== undefined && m2 <= to) days.push({ from: m2, to });
  return {
    months: { ...(m1 !== undefined ? { from: m1 } : {}), ...(m2 !== undefined ? { to: m2 } : {}) },
    days,
  };
}

/** Per account: the sums of debits and credits over the range (a derived table, SQL). */
function periodSums(tenantId: string, companyId: string, range: DayRange): RawBuilder<unknown> {
  const { months, days } = splitRange(range);
  const parts: RawBuilder<unknown>[] = [];
  if (months) {
    parts.push(sql`select account_id, debit, credit from account_month_balances
      where tenant_id = ${tenantId} and company_id = ${companyId}
      ${months.from ? sql`and month >= ${months.from}::date` : sql``}
      ${months.to ? sql`and month < ${months.to}::date` : sql``}`);
  }
  for (const d of days) {
    parts.push(sql`select account_id, debit, credit from account_balances
      where tenant_id = ${tenantId} and company_id = ${companyId}
      ${d.from ? sql`and date >= ${d.from}::date` : sql``}
      ${d.to ? sql`and date <= ${d.to}::date` : sql``}`);
  }
  if (parts.length === 0)
    parts.push(sql`select null::uuid as account_id, 0 as debit, 0 as credit where false`);
  return sql`select account_id, sum(debit) as debit, sum(credit) as credit
    from (${sql.join(parts, sql` union all `)}) p group by account_id`;
}

interface TotalRow {
  id: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  system_key: string | null;
  is_active: boolean;
  debit: string | null;
  credit: string | null;
}

/**
 * Debit and credit totals per account of the company over [from, to] (either end open),
 * every account of the chart included (zeros where nothing moved), by code.
 */
export async function accountTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  range: DayRange,
): Promise<AccountTotal[]> {
  // The sums are computed once (materialized) and then joined to the chart: with a planner
  // misled by stale statistics (PGlite has no autovacuum), a plain join may redo the sums for
  // every account.
  const r = await sql<TotalRow>`
    with b as materialized (${periodSums(tenantId, companyId, range)})
    select a.id, a.code, a.name, a.type, a.subtype, a.system_key, a.is_active, b.debit, b.credit
      from accounts a
      left join b on b.account_id = a.id
     where a.tenant_id = ${tenantId} and a.company_id = ${companyId}
     order by a.code`.execute(db);
  return r.rows.map(toTotal);
}

function toTotal(row: TotalRow): AccountTotal {
  const debit = money(row.debit);
  const credit = money(row.credit);
  return {
    accountId: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    subtype: row.subtype,
    systemKey: row.system_key,
    isActive: row.is_active,
    debit,
    credit,
    net: debit.minus(credit),
  };
}

/**
 * accountTotals for one cost centre: the debits and credits of the lines naming it, per account,
 * from its daily balances (migrations/0041_cost_centres.sql), every account of the chart included.
 */
export async function costCentreTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  costCentreId: string,
  range: DayRange,
): Promise<AccountTotal[]> {
  const r = await sql<TotalRow>`
    with b as materialized (
      select account_id, sum(debit) as debit, sum(credit) as credit
        from cost_centre_balances
       where tenant_id = ${tenantId} and company_id = ${companyId} and cost_centre_id = ${costCentreId}
         ${range.from ? sql`and date >= ${range.from}::date` : sql``}
         ${range.to ? sql`and date <= ${range.to}::date` : sql``}
       group by account_id)
    select a.id, a.code, a.name, a.type, a.subtype, a.system_key, a.is_active, b.debit, b.credit
      from accounts a
      left join b on b.account_id = a.id
     where a.tenant_id = ${tenantId} and a.company_id = ${companyId}
     order by a.code`.execute(db);
  return r.rows.map(toTotal);
}

export interface TaxTotal {
  taxCode: TaxCode;
  /** Percent, e.g. 15 */
  taxRate: Decimal;
  /** Net amounts taxed: the debits and credits of the sales and purchase lines with this code and rate. */
  baseDebit: Decimal;
  baseCredit: Decimal;
  /** The VAT itself: the debits and credits of the VAT accounts' lines with this code and rate. */
  taxDebit: Decimal;
  taxCredit: Decimal;
}

/** Per VAT code and rate: the sums of tax_balances over [from, to]; by code, then rate. */
export async function taxTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  range: DayRange,
): Promise<TaxTotal[]> {
  let q = db
    .selectFrom('tax_balances')
    .select((eb) => [
      'tax_code',
      'tax_rate',
      eb.fn.sum<string>('base_debit').as('base_debit'),
      eb.fn.sum<string>('base_credit').as('base_credit'),
      eb.fn.sum<string>('tax_debit').as('tax_debit'),
      eb.fn.sum<string>('tax_credit').as('tax_credit'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId);
  if (range.from) q = q.where('date', '>=', range.from);
  if (range.to) q = q.where('date', '<=', range.to);
  const rows = await q.groupBy(['tax_code', 'tax_rate']).orderBy('tax_code').orderBy('tax_rate').execute();
  return rows.map((r) => ({
    taxCode: r.tax_code,
    taxRate: money(r.tax_rate),
    baseDebit: money(r.base_debit),
    baseCredit: money(r.base_credit),
    taxDebit: money(r.tax_debit),
    taxCredit: money(r.tax_credit),
  }));
}

/**
 * Per counter account, over [from, to]: the cash that came in through it (credit − debit of
 * the non-bank lines of the entries that moved a bank account; negative when cash went out).
 * Only accounts that moved cash; their sum is the change in the bank accounts' balance.
 */
export async function cashFlowTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  range: DayRange,
): Promise<Map<string, Decimal>> {
  let q = db
    .selectFrom('cash_flow_balances')
    .select((eb) => ['account_id', eb.fn.sum<string>('amount').as('amount')])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId);
  if (range.from) q = q.where('date', '>=', range.from);
  if (range.to) q = q.where('date', '<=', range.to);
  const rows = await q.groupBy('account_id').execute();
  return new Map(rows.map((r) => [r.account_id, money(r.amount)]));
}
