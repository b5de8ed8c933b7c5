// Leave adjustments (balances brought from an earlier system, or corrected) and the balances of
// an employee as of a date. Adjustments are never changed or removed: a wrong one is undone by
// another of the opposite sign.

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { companyOf, today } from '../../platform/work/context.ts';
import { balanceJson, balancesOf } from './leave.balances.ts';
import { findEmployee, toLeaveAdjustment } from './leave.queries.ts';
import type { LeaveAdjustmentCreate, LeaveAdjustmentListQuery } from './leave.schemas.ts';
import { employeeFor } from './leave.service.ts';

export type LeaveAdjustment = ReturnType<typeof toLeaveAdjustment>;

export async function leaveBalances(ctx: TenantCtx, employeeId: string, asOf?: string) {
  const e = await findEmployee(ctx.db, ctx.tenantId, companyOf(ctx), employeeId);
  if (!e) throw notFound('Employee');
  const day = asOf ?? today(ctx);
  if (day < e.start_date) throw badRequest('asOf', `before the employee's start date (${e.start_date})`);
  const balances = await balancesOf(ctx.db, ctx.tenantId, e, day);
  return { employeeId: e.id, asOf: day, balances: balances.map(balanceJson) };
}

export async function getLeaveAdjustment(ctx: TenantCtx, id: string): Promise<LeaveAdjustment> {
  const row = await ctx.db
    .selectFrom('leave_adjustments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Leave adjustment');
  return toLeaveAdjustment(row);
}

export async function createLeaveAdjustment(
  ctx: TenantCtx,
  input: Static<typeof LeaveAdjustmentCreate>,
): Promise<LeaveAdjustment> {
  if (input.days === 0) throw badRequest('days', 'must not be 0');
  const reason = input.reason.trim();
  const e = await employeeFor(ctx, input.employeeId, 'employeeId', true);
  if (input.effectiveOn < e.start_date)
    throw badRequest('effectiveOn', `before the employee's start date (${e.start_date})`);
  if (e.end_date && input.effectiveOn > e.end_date)
    throw badRequest('effectiveOn', `after the employee's end date (${e.end_date})`);
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('leave_adjustments')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyOf(ctx),
      employee_id: e.id,
      leave_type: input.type,
      effective_on: input.effectiveOn,
      days: input.days.toFixed(1),
      reason,
      created_by: ctx.principal.userId ?? null,
    })
    .execute();
  ctx.reply.code(201);
  return getLeaveAdjustment(ctx, id);
}

export async function listLeaveAdjustments(
  ctx: TenantCtx,
  query: Static<typeof LeaveAdjustmentListQuery>,
): Promise<Page<LeaveAdjustment>> {
  const p = paging(query);
  let q = ctx.db
    .selectFrom('leave_adjustments')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.employeeId) q = q.where('employee_id', '=', query.employeeId);
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('effective_on', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return pageOf(rows.map(toLeaveAdjustment), Number(n), p);
}
