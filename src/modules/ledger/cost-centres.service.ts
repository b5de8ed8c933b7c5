// A company's cost centres (departments, branches, projects): named on bill, expense and
// journal lines, read back by the income statement's costCentreId. Never deleted: a cost
// centre that has been used keeps its history; deactivating it stops new lines naming it.

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { CostCentreCreate, CostCentresQuery, CostCentreUpdate } from './cost-centres.schemas.ts';
import type { CostCentresTable } from './ledger.tables.ts';

export type CostCentre = ReturnType<typeof toCostCentre>;

function toCostCentre(r: Selectable<CostCentresTable>) {
  return {
    id: r.id,
    companyId: r.company_id,
    code: r.code,
    name: r.name,
    description: r.description,
    isActive: r.is_active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

function findCostCentre(db: Tx, tenantId: string, companyId: string, id: string) {
  return db
    .selectFrom('cost_centres')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A cost centre a new line may name: one of the company's, active. Another company's or
 * tenant's, or none, is 400 naming the field (the line is what is wrong, not the address).
 */
export async function assertCostCentre(
  db: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  field: string,
): Promise<void> {
  const row = await findCostCentre(db, tenantId, companyId, id);
  if (!row) throw badRequest(field, 'is not a cost centre of this company');
  if (!row.is_active) throw badRequest(field, `cost centre ${row.code} is deactivated`);
}

/** The company's cost centre, for a report (another's or none: 404). */
export async function costCentreOf(
  db: Tx,
  tenantId: string,
  companyId: string,
  id: string,
): Promise<CostCentre> {
  const row = await findCostCentre(db, tenantId, companyId, id);
  if (!row) throw notFound('Cost centre');
  return toCostCentre(row);
}

export async function listCostCentres(
  ctx: TenantCtx,
  query: Static<typeof CostCentresQuery>,
): Promise<CostCentre[]> {
  let q = ctx.db
    .selectFrom('cost_centres')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.isActive !== undefined) q = q.where('is_active', '=', query.isActive);
  return (await q.orderBy('code').orderBy('id').execute()).map(toCostCentre);
}

export function getCostCentre(ctx: TenantCtx, id: string): Promise<CostCentre> {
  return costCentreOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
}

async function assertCodeFree(ctx: TenantCtx, code: string, exceptId?: string) {
  let q = ctx.db
    .selectFrom('cost_centres')
    .select(['id', 'name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where((eb) => eb(eb.fn('lower', [eb.fn('btrim', ['code'])]), '=', code.trim().toLowerCase()));
  if (exceptId) q = q.where('id', '<>', exceptId);
  const taken = await q.executeTakeFirst();
  if (taken) throw conflict(`code: ${code} is already the code of ${taken.name}`, { field: 'code' });
}

export async function createCostCentre(
  ctx: TenantCtx,
  input: Static<typeof CostCentreCreate>,
): Promise<CostCentre> {
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      if (await findCostCentre(ctx.db, ctx.tenantId, companyOf(ctx), id)) return false;
      await assertCodeFree(ctx, input.code);
      const r = await ctx.db
        .insertInto('cost_centres')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyOf(ctx),
          code: input.code,
          name: input.name.trim(),
          description: input.description ?? null,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows) === 1;
    },
    load: (id) => getCostCentre(ctx, id),
  });
}

export async function updateCostCentre(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof CostCentreUpdate>,
): Promise<CostCentre> {
  const row = await findCostCentre(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Cost centre');
  if (input.name !== undefined && input.name.trim() === '') throw badRequest('name', 'must not be blank');
  if (input.code !== undefined && input.code !== row.code) await assertCodeFree(ctx, input.code, id);
  await ctx.db
    .updateTable('cost_centres')
    .set({
      ...(input.code !== undefined ? { code: input.code } : {}),
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.isActive !== undefined ? { is_active: input.isActive } : {}),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getCostCentre(ctx, id);
}
