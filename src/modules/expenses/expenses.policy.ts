// Who may approve a claim or a mileage trip, and how many must: the tenant's approval policy
// (secondApprovalFrom, approvers) and the limits per role. The rules, checked on each approval:
//   * the route needs expenses:approve (the catalogue checks it);
//   * nobody approves their own claim: the user who made it, or the user whose e-mail is the
//     claimant contact's (403 OWN_CLAIM);
//   * an approver approves up to the limit of their role; a role with no limit row up to the
//     policy's secondApprovalFrom (403 APPROVAL_LIMIT_EXCEEDED, naming the limit);
//   * a claim at or above secondApprovalFrom, when the policy asks for two approvers, needs a
//     second approval from someone else (the same one again: 409 SECOND_APPROVER_REQUIRED).
import { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { resolveRole } from '../../platform/auth/roles.service.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, HttpError } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import type {
  ApprovalLimits,
  ApprovalLimitsUpdate,
  ApprovalPolicy,
  ApprovalPolicyUpdate,
} from './expenses.schemas.ts';
import type { ApprovalEntry, ClaimStatus } from './expenses.tables.ts';

/** With no policy stored: a second approver from R5,000 (the SARS full tax invoice threshold). */
export const DEFAULT_POLICY = { secondApprovalFrom: new Decimal(5000), approvers: 2 };

type Ctx = Pick<TenantCtx, 'db' | 'tenantId' | 'principal'>;

/** R5,000.00: rands with thousands commas, as the rest of the service writes them. */
const rand = (d: Decimal) => {
  const [whole, part] = d.toFixed(2).split('.');
  return `R${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${part}`;
};

export async function policyOf(ctx: Ctx): Promise<{ secondApprovalFrom: Decimal; approvers: number }> {
  const row = await ctx.db
    .selectFrom('expense_approval_policies')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .executeTakeFirst();
  return row
    ? { secondApprovalFrom: money(row.second_approval_from), approvers: row.approvers }
    : DEFAULT_POLICY;
}

/** The policy in words, as the approval-policy answer's summary. */
export function policySummary(p: { secondApprovalFrom: Decimal; approvers: number }): string {
  const own = 'Nobody approves their own claim, and each approver stays within the limit of their role.';
  if (p.approvers === 1) return `Every claim needs one approver with expenses:approve. ${own}`;
  return (
    `A claim below ${rand(p.secondApprovalFrom)} needs one approver; a claim of ${rand(p.secondApprovalFrom)} ` +
    `or more needs two different approvers. ${own}`
  );
}

const mayChange = (ctx: Ctx) => ctx.principal.permissions.allows('admin', 'manage');

export async function getApprovalPolicy(ctx: Ctx): Promise<Static<typeof ApprovalPolicy>> {
  const p = await policyOf(ctx);
  return {
    secondApprovalFrom: toNumber(p.secondApprovalFrom),
    approvers: p.approvers,
    mayChange: mayChange(ctx),
    summary: policySummary(p),
  };
}

export async function putApprovalPolicy(
  ctx: Ctx,
  input: Static<typeof ApprovalPolicyUpdate>,
): Promise<Static<typeof ApprovalPolicy>> {
  const current = await policyOf(ctx);
  const next = {
    second_approval_from: toSql(input.secondApprovalFrom ?? current.secondApprovalFrom),
    approvers: input.approvers ?? current.approvers,
  };
  await ctx.db
    .insertInto('expense_approval_policies')
    .values({ tenant_id: ctx.tenantId, ...next })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...next, updated_at: new Date() }))
    .execute();
  return getApprovalPolicy(ctx);
}

async function liveLimits(ctx: Ctx) {
  return ctx.db
    .selectFrom('expense_approval_limits')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('max_amount')
    .orderBy('role_id')
    .execute();
}

export async function getApprovalLimits(ctx: Ctx): Promise<Static<typeof ApprovalLimits>> {
  const rows = await liveLimits(ctx);
  const limits = [];
  for (const r of rows) {
    const role = await resolveRole(ctx.db, ctx.tenantId, r.role_id);
    limits.push({
      id: r.id,
      roleId: r.role_id,
      roleName: role?.name ?? '(deleted role)',
      maxAmount: toNumber(r.max_amount),
    });
  }
  return { limits, mayChange: mayChange(ctx) };
}

