// VAT periods with their state (open or submitted), the figures a period's report stands on, and
// submitting a period (issue 14):
//   * a submitted period answers what it froze at submission (vat_period_totals), whatever is
//     posted later;
//   * what is posted later dated in a submitted period (today's totals for it less everything
//     already reported for it) is reported by the first open period after it, as an adjustment
//     (fields 12 and 18); when that period is submitted, it stores those differences as rows of
//     its own (source_period_id = the adjusted period), so they are reported once;
//   * the first open period after a submitted one: every day between them lies in a submitted
//     period (by the submissions' own dates, so a change of VAT category does not lose any).
import { addDays } from '../../platform/dates/days.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/http/problem.ts';
import { toSql } from '../../platform/money/money.ts';
import { ledgerCtxOf } from '../ledger/index.ts';
import type { ReportCtx } from './reports.context.ts';
import {
  periodById,
  periodContaining,
  periodIdHint,
  periodsOverlapping,
  type VatPeriod,
} from './vat-periods.ts';
import {
  added,
  difference,
  liveTotals,
  type Submission,
  storedTotals,
  submissions,
  type VatTotal,
} from './vat-totals.ts';

export interface PeriodState extends VatPeriod {
  status: 'open' | 'submitted';
  submittedAt: Date | null;
}

function stateOf(p: VatPeriod, subs: Submission[]): PeriodState {
  const s = subs.find((x) => x.periodId === p.id);
  // A submission keeps the dates it was filed for (the category may have changed since).
  return s
    ? { id: p.id, from: s.from, to: s.to, status: 'submitted', submittedAt: s.submittedAt }
    : { ...p, status: 'open', submittedAt: null };
}

/** The periods of the company's category overlapping [from, to], with their state. */
export async function vatPeriods(rc: ReportCtx, range: { from: string; to: string }): Promise<PeriodState[]> {
  const subs = await submissions(rc.ctx.db, rc.tenantId, rc.companyId);
  return periodsOverlapping(rc.vatCategory, rc.yearEndMonth, range).map((p) => stateOf(p, subs));
}

/** The period a report asks for: by id (400 naming `period` when no period of the category has it). */
export async function periodState(rc: ReportCtx, id: string, field = 'period'): Promise<PeriodState> {
  const p = periodById(rc.vatCategory, rc.yearEndMonth, id);
  if (!p)
    throw badRequest(field, `${id} is not a VAT period: ${periodIdHint(rc.vatCategory, rc.yearEndMonth)}`);
  return stateOf(p, await submissions(rc.ctx.db, rc.tenantId, rc.companyId));
}

/** The period of the category whose dates are exactly [from, to], if any. */
export async function periodOfRange(
  rc: ReportCtx,
  range: { from: string; to: string },
): Promise<PeriodState | undefined> {
  const p = periodContaining(rc.vatCategory, rc.yearEndMonth, range.from);
  if (p.from !== range.from || p.to !== range.to) return undefined;
  return stateOf(p, await submissions(rc.ctx.db, rc.tenantId, rc.companyId));
}

/** Every day after `after` and before `before` lies in a submitted period. */
function coveredBetween(after: string, before: string, subs: Submission[]): boolean {
  let day = addDays(after, 1);
  while (day < before) {
    const s = subs.find((x) => x.from <= day && day <= x.to);
    if (!s) return false;
    day = addDays(s.to, 1);
  }
  return true;
}

export interface PendingAdjustment {
  periodId: string;
  totals: VatTotal[];
}

/** What an open period reports for the submitted periods before it (those it is the first open one after). */
async function pendingAdjustments(
  rc: ReportCtx,
  period: VatPeriod,
  subs: Submission[],
): Promise<PendingAdjustment[]> {
  const db = rc.ctx.db;
  const adjusted = subs.filter(
    (s) => s.periodId !== period.id && s.to < period.from && coveredBetween(s.to, period.from, subs),
  );
  if (!adjusted.length) return [];
  const reported = await storedTotals(db, rc.tenantId, rc.companyId, {
    sourcePeriodIds: adjusted.map((s) => s.periodId),
  });
  const out: PendingAdjustment[] = [];
  for (const s of adjusted) {
    const before = added([reported.filter((r) => r.sourcePeriodId === s.periodId)]);
    const totals = difference(await liveTotals(db, rc.tenantId, rc.companyId, s), before);
    if (totals.length) out.push({ periodId: s.periodId, totals });
  }
  return out;
}

