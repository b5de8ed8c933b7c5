// For payslips: the approved unpaid leave of an employee within a pay period, in working days.
// A request straddling the period counts only its working days inside [from, to]; a half-day
// request counts 0.5 when its day is inside.
import { Decimal } from 'decimal.js';
import type { Tx } from '../../platform/db/tenant.ts';
import { workingDays } from './leave.days.ts';

/**
 * Approved unpaid leave working days of the employee within [from, to] (both included). The
 * transaction is the tenant's (withTenant): row-level security keeps it to the tenant.
 */
export async function unpaidLeaveDays(
  tx: Tx,
  companyId: string,
  employeeId: string,
  from: string,
  to: string,
): Promise<Decimal> {
  const rows = await tx
    .selectFrom('leave_requests as r')
    .innerJoin('employees as e', (j) =>
      j
        .onRef('e.tenant_id', '=', 'r.tenant_id')
        .onRef('e.company_id', '=', 'r.company_id')
        .onRef('e.id', '=', 'r.employee_id'),
    )
    .select(['r.starts_on', 'r.ends_on', 'r.days', 'e.days_per_week'])
    .where('r.company_id', '=', companyId)
    .where('r.employee_id', '=', employeeId)
    .where('r.leave_type', '=', 'unpaid')
    .where('r.status', '=', 'approved')
    .where('r.deleted_at', 'is', null)
    .where('r.starts_on', '<=', to)
    .where('r.ends_on', '>=', from)
    .execute();
  let total = new Decimal(0);
  for (const r of rows) {
    if (new Decimal(r.days).eq('0.5')) {
      total = total.plus('0.5');
      continue;
    }
    const start = r.starts_on > from ? r.starts_on : from;
    const end = r.ends_on < to ? r.ends_on : to;
    total = total.plus(workingDays(start, end, String(r.days_per_week)));
  }
  return total;
}
