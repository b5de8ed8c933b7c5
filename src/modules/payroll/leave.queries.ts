// SQL of leave: the employee a request is for, requests and adjustments in API shape, and the
// sums a balance is made of.
import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import type { LeaveAdjustmentsTable, LeaveRequestsTable, LeaveType } from './payroll.tables.ts';

export type LeaveRow = Selectable<LeaveRequestsTable>;
export type AdjustmentRow = Selectable<LeaveAdjustmentsTable>;

/** A live employee of the company, locked when asked (requests of one employee queue on it). */
export function findEmployee(tx: Tx, tenantId: string, companyId: string, id: string, lock = false) {
  const q = tx
    .selectFrom('employees')
    .select(['id', 'start_date', 'end_date', 'days_per_week'])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export type EmployeeRow = NonNullable<Awaited<ReturnType<typeof findEmployee>>>;

export function findLeave(tx: Tx, tenantId: string, companyId: string, id: string, lock = false) {
  const q = tx
    .selectFrom('leave_requests')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export function toLeaveRequest(r: LeaveRow) {
  return {
    id: r.id,
    companyId: r.company_id,
    employeeId: r.employee_id,
    type: r.leave_type,
    startDate: r.starts_on,
    endDate: r.ends_on,
    days: Number(r.days),
    status: r.status,
    reason: r.reason,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function toLeaveAdjustment(r: AdjustmentRow) {
  return {
    id: r.id,
    companyId: r.company_id,
    employeeId: r.employee_id,
    type: r.leave_type,
    effectiveOn: r.effective_on,
    days: Number(r.days),
    reason: r.reason,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
  };
}

/** A pending or approved request of the employee sharing a day with [from, to], other than `except`. */
export function overlapping(
  tx: Tx,
  tenantId: string,
  employeeId: string,
  from: string,
  to: string,
  except?: string,
) {
  let q = tx
    .selectFrom('leave_requests')
    .select(['id', 'starts_on', 'ends_on', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('employee_id', '=', employeeId)
    .where('deleted_at', 'is', null)
    .where('status', 'in', ['pending', 'approved'])
    .where('starts_on', '<=', to)
    .where('ends_on', '>=', from);
  if (except) q = q.where('id', '<>', except);
  return q.orderBy('starts_on').executeTakeFirst();
}

/** Days of the employee's requests of a type by status, starting within [from, to] (to null: no end). */
export async function daysByStatus(
  tx: Tx,
  tenantId: string,
  employeeId: string,
  type: LeaveType,
  from: string,
  to: string | null,
  except?: string,
) {
  let q = tx
    .selectFrom('leave_requests')
    .select(['status', (eb) => eb.fn.sum<string>('days').as('days')])
    .where('tenant_id', '=', tenantId)
    .where('employee_id', '=', employeeId)
    .where('leave_type', '=', type)
    .where('deleted_at', 'is', null)
    .where('status', 'in', ['pending', 'approved'])
    .where('starts_on', '>=', from);
  if (to) q = q.where('starts_on', '<=', to);
  if (except) q = q.where('id', '<>', except);
  const rows = await q.groupBy('status').execute();
  const of = (s: string) => money(rows.find((r) => r.status === s)?.days ?? 0);
  return { approved: of('approved'), pending: of('pending') };
}

/** The sum of the employee's adjustments of a type effective within [from, to]. */
export async function adjustedDays(
  tx: Tx,
  tenantId: string,
  employeeId: string,
  type: LeaveType,
  from: string,
  to: string,
) {
  const r = await tx
    .selectFrom('leave_adjustments')
    .select((eb) => eb.fn.sum<string>('days').as('days'))
    .where('tenant_id', '=', tenantId)
    .where('employee_id', '=', employeeId)
    .where('leave_type', '=', type)
    .where('effective_on', '>=', from)
    .where('effective_on', '<=', to)
    .executeTakeFirst();
  return money(r?.days ?? 0);
}
