// The ranges the VAT routes answer for, from their queries.
import { calendarDay, financialYearEnd, financialYearStart } from '../../platform/dates/days.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { periodOf, type ReportCtx } from './reports.context.ts';
import { type PeriodState, periodOfRange, periodState } from './vat-state.ts';

/** GET /api/reports/vat: a period by id (not with from or to), or from and to as every report. */
export async function vatReportRange(
  rc: ReportCtx,
  query: { from?: string | undefined; to?: string | undefined; period?: string | undefined },
): Promise<{ range: { from: string; to: string }; period: PeriodState | undefined }> {
  if (query.period !== undefined) {
    if (query.from !== undefined || query.to !== undefined)
      throw badRequest('period', 'give period or from and to, not both');
    const period = await periodState(rc, query.period);
    return { range: { from: period.from, to: period.to }, period };
  }
  const range = periodOf(rc, query);
  return { range, period: await periodOfRange(rc, range) };
}

/** GET /api/reports/vat/periods: default the financial year containing today. */
export function vatPeriodsRange(
  rc: ReportCtx,
  query: { from?: string | undefined; to?: string | undefined },
): { from: string; to: string } {
  const to =
    query.to === undefined ? financialYearEnd(rc.today, rc.yearEndMonth) : calendarDay(query.to, 'to');
  const from =
    query.from === undefined ? financialYearStart(to, rc.yearEndMonth) : calendarDay(query.from, 'from');
  if (to < from) throw badRequest('to', `must not be before from (${from})`);
  return { from, to };
}
