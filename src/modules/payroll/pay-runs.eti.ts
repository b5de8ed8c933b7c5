// The ETI month to date for a weekly or fortnightly run (the difference method, pay-runs.calc.ts):
// per employee, the sums of the ETI basis and of the ETI on their CURRENT payslips (replaced_at
// null) of the company's EARLIER periods (period_end before this one's) ending in the same
// calendar month, any frequency and status (an employee moved from one frequency to another
// mid-month still has one month). One query for the whole run.
import type { TenantCtx } from '../../platform/http/context.ts';
import { money } from '../../platform/money/money.ts';
import type { PayrollEmployee } from './employees.payable.ts';
import type { EtiMonthToDate } from './pay-runs.calc.ts';
import type { PayFrequency } from './payroll.tables.ts';

export async function etiMonthToDate(
  ctx: TenantCtx,
  period: { company_id: string; frequency: PayFrequency; period_end: string },
  employees: PayrollEmployee[],
): Promise<Map<string, EtiMonthToDate>> {
  const out = new Map<string, EtiMonthToDate>();
  // A monthly period is its own month; only the ETI-eligible have an ETI to take to date.
  const employeeIds = employees.filter((e) => e.etiEligible).map((e) => e.id);
  if (period.frequency === 'monthly' || employeeIds.length === 0) return out;
  const { company_id: companyId, period_end: periodEnd } = period;
  const rows = await ctx.db
    .selectFrom('payslips as s')
    .innerJoin('payroll_periods as p', (j) =>
      j.onRef('p.tenant_id', '=', 's.tenant_id').onRef('p.id', '=', 's.period_id'),
    )
    .select((eb) => [
      's.employee_id',
      eb.fn.sum<string>('s.eti_remuneration').as('remuneration'),
      eb.fn.sum<string>('s.eti_wage').as('wage'),
      eb.fn.sum<string>('s.eti_hours').as('hours'),
      eb.fn.sum<string>('s.eti_ordinary_hours').as('ordinaryHours'),
      eb.fn.sum<string>('s.eti').as('eti'),
    ])
    .where('s.tenant_id', '=', ctx.tenantId)
    .where('s.company_id', '=', companyId)
    .where('s.replaced_at', 'is', null)
    .where('s.employee_id', 'in', employeeIds)
    .where('p.period_end', '>=', `${periodEnd.slice(0, 7)}-01`)
    .where('p.period_end', '<', periodEnd)
    .groupBy('s.employee_id')
    .execute();
  for (const r of rows)
    out.set(r.employee_id, {
      remuneration: money(r.remuneration),
      wage: money(r.wage),
      hours: money(r.hours),
      ordinaryHours: money(r.ordinaryHours),
      eti: money(r.eti),
    });
  return out;
}
