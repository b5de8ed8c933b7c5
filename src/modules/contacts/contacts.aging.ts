// Aged debtors and creditors, from the ledger alone (open items and their journal lines), as
// of any date. Buckets by days past due on asOf: current (not yet due), 1-30, 31-60, 61-90,
// 91-120 and more than 120; credit the contact has that nothing was applied to (a credit note,
// an overpayment) is `unapplied`, negative, in no bucket and not overdue (issue 34, item 20). Debtors are the debtors control accounts (owed to us); creditors the creditors
// control accounts, shown as positive amounts owed by us.
import { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { agedSums, type ControlAccount, companyExists, money } from './contacts.queries.ts';
import type { AgedQuery, AgedRow } from './contacts.schemas.ts';

export const NO_CONTACT_NAME = '(no contact)';

/** A real calendar day in YYYY-MM-DD, or a 400 naming the field. */
export function calendarDay(value: string, field: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !d || d.toISOString().slice(0, 10) !== value)
    throw badRequest(field, 'must be a date (YYYY-MM-DD)');
  return value;
}

export async function agedReport(
  ctx: TenantCtx,
  account: ControlAccount,
  query: Static<typeof AgedQuery>,
): Promise<Static<typeof AgedRow>[]> {
  const asOf = query.asOf ? calendarDay(query.asOf, 'asOf') : ctx.deps.now().toISOString().slice(0, 10);
  if (query.companyId && !(await companyExists(ctx.db, ctx.tenantId, query.companyId))) {
    throw notFound('Company');
  }
  // Debit minus credit: owed to us on debtors; creditors are turned round to read positive.
  const sign = account === 'creditors_control' ? -1 : 1;
  const rows = await agedSums(ctx.db, ctx.tenantId, account, asOf, query.companyId);
  return rows.map((r) => {
    const [current, days30, days60, days90, days120, older, unapplied, total] = [
      r.current,
      r.days30,
      r.days60,
      r.days90,
      r.days120,
      r.older,
      r.unapplied,
      r.total,
    ].map((v) => new Decimal(v).times(sign)) as [
      Decimal,
      Decimal,
      Decimal,
      Decimal,
      Decimal,
      Decimal,
      Decimal,
      Decimal,
    ];
    return {
      contactId: r.contact_id,
      contactName: r.contact_name ?? NO_CONTACT_NAME,
      current: money(current.toFixed(2)),
      days30: money(days30.toFixed(2)),
      days60: money(days60.toFixed(2)),
      days90: money(days90.toFixed(2)),
      days120: money(days120.toFixed(2)),
      older: money(older.toFixed(2)),
      unapplied: money(unapplied.toFixed(2)),
      total: money(total.toFixed(2)),
      overdue: money(days30.plus(days60).plus(days90).plus(days120).plus(older).toFixed(2)),
    };
  });
}