/** PUT: the list replaces the tenant's limits (a role left out has none from then on). */
export async function putApprovalLimits(
  ctx: Ctx,
  input: Static<typeof ApprovalLimitsUpdate>,
): Promise<Static<typeof ApprovalLimits>> {
  const seen = new Set<string>();
  const roles: string[] = [];
  for (const [i, l] of input.limits.entries()) {
    const role = await resolveRole(ctx.db, ctx.tenantId, l.roleId);
    if (!role) throw badRequest(`limits[${i}].roleId`, 'no such role in this business');
    if (seen.has(role.id)) throw badRequest(`limits[${i}].roleId`, 'the role is listed twice');
    seen.add(role.id);
    roles.push(role.id);
  }
  const now = new Date();
  await ctx.db
    .updateTable('expense_approval_limits')
    .set({ deleted_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .execute();
  if (input.limits.length)
    await ctx.db
      .insertInto('expense_approval_limits')
      .values(
        input.limits.map((l, i) => ({
          tenant_id: ctx.tenantId,
          id: crypto.randomUUID(),
          role_id: roles[i]!,
          max_amount: toSql(l.maxAmount),
        })),
      )
      .execute();
  return getApprovalLimits(ctx);
}

/** What is approved: a claim or a trip, as far as the rules need to know. */
export interface Approvable {
  kind: 'claim' | 'trip';
  status: ClaimStatus;
  amount: Decimal;
  createdBy: string | null;
  contactId: string | null;
  approvals: ApprovalEntry[];
}

/**
 * Checks the caller may approve `s` now, and answers the approvals with theirs added and
 * whether that was the last one needed (the claim is then approved and posted).
 */
export async function addApproval(
  ctx: Ctx & Pick<TenantCtx, 'deps'>,
  s: Approvable,
): Promise<{ approvals: ApprovalEntry[]; final: boolean }> {
  const what = s.kind === 'claim' ? 'claim' : 'trip';
  if (s.status !== 'submitted' && s.status !== 'partially_approved')
    throw conflict(
      `Only a ${what} awaiting approval is approved; this one is ${s.status.replace('_', ' ')}`,
      {
        code: 'NOT_AWAITING_APPROVAL',
      },
    );
  const p = ctx.principal;
  const userId = p.userId;
  const keyId = p.type === 'api_key' ? p.keyId : null;
  if (userId && s.createdBy === userId)
    throw new HttpError(403, `You made this ${what}: someone else approves it`, { code: 'OWN_CLAIM' });
  if (userId && s.contactId) {
    const mine = await ctx.db
      .selectFrom('contacts as c')
      .innerJoin('users as u', (j) => j.onRef('u.tenant_id', '=', 'c.tenant_id'))
      .select('c.id')
      .where('c.tenant_id', '=', ctx.tenantId)
      .where('c.id', '=', s.contactId)
      .where('u.id', '=', userId)
      .whereRef('u.email', '=', (eb) => eb.fn('lower', ['c.email']))
      .executeTakeFirst();
    if (mine)
      throw new HttpError(
        403,
        `This ${what} is yours (the claimant's e-mail is yours): someone else approves it`,
        {
          code: 'OWN_CLAIM',
        },
      );
  }
  const same = (a: ApprovalEntry) => (userId ? a.userId === userId : a.keyId === keyId);
  if (s.approvals.some(same))
    throw conflict(`You approved this ${what} already: it needs a second approval from someone else`, {
      code: 'SECOND_APPROVER_REQUIRED',
    });
  const policy = await policyOf(ctx);
  const row = await ctx.db
    .selectFrom('expense_approval_limits')
    .select('max_amount')
    .where('tenant_id', '=', ctx.tenantId)
    .where('role_id', '=', p.role)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const limit = row ? money(row.max_amount) : policy.secondApprovalFrom;
  if (s.amount.greaterThan(limit))
    throw new HttpError(
      403,
      `This ${what} of ${rand(s.amount)} is above your approval limit of ${rand(limit)} ` +
        (row
          ? `(the limit of your role ${p.role})`
          : `(your role ${p.role} has no limit set: up to the second-approval threshold)`),
      { code: 'APPROVAL_LIMIT_EXCEEDED', limit: toNumber(limit) },
    );
  const needed = policy.approvers === 2 && s.amount.greaterThanOrEqualTo(policy.secondApprovalFrom) ? 2 : 1;
  const approvals = [
    ...s.approvals,
    { userId, keyId, name: p.name, roleId: p.role, approvedAt: ctx.deps.now().toISOString() },
  ];
  return { approvals, final: approvals.length >= needed };
}
