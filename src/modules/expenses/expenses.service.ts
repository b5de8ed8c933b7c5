import type { Static } from 'typebox';
import { emit } from '../../platform/events/outbox.ts';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertCostCentre, ledgerCtxOf, systemAccount, vatRegisteredOn } from '../ledger/index.ts';
import { policyOf } from './expenses.policy.ts';
import { type ClaimRow, claimRecords, type ExpenseRecord, findClaimRow } from './expenses.queries.ts';
import {
  EXPENSE_DEFAULT_SORT,
  type EXPENSE_SORT_KEYS,
  type ExpenseCreate,
  type ExpenseListQuery,
  type ExpenseRejected,
  type ExpenseUpdate,
} from './expenses.schemas.ts';
import { assertEmployee, makerOf } from './expenses.shared.ts';
import { claimVat } from './expenses.vat.ts';

type Ctx = TenantCtx;

export async function recordOf(ctx: Ctx, row: ClaimRow): Promise<ExpenseRecord> {
  return (await claimRecords(ctx.db, ctx.tenantId, [row], await policyOf(ctx)))[0]!;
}

export async function getExpense(ctx: Ctx, id: string): Promise<ExpenseRecord> {
  const row = await findClaimRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Expense claim');
  return recordOf(ctx, row);
}

/** Locks the claim; 404 when it is not the company's live claim. */
export async function lockClaim(ctx: Ctx, id: string): Promise<ClaimRow> {
  const row = await findClaimRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Expense claim');
  return row;
}

/** The account a claim posts to: an active expense or asset account, not a control account. */
async function claimAccount(ctx: Ctx, companyId: string, accountId: string | undefined): Promise<string> {
  // General expenses (6750): the chart's catch-all, as on a bill line that names no account.
  if (!accountId) return systemAccount(ledgerCtxOf(ctx), companyId, 'general_expenses');
  const a = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'type', 'is_active', 'is_control', 'name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!a) throw badRequest('accountId', 'no such account in this company');
  if (a.type !== 'expense' && a.type !== 'asset')
    throw badRequest('accountId', `${a.name} is not an expense or asset account`);
  if (a.is_control) throw badRequest('accountId', `${a.name} is a control account`);
  if (!a.is_active) throw badRequest('accountId', `${a.name} is deactivated`);
  return a.id;
}

/** POST /api/expenses: 201 with the submitted claim, 200 with the one a repeated clientId made. */
export async function createExpense(ctx: Ctx, input: Static<typeof ExpenseCreate>): Promise<ExpenseRecord> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'expense_claims',
    owner: ['company_id', companyId],
  });
  if (replay) {
    const existing = await findClaimRow(ctx.db, ctx.tenantId, companyId, id, { includeDeleted: true });
    ctx.reply.code(200);
    return recordOf(ctx, existing!);
  }
  if (input.contactId) await assertEmployee(ctx, input.contactId);
  if (input.costCentreId)
    await assertCostCentre(ctx.db, ctx.tenantId, companyId, input.costCentreId, 'costCentreId');
  const accountId = await claimAccount(ctx, companyId, input.accountId);
  const taxCode = input.taxCode ?? 'standard';
  const vat = claimVat({
    amount: input.amount,
    vatAmount: input.vatAmount,
    taxCode,
    date: input.date,
    vatRegistered: await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.date),
    supplierVatNumber: input.supplierVatNumber,
  });
  const row = await ctx.db
    .insertInto('expense_claims')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: input.contactId ?? null,
      account_id: accountId,
      cost_centre_id: input.costCentreId ?? null,
      description: input.description.trim(),
      vendor: input.vendor?.trim() || null,
      supplier_vat_number: vat.vatNumber,
      category: input.category ?? null,
      currency: input.currency ?? 'ZAR',
      status: 'submitted',
      date: input.date,
      paid_with: input.paidWith,
      tax_code: taxCode,
      amount: toSql(input.amount),
      vat_amount: toSql(vat.vat),
      vat_rate: vat.rate.toFixed(3),
      vat_claimable: vat.claimable,
      vat_warning: vat.warning,
      created_by: makerOf(ctx),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  ctx.reply.code(201);
  return recordOf(ctx, row);
}

type SortKey = (typeof EXPENSE_SORT_KEYS)[number];
const SORT_COLUMNS = {
  date: ['date', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<SortKey, readonly string[]>;

export async function listExpenses(
  ctx: Ctx,
  query: Static<typeof ExpenseListQuery>,
): Promise<Page<ExpenseRecord>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  const p = paging(query);
  const order = sortOrder<SortKey>(query.sort, EXPENSE_DEFAULT_SORT);
  let q = ctx.db
    .selectFrom('expense_claims')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync learns of deleted claims too (deletedAt set); any other list shows live ones.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (query.from) q = q.where('date', '>=', query.from);
  if (query.to) q = q.where('date', '<=', query.to);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await claimRecords(ctx.db, ctx.tenantId, rows, await policyOf(ctx)), total, p);
}

/** PATCH: the words of a claim nobody has approved yet (the amounts are what was approved on). */
export async function updateExpense(
  ctx: Ctx,
  id: string,
  input: Static<typeof ExpenseUpdate>,
): Promise<ExpenseRecord> {
  const row = await lockClaim(ctx, id);
  if (row.status !== 'submitted')
    throw conflict(`This claim is ${row.status.replace('_', ' ')}: it no longer changes`, {
      code: 'NOT_A_DRAFT',
    });
  const set: Record<string, unknown> = {};
  if (input.description !== undefined) set.description = input.description.trim();
  if (input.vendor !== undefined) set.vendor = input.vendor?.trim() || null;
  if (input.category !== undefined) set.category = input.category;
  if (input.costCentreId)
    await assertCostCentre(ctx.db, ctx.tenantId, row.company_id, input.costCentreId, 'costCentreId');
  if (input.costCentreId !== undefined) set.cost_centre_id = input.costCentreId;
  if (!Object.keys(set).length) return recordOf(ctx, row);
  const updated = await ctx.db
    .updateTable('expense_claims')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

/** POST /api/expenses/{id}/reject: a claim awaiting approval is refused, with the reason. */
export async function rejectExpense(ctx: Ctx, id: string, reason: string): Promise<ExpenseRecord> {
  const row = await lockClaim(ctx, id);
  if (row.status !== 'submitted' && row.status !== 'partially_approved')
    throw conflict(`Only a claim awaiting approval is rejected; this one is ${row.status}`, {
      code: 'NOT_AWAITING_APPROVAL',
    });
  const now = ctx.deps.now();
  const updated = await ctx.db
    .updateTable('expense_claims')
    .set({ status: 'rejected', rejection_reason: reason.trim(), rejected_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const claim = await recordOf(ctx, updated);
  const data: Static<typeof ExpenseRejected> = {
    expenseId: claim.id,
    date: claim.date,
    description: claim.description,
    amount: claim.amount,
    contactId: claim.contactId,
    reason: reason.trim(),
    rejectedAt: now.toISOString(),
  };
  await emit(ctx, 'expense.rejected', data, claim.companyId);
  return claim;
}
