// The SDL exemption, judged for the employer (the company) across all its pay runs (issue 34).
// Skills Development Levies Act s4(b): an employer is exempt where there are reasonable grounds
// for believing that its leviable amount (all its employees' remuneration) over the following
// twelve months will not exceed the threshold (R500 000). The expectation is taken as the greater
// of two figures, both across every frequency the company pays at:
//   * paid: the leviable remuneration (the payslips' taxable) of the company's current payslips
//     of periods ending in the twelve months to this period's end, this run's included: an
//     employer that paid more than the threshold over the last year, commission, bonuses and
//     leavers in, has no grounds to expect less without a reason the payroll cannot know;
//   * contracted: what its employees' records commit it to for the twelve months after the
//     period's end: a salary × periods a year, an hourly rate × hours a week × 52, and the
//     employer's retirement (a period) and medical (a month) contributions, each employee for the
//     share of those twelve months employed (a leaver's end date, a starter's start). This sees
//     the runs of other frequencies not yet calculated, and a new employer's first month.
// Employees marked sdlApplies false are left out of both (their pay is not leviable).
import type { Decimal } from 'decimal.js';
import type { TenantCtx } from '../../platform/http/context.ts';
import { money, sum } from '../../platform/money/money.ts';
import { PERIODS_PER_YEAR } from './calc/paye.ts';
import type { SdlRates } from './calc/sdl.ts';
import { sdlExempt } from './calc/sdl.ts';
import { listPayableEmployees, type PayrollEmployee } from './employees.payable.ts';

export interface SdlJudgement {
  /** The leviable amount expected over twelve months: the greater of paid and contracted. */
  expected: Decimal;
  paid: Decimal;
  contracted: Decimal;
  exempt: boolean;
}

const DAY = 86_400_000;
const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
const isoOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

/** The same day a year on (or back): 29 February becomes 28 February. */
export function yearFrom(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${y + years}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** What an employee's record commits the employer to for a whole year (leviable, exact). */
export function contractedYear(e: PayrollEmployee): Decimal {
  const periods = PERIODS_PER_YEAR[e.payFrequency];
  const pay =
    e.payBasis === 'hourly'
      ? money(e.rate).times(money(e.hoursPerWeek)).times(52)
      : money(e.rate).times(periods);
  return pay
    .plus(money(e.retirementEmployerContribution).times(periods))
    .plus(money(e.medicalEmployerContribution).times(12));
}

export async function judgeSdl(
  ctx: TenantCtx,
  period: { id: string; company_id: string; period_end: string },
  rates: SdlRates,
  /** This run's leviable remuneration of the employees SDL applies to (its draft payslips). */
  thisRun: Decimal,
): Promise<SdlJudgement> {
  const end = period.period_end;
  const { total } = await ctx.db
    .selectFrom('payslips as s')
    .innerJoin('payroll_periods as p', (j) =>
      j.onRef('p.tenant_id', '=', 's.tenant_id').onRef('p.id', '=', 's.period_id'),
    )
    .innerJoin('employees as e', (j) =>
      j.onRef('e.tenant_id', '=', 's.tenant_id').onRef('e.id', '=', 's.employee_id'),
    )
    .select((eb) => eb.fn.sum<string | null>('s.taxable').as('total'))
    .where('s.tenant_id', '=', ctx.tenantId)
    .where('s.company_id', '=', period.company_id)
    .where('s.replaced_at', 'is', null)
    .where('e.sdl_applies', '=', true)
    .where('p.id', '<>', period.id)
    .where('p.period_end', '>', yearFrom(end, -1))
    .where('p.period_end', '<=', end)
    .executeTakeFirstOrThrow();
  const paid = money(total ?? 0).plus(thisRun);

  // The twelve months after the period's end: (end, a year on], in days.
  const from = dayNo(end) + 1;
  const to = dayNo(yearFrom(end, 1));
  const days = to - from + 1;
  const employees = await listPayableEmployees(ctx.db, period.company_id, isoOf(from), isoOf(to));
  const contracted = sum(
    employees
      .filter((e) => e.sdlApplies)
      .map((e) => {
        const first = Math.max(from, dayNo(e.startDate));
        const last = Math.min(to, e.endDate ? dayNo(e.endDate) : to);
        return contractedYear(e)
          .times(Math.max(0, last - first + 1))
          .dividedBy(days);
      }),
  );
  const expected = paid.gt(contracted) ? paid : contracted;
  return { expected, paid, contracted, exempt: sdlExempt(rates, expected) };
}
