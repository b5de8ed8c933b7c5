// The VAT totals a VAT report reads: per tax code, rate and transition flag, from the daily
// tax_balances that posting maintains (so a period costs codes × days rows, never lines), and
// the totals submitted VAT periods froze (vat_period_totals).
//
// transition: a standard-rated code at a rate that is not the standard rate at the end of the
// range, the rate the return is made at (issue 34, item 16): a 14% supply of March 2018 in a
// period ending in April 2018, or a credit or debit note dated from 2018-04-01 against a 14%
// supply, which takes the rate of that supply (s21). The VAT201 of such a period computes field
// 4 as field 1 × 15/115, so the VAT201 keeps those lines out of fields 1-11 and 14-16 and
// declares their VAT in fields 12 and 18 (reports.vat201.ts). Imports are not moved: customs
// levied their VAT, which is claimed in 14A and 15A whatever its rate.

import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import { STANDARD_RATED_TAX_CODES, type TaxCode } from '../ledger/index.ts';

/** The standard-rated codes whose lines at an earlier rate move to fields 12 and 18 (imports stay). */
const MOVED_AT_AN_EARLIER_RATE = STANDARD_RATED_TAX_CODES.filter(
  (c) => c !== 'input_import' && c !== 'input_capital_import',
);

export interface VatTotal {
  taxCode: TaxCode;
  taxRate: Decimal;
  transition: boolean;
  baseDebit: Decimal;
  baseCredit: Decimal;
  taxDebit: Decimal;
  taxCredit: Decimal;
}

interface TotalRow {
  tax_code: TaxCode;
  tax_rate: string;
  transition: boolean;
  base_debit: string;
  base_credit: string;
  tax_debit: string;
  tax_credit: string;
}

function toTotal(r: TotalRow): VatTotal {
  return {
    taxCode: r.tax_code,
    taxRate: money(r.tax_rate),
    transition: r.transition,
    baseDebit: money(r.base_debit),
    baseCredit: money(r.base_credit),
    taxDebit: money(r.tax_debit),
    taxCredit: money(r.tax_credit),
  };
}

const keyOf = (t: Pick<VatTotal, 'taxCode' | 'taxRate' | 'transition'>) =>
  `${t.taxCode}|${t.taxRate.toFixed(3)}|${t.transition}`;

const byKey = (a: VatTotal, b: VatTotal) =>
  a.taxCode < b.taxCode
    ? -1
    : a.taxCode > b.taxCode
      ? 1
      : a.taxRate.comparedTo(b.taxRate) || Number(a.transition) - Number(b.transition);

/**
 * Per code, rate and transition: the sums of tax_balances over [from, to]. Debits and credits
 * are summed apart, so a VAT201 can tell increases of tax from decreases.
 */
export async function liveTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  range: { from: string; to: string },
): Promise<VatTotal[]> {
  // The rate of the return: the standard rate on its last day.
  const returnRate = standardRate(range.to).toString();
  const r = await sql<TotalRow>`
    select tax_code, tax_rate,
           (tax_code in (${sql.join([...MOVED_AT_AN_EARLIER_RATE])}) and tax_rate <> ${returnRate}::numeric)
             as transition,
           sum(base_debit) as base_debit, sum(base_credit) as base_credit,
           sum(tax_debit) as tax_debit, sum(tax_credit) as tax_credit
      from tax_balances
     where tenant_id = ${tenantId} and company_id = ${companyId}
       and date >= ${range.from} and date <= ${range.to}
     group by 1, 2, 3
     order by 1, 2, 3`.execute(db);
  return r.rows.map(toTotal);
}

/** a − b, per code, rate and transition; rows that come to nothing are left out. */
export function difference(a: VatTotal[], b: VatTotal[]): VatTotal[] {
  const out = new Map<string, VatTotal>();
  for (const t of a) out.set(keyOf(t), { ...t });
  for (const t of b) {
    const k = keyOf(t);
    const o = out.get(k) ?? {
      ...t,
      baseDebit: money(0),
      baseCredit: money(0),
      taxDebit: money(0),
      taxCredit: money(0),
    };
    out.set(k, {
      ...o,
      baseDebit: o.baseDebit.minus(t.baseDebit),
      baseCredit: o.baseCredit.minus(t.baseCredit),
      taxDebit: o.taxDebit.minus(t.taxDebit),
      taxCredit: o.taxCredit.minus(t.taxCredit),
    });
  }
  return [...out.values()]
    .filter(
      (t) => !(t.baseDebit.isZero() && t.baseCredit.isZero() && t.taxDebit.isZero() && t.taxCredit.isZero()),
    )
    .sort(byKey);
}

/** The sum of the totals given, per code, rate and transition. */
export function added(lists: VatTotal[][]): VatTotal[] {
  const negated = (ts: VatTotal[]) =>
    ts.map((t) => ({
      ...t,
      baseDebit: t.baseDebit.negated(),
      baseCredit: t.baseCredit.negated(),
      taxDebit: t.taxDebit.negated(),
      taxCredit: t.taxCredit.negated(),
    }));
  return lists.reduce<VatTotal[]>((acc, l) => difference(acc, negated(l)), []);
}

export interface Submission {
  periodId: string;
  from: string;
  to: string;
  submittedAt: Date;
}

/** The company's submitted VAT periods, in date order. */
export async function submissions(db: Tx, tenantId: string, companyId: string): Promise<Submission[]> {
  const rows = await db
    .selectFrom('vat_period_submissions')
    .select(['period_id', 'date_from', 'date_to', 'submitted_at'])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .orderBy('date_from')
    .execute();
  return rows.map((r) => ({
    periodId: r.period_id,
    from: r.date_from,
    to: r.date_to,
    submittedAt: r.submitted_at,
  }));
}

/** The rows stored with submissions, by the submission that stored them or by the period they cover. */
export async function storedTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  where: { periodId: string } | { sourcePeriodIds: string[] },
): Promise<Array<VatTotal & { periodId: string; sourcePeriodId: string }>> {
  let q = db
    .selectFrom('vat_period_totals')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId);
  if ('periodId' in where) q = q.where('period_id', '=', where.periodId);
  else {
    if (!where.sourcePeriodIds.length) return [];
    q = q.where('source_period_id', 'in', where.sourcePeriodIds);
  }
  const rows = await q.orderBy('source_period_id').orderBy('tax_code').orderBy('tax_rate').execute();
  return rows.map((r) => ({ ...toTotal(r), periodId: r.period_id, sourcePeriodId: r.source_period_id }));
}
