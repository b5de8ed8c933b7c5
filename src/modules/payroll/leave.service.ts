// Leave requests: create (days worked out from the dates and the working week; idempotent on
// clientId), read, list, approve and reject (payroll:approve, pending only), cancel (pending, or
// approved and not started). An employee's requests queue on the employee's row (locked), so the
// overlap and balance checks of two requests at once cannot both pass on the same days.

import type { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { companyOf, today } from '../../platform/work/context.ts';
import { balanceOf } from './leave.balances.ts';
import { workingDays } from './leave.days.ts';
import {
  type EmployeeRow,
  findEmployee,
  findLeave,
  type LeaveRow,
  overlapping,
  toLeaveRequest,
} from './leave.queries.ts';
import type { LEAVE_SORT_KEYS, LeaveRequestCreate, LeaveRequestListQuery } from './leave.schemas.ts';
import { LEAVE_DEFAULT_SORT } from './leave.schemas.ts';
import type { LeaveStatus, LeaveType } from './payroll.tables.ts';

export type LeaveRequest = ReturnType<typeof toLeaveRequest>;

/** The types whose balance a request may not exceed (the others keep none). */
const CAPPED: readonly LeaveType[] = ['annual', 'sick', 'family_responsibility'];

/** The employee named in a body, or 400 naming the field (another tenant's or company's too). */
export async function employeeFor(ctx: TenantCtx, id: string, field = 'employeeId', lock = false) {
  const e = await findEmployee(ctx.db, ctx.tenantId, companyOf(ctx), id, lock);
  if (!e) throw badRequest(field, 'no such employee in the company');
  return e;
}

/** Days as a person writes them: 1.06, 3, 0.5. */
const days = (n: Decimal) => n.toDecimalPlaces(2).toString();

/** 409 LEAVE_BALANCE_EXCEEDED when `wanted` is more than the type's balance as of the first day. */
async function assertBalance(
  ctx: TenantCtx,
  e: EmployeeRow,
  r: { type: LeaveType; startDate: string; days: string },
  opts: { countPending: boolean; except?: string },
) {
  if (!CAPPED.includes(r.type)) return;
  const b = await balanceOf(ctx.db, ctx.tenantId, e, r.type, r.startDate, opts.except);
  const available = b.available!.minus(opts.countPending ? b.pending : 0);
  if (available.lt(r.days))
    throw conflict(
      `${days(available)} days of ${r.type} leave available as of ${r.startDate}` +
        `${opts.countPending && b.pending.gt(0) ? ` (after ${days(b.pending)} pending)` : ''}; ` +
        `${r.days} asked for`,
      { code: 'LEAVE_BALANCE_EXCEEDED' },
    );
}

async function assertNoOverlap(
  ctx: TenantCtx,
  employeeId: string,
  from: string,
  to: string,
  except?: string,
) {
  const other = await overlapping(ctx.db, ctx.tenantId, employeeId, from, to, except);
  if (other)
    throw conflict(
      `overlaps the ${other.status} leave of ${other.starts_on} to ${other.ends_on} (${other.id})`,
      { code: 'LEAVE_OVERLAP' },
    );
}

export async function getLeaveRequest(ctx: TenantCtx, id: string): Promise<LeaveRequest> {
  const row = await findLeave(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Leave request');
  return toLeaveRequest(row);
}

export async function createLeaveRequest(
  ctx: TenantCtx,
  input: Static<typeof LeaveRequestCreate>,
): Promise<LeaveRequest> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'leave_requests',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    return getLeaveRequest(ctx, id);
  }
  if (input.endDate < input.startDate) throw badRequest('endDate', 'must not be before startDate');
  if (input.halfDay && input.endDate !== input.startDate)
    throw badRequest('halfDay', 'a half day is a one-day request: endDate must equal startDate');
  const e = await employeeFor(ctx, input.employeeId, 'employeeId', true);
  if (input.startDate < e.start_date)
    throw badRequest('startDate', `before the employee's start date (${e.start_date})`);
  if (e.end_date && input.endDate > e.end_date)
    throw badRequest('endDate', `after the employee's end date (${e.end_date})`);
  const worked = workingDays(input.startDate, input.endDate, String(e.days_per_week));
  if (worked === 0)
    throw badRequest('startDate', 'no working day between startDate and endDate (weekend or public holiday)');
  const taken = input.halfDay ? '0.5' : String(worked);
  await assertNoOverlap(ctx, e.id, input.startDate, input.endDate);
  await assertBalance(
    ctx,
    e,
    { type: input.type, startDate: input.startDate, days: taken },
    { countPending: true },
  );
  await ctx.db
    .insertInto('leave_requests')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      employee_id: e.id,
      leave_type: input.type,
      starts_on: input.startDate,
      ends_on: input.endDate,
      days: taken,
      reason: input.reason?.trim() || null,
      client_id: input.clientId ?? null,
    })
    .execute();
  ctx.reply.code(201);
  return getLeaveRequest(ctx, id);
}

