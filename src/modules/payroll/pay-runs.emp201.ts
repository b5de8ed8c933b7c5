// The EMP201 figures of a month: every finalised or paid period of the company ending in that
// month (all frequencies: SARS takes one return a month). paye − eti, uif and sdl are exactly
// those periods' entries' credits to 2300, 2310 and 2320.
//
// An ETI larger than the month's PAYE is not paid out monthly: the excess rolls over and is added
// to the next month's ETI (Employment Tax Incentive Act s9(1)), within the employer's
// reconciliation period (the six months to the end of August and to the end of February: Fourth
// Schedule para 14(3)(a)). At the end of that period the excess still unused is claimed from
// SARS (s10(1)) and counts as nil from the next month (s10(3), s9(4)). So each month:
//   available = brought forward + the month's ETI; utilised = the lesser of it and the PAYE;
//   carried forward = available − utilised (in August and February: what the reconciliation claims);
//   payable = PAYE − utilised + UIF + SDL, never below UIF + SDL.
// The ledger needs nothing more: 2300 takes PAYE less the month's ETI, so an unused excess is a
// debit balance there (owed by SARS) until a later month's PAYE uses it.
//
// `issues`: the warnings of the month's periods (payslip-warnings.ts), once per employee and code:
// what the return's figures do not show but the tax documents need (an employee without an income
// tax number cannot be put on an IRP5 as SARS wants), or an ETI not claimed and why.

import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { sum, toNumber, ZERO } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { periodRow } from './pay-runs.service.ts';
import { type PeriodWarning, warningsOf } from './payslip-warnings.ts';

type Ctx = TenantCtx;

/** The first month (YYYY-MM) of the reconciliation period holding `month`: March or September. */
export function reconciliationStart(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  if (m >= 3 && m <= 8) return `${y}-03`;
  return m >= 9 ? `${y}-09` : `${y - 1}-09`;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** What of the ETI available reduces the PAYE: all of it, at most the PAYE, never below nil. */
function utilisedOf(available: Decimal, paye: Decimal): Decimal {
  const used = available.lt(paye) ? available : paye;
  return used.isNegative() ? ZERO : used;
}

export async function emp201(ctx: Ctx, id: string) {
  const row = await periodRow(ctx, id);
  const month = row.period_end.slice(0, 7);
  const from = reconciliationStart(month);
  const periods = await ctx.db
    .selectFrom('payroll_periods')
    .select(['id', 'period_end', 'paye', 'eti', 'uif_employee', 'uif_employer', 'sdl', 'warnings'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('status', 'in', ['finalised', 'paid'])
    .where('period_end', '>=', `${from}-01`)
    .where('period_end', '<=', lastDay(month))
    .orderBy('period_end')
    .orderBy('id')
    .execute();
  // The reconciliation period's months in order, each with its PAYE and ETI, to roll the excess.
  const months = [...new Set(periods.map((p) => p.period_end.slice(0, 7)))].sort();
  let broughtForward = ZERO;
  for (const m of months.filter((m) => m < month)) {
    const these = periods.filter((p) => p.period_end.startsWith(m));
    const available = broughtForward.plus(sum(these.map((p) => p.eti)));
    const paye = sum(these.map((p) => p.paye));
    broughtForward = available.minus(utilisedOf(available, paye));
  }
  const ours = periods.filter((p) => p.period_end.startsWith(month));
  const paye = sum(ours.map((p) => p.paye));
  const eti = sum(ours.map((p) => p.eti));
  const available = broughtForward.plus(eti);
  const utilised = utilisedOf(available, paye);
  const uif = sum(ours.flatMap((p) => [p.uif_employee, p.uif_employer]));
  const sdl = sum(ours.map((p) => p.sdl));
  const issues = new Map<string, PeriodWarning>();
  for (const w of ours.flatMap((p) => warningsOf<PeriodWarning>(p.warnings)))
    if (!issues.has(`${w.employeeId} ${w.code}`)) issues.set(`${w.employeeId} ${w.code}`, w);
  return {
    month,
    periodIds: ours.map((p) => p.id),
    paye: toNumber(paye),
    eti: toNumber(eti),
    payeLessEti: toNumber(paye.minus(eti)),
    uif: toNumber(uif),
    sdl: toNumber(sdl),
    etiBroughtForward: toNumber(broughtForward),
    etiUtilised: toNumber(utilised),
    etiCarriedForward: toNumber(available.minus(utilised)),
    payable: toNumber(paye.minus(utilised).plus(uif).plus(sdl)),
    issues: [...issues.values()],
  };
}