export interface VatFigures {
  totals: VatTotal[];
  adjustments: PendingAdjustment[];
}

/**
 * The totals a report of [from, to] stands on: a submitted period's frozen rows; an open period's
 * live totals and its pending adjustments; any other range its live totals alone.
 */
export async function vatFigures(
  rc: ReportCtx,
  range: { from: string; to: string },
  period: PeriodState | undefined,
): Promise<VatFigures> {
  const db = rc.ctx.db;
  if (period?.status === 'submitted') {
    const rows = await storedTotals(db, rc.tenantId, rc.companyId, { periodId: period.id });
    const own = rows.filter((r) => r.sourcePeriodId === period.id);
    const others = [
      ...new Set(rows.filter((r) => r.sourcePeriodId !== period.id).map((r) => r.sourcePeriodId)),
    ];
    return {
      totals: own,
      adjustments: others.map((id) => ({
        periodId: id,
        totals: rows.filter((r) => r.sourcePeriodId === id),
      })),
    };
  }
  const totals = await liveTotals(db, rc.tenantId, rc.companyId, range);
  if (!period) return { totals, adjustments: [] };
  return {
    totals,
    adjustments: await pendingAdjustments(rc, period, await submissions(db, rc.tenantId, rc.companyId)),
  };
}

/**
 * Marks a period submitted: 404 when no period of the category ends in that month, 422 when it
 * has not ended (today is on or before its last day), 409 VAT_PERIOD_SUBMITTED when it already is
 * (or overlaps one that is, submitted under another VAT category).
 * Stores its totals and the adjustments it reports, exactly as its report showed them.
 */
export async function submitVatPeriod(rc: ReportCtx, id: string): Promise<PeriodState> {
  const db = rc.ctx.db;
  const p = periodById(rc.vatCategory, rc.yearEndMonth, id);
  if (!p) throw notFound('VAT period');
  const subs = await submissions(db, rc.tenantId, rc.companyId);
  const already = () =>
    conflict(`VAT period ${id} has been submitted already: its figures are frozen`, {
      code: 'VAT_PERIOD_SUBMITTED',
    });
  if (subs.some((s) => s.periodId === id)) throw already();
  // After a change of category a period may overlap one submitted under the old one: its days
  // are reported already.
  const overlapping = subs.find((s) => s.from <= p.to && p.from <= s.to);
  if (overlapping)
    throw conflict(
      `VAT period ${id} (${p.from} to ${p.to}) overlaps period ${overlapping.periodId} (${overlapping.from} to ` +
        `${overlapping.to}), submitted already`,
      { code: 'VAT_PERIOD_SUBMITTED' },
    );
  if (p.to >= rc.today)
    throw unprocessable(
      `VAT period ${id} (${p.from} to ${p.to}) has not ended: it can be submitted from ${addDays(p.to, 1)}`,
      ['period not ended'],
    );
  const figures = await vatFigures(rc, p, { ...p, status: 'open', submittedAt: null });
  const actor = ledgerCtxOf(rc.ctx).actor;
  const inserted = await db
    .insertInto('vat_period_submissions')
    .values({
      tenant_id: rc.tenantId,
      company_id: rc.companyId,
      period_id: id,
      date_from: p.from,
      date_to: p.to,
      submitted_at: rc.ctx.deps.now(),
      submitted_by_type: actor?.type ?? 'system',
      submitted_by: actor?.id ?? null,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'company_id', 'period_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows) !== 1) throw already();
  const rows = [
    ...figures.totals.map((t) => ({ source: id, t })),
    ...figures.adjustments.flatMap((a) => a.totals.map((t) => ({ source: a.periodId, t }))),
  ];
  if (rows.length)
    await db
      .insertInto('vat_period_totals')
      .values(
        rows.map(({ source, t }) => ({
          tenant_id: rc.tenantId,
          company_id: rc.companyId,
          period_id: id,
          source_period_id: source,
          tax_code: t.taxCode,
          tax_rate: t.taxRate.toFixed(3),
          transition: t.transition,
          base_debit: toSql(t.baseDebit),
          base_credit: toSql(t.baseCredit),
          tax_debit: toSql(t.taxDebit),
          tax_credit: toSql(t.taxCredit),
        })),
      )
      .execute();
  return (await vatPeriods(rc, p)).find((x) => x.id === id)!;
}
