// The company's bank rules: a bounded list in priority order, created idempotently, changed,
// and deleted softly (deleted_at: the lines a rule coded keep naming it).

import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertBankAccount } from './bank-accounts.service.ts';
import type { Coding, Condition, RuleToMatch } from './bank-rules.match.ts';
import type { BankRuleCreate, BankRulesQuery, BankRuleUpdate } from './bank-rules.schemas.ts';
import type { BankRuleRow } from './bank-rules.tables.ts';
import { checkCoding, checkConditions } from './bank-rules.validate.ts';

/** The company's live rules, in the order they run (priority, then creation, then id). */
export function selectRules(db: Tx, tenantId: string, companyId: string) {
  return db
    .selectFrom('bank_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .orderBy('priority')
    .orderBy('created_at')
    .orderBy('id');
}

/** A stored rule as the matcher takes it. */
export function ruleToMatch(r: BankRuleRow): RuleToMatch {
  return {
    id: r.id,
    name: r.name,
    match: r.match,
    conditions: r.conditions as Condition[],
    actions: r.actions as Coding,
    stopProcessing: r.stop_processing,
    bankAccountId: r.bank_account_id,
  };
}

/** Amount conditions answered as numbers, text as given. */
function conditionOut(c: Condition) {
  const n = (v: string | number | undefined) => (v === undefined ? {} : { value: v });
  if (c.field !== 'amount') return { field: c.field, operator: c.operator, ...n(c.value) };
  if (c.operator === 'between')
    return { field: c.field, operator: c.operator, min: toNumber(c.min!), max: toNumber(c.max!) };
  return { field: c.field, operator: c.operator, value: toNumber(c.value!) };
}

export function actionsOut(a: Coding) {
  return {
    ...a,
    ...(a.splits ? { splits: a.splits.map((s) => ({ ...s, percent: toNumber(s.percent) })) } : {}),
  };
}

function toBankRule(r: BankRuleRow) {
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    priority: r.priority,
    match: r.match,
    conditions: (r.conditions as Condition[]).map(conditionOut),
    actions: actionsOut(r.actions as Coding),
    stopProcessing: r.stop_processing,
    bankAccountId: r.bank_account_id,
    isActive: r.is_active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export type BankRule = ReturnType<typeof toBankRule>;

export async function listBankRules(
  ctx: TenantCtx,
  query: Static<typeof BankRulesQuery>,
): Promise<BankRule[]> {
  let q = selectRules(ctx.db, ctx.tenantId, companyOf(ctx));
  if (query.isActive !== undefined) q = q.where('is_active', '=', query.isActive);
  if (query.bankAccountId)
    q = q.where((eb) =>
      eb.or([eb('bank_account_id', 'is', null), eb('bank_account_id', '=', query.bankAccountId!)]),
    );
  return (await q.execute()).map(toBankRule);
}

async function findRule(ctx: TenantCtx, id: string) {
  const r = await selectRules(ctx.db, ctx.tenantId, companyOf(ctx)).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('Bank rule');
  return r;
}

export async function getBankRule(ctx: TenantCtx, id: string): Promise<BankRule> {
  return toBankRule(await findRule(ctx, id));
}

async function checkedActions(ctx: TenantCtx, actions: Coding): Promise<Coding> {
  const out = await checkCoding(ctx.db, ctx.tenantId, companyOf(ctx), actions, 'actions');
  if (!Object.keys(out).length) throw badRequest('actions', 'a rule needs at least one action');
  return out;
}

export async function createBankRule(
  ctx: TenantCtx,
  input: Static<typeof BankRuleCreate>,
): Promise<BankRule> {
  const companyId = companyOf(ctx);
  const conditions = checkConditions(input.conditions as Condition[]);
  const actions = await checkedActions(ctx, input.actions as Coding);
  if (input.bankAccountId) await assertBankAccount(ctx.db, ctx.tenantId, companyId, input.bankAccountId);
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      let priority = input.priority;
      if (priority === undefined) {
        const last = await ctx.db
          .selectFrom('bank_rules')
          .select((eb) => eb.fn.max<number>('priority').as('p'))
          .where('tenant_id', '=', ctx.tenantId)
          .where('company_id', '=', companyId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        priority = last?.p == null ? 10 : Math.min(Number(last.p) + 10, 1000000);
      }
      const inserted = await ctx.db
        .insertInto('bank_rules')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyId,
          name: input.name.trim(),
          priority,
          match: input.match ?? 'all',
          conditions: JSON.stringify(conditions),
          actions: JSON.stringify(actions),
          stop_processing: input.stopProcessing ?? true,
          bank_account_id: input.bankAccountId ?? null,
          is_active: input.isActive ?? true,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    load: (id) => getBankRule(ctx, id),
  });
}

export async function updateBankRule(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BankRuleUpdate>,
): Promise<BankRule> {
  const companyId = companyOf(ctx);
  await findRule(ctx, id);
  const set: Record<string, unknown> = {};
  if (input.name !== undefined) set.name = input.name.trim();
  if (input.priority !== undefined) set.priority = input.priority;
  if (input.match !== undefined) set.match = input.match;
  if (input.conditions !== undefined)
    set.conditions = JSON.stringify(checkConditions(input.conditions as Condition[]));
  if (input.actions !== undefined)
    set.actions = JSON.stringify(await checkedActions(ctx, input.actions as Coding));
  if (input.stopProcessing !== undefined) set.stop_processing = input.stopProcessing;
  if (input.bankAccountId !== undefined) {
    if (input.bankAccountId) await assertBankAccount(ctx.db, ctx.tenantId, companyId, input.bankAccountId);
    set.bank_account_id = input.bankAccountId;
  }
  if (input.isActive !== undefined) set.is_active = input.isActive;
  if (Object.keys(set).length)
    await ctx.db
      .updateTable('bank_rules')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getBankRule(ctx, id);
}

/** Soft: the rule stops running and leaves the list; lines it coded keep their coding and name it. */
export async function deleteBankRule(ctx: TenantCtx, id: string): Promise<void> {
  await findRule(ctx, id);
  await ctx.db
    .updateTable('bank_rules')
    .set({ deleted_at: ctx.deps.now(), is_active: false })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  ctx.reply.code(204);
}