async function decide(
  ctx: TenantCtx,
  id: string,
  to: LeaveStatus,
  allowed: (row: LeaveRow) => string | null,
): Promise<LeaveRequest> {
  const companyId = companyOf(ctx);
  // The employee first, then the request: the order every change of an employee's leave takes.
  const peek = await findLeave(ctx.db, ctx.tenantId, companyId, id);
  if (!peek) throw notFound('Leave request');
  const e = await findEmployee(ctx.db, ctx.tenantId, companyId, peek.employee_id, true);
  const row = await findLeave(ctx.db, ctx.tenantId, companyId, id, true);
  if (!row || !e) throw notFound('Leave request');
  const refusal = allowed(row);
  if (refusal) throw conflict(refusal);
  if (to === 'approved') {
    // Another request approved since this one was made may have used the days.
    await assertBalance(
      ctx,
      e,
      { type: row.leave_type, startDate: row.starts_on, days: String(row.days) },
      { countPending: false, except: row.id },
    );
  }
  const decider = to === 'cancelled' ? {} : { decided_by: ctx.principal.userId ?? null };
  const updated = await ctx.db
    .updateTable('leave_requests')
    .set({ status: to, decided_at: new Date(), ...decider })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLeaveRequest(updated);
}

const onlyPending = (verb: string) => (row: LeaveRow) =>
  row.status === 'pending' ? null : `only a pending request can be ${verb}; this one is ${row.status}`;

export const approveLeaveRequest = (ctx: TenantCtx, id: string) =>
  decide(ctx, id, 'approved', onlyPending('approved'));

export const rejectLeaveRequest = (ctx: TenantCtx, id: string) =>
  decide(ctx, id, 'rejected', onlyPending('rejected'));

export const cancelLeaveRequest = (ctx: TenantCtx, id: string) =>
  decide(ctx, id, 'cancelled', (row) => {
    if (row.status === 'pending') return null;
    if (row.status !== 'approved') return `a ${row.status} request cannot be cancelled`;
    return row.starts_on > today(ctx)
      ? null
      : `the leave started on ${row.starts_on}: approved leave can be cancelled only before its first day`;
  });

type LeaveSortKey = (typeof LEAVE_SORT_KEYS)[number];
const SORT_COLUMNS = {
  date: ['starts_on', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<LeaveSortKey, readonly string[]>;

export async function listLeaveRequests(
  ctx: TenantCtx,
  query: Static<typeof LeaveRequestListQuery>,
): Promise<Page<LeaveRequest>> {
  const p = paging(query);
  const order = sortOrder<LeaveSortKey>(query.sort, LEAVE_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('leave_requests')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('deleted_at', 'is', null);
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  if (query.employeeId) q = q.where('employee_id', '=', query.employeeId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.type) q = q.where('leave_type', '=', query.type);
  if (query.from) q = q.where('ends_on', '>=', query.from);
  if (query.to) q = q.where('starts_on', '<=', query.to);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf((rows as LeaveRow[]).map(toLeaveRequest), total, p);
}
