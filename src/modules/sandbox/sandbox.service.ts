// The sandbox company: one per account at a time, offered with API access (Business and
// above), not counted against the plan's company allowance, read-only while the plan lacks
// API access (the catalogue refuses writes naming it), and deleted whole or not at all.
import type { Static } from 'typebox';
import type { Plan } from '../../config.ts';
import { assertPlanHasSandbox, planHasApiAccess } from '../../platform/auth/limits.ts';
import { addDays, dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict, notFound } from '../../platform/http/problem.ts';
import { getCompany, insertCompany, retireCompany } from '../companies/index.ts';
import { retireContacts } from '../contacts/index.ts';
import { retireProducts } from '../inventory/index.ts';
import { retireCompanyDocuments } from '../invoices/index.ts';
import { blockingRecords, findSandbox, insertSamples, samplesOf } from './sandbox.queries.ts';
import { createSamples } from './sandbox.samples.ts';
import type { Sandbox } from './sandbox.schemas.ts';

export const SANDBOX_NAME = 'Sandbox';
/** The sandbox is VAT-registered (its sample invoices are tax invoices) under a placeholder number. */
const SANDBOX_VAT_NUMBER = '4000000000';

/** The tenant row, locked: a create and a delete of the sandbox take turns. */
async function lockTenant(ctx: TenantCtx): Promise<Plan> {
  const t = await ctx.db
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', ctx.tenantId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return t.plan as Plan;
}

async function sandboxOf(ctx: TenantCtx, companyId: string, plan: Plan): Promise<Static<typeof Sandbox>> {
  const company = await getCompany(ctx, companyId);
  const samples = await samplesOf(ctx.db, ctx.tenantId, companyId, true);
  return {
    ...company,
    readOnly: !planHasApiAccess(plan),
    customerIds: samples.contactIds,
    productIds: samples.productIds,
    invoiceIds: samples.invoiceIds,
  };
}

export async function getSandbox(ctx: TenantCtx): Promise<Static<typeof Sandbox>> {
  const found = await findSandbox(ctx.db, ctx.tenantId);
  if (!found) throw notFound('Sandbox');
  return sandboxOf(ctx, found.id, ctx.principal.plan);
}

/** 201 with a new sandbox; 200 with the one that exists. */
export async function createSandbox(ctx: TenantCtx): Promise<Static<typeof Sandbox>> {
  const plan = await lockTenant(ctx);
  assertPlanHasSandbox(plan);
  const existing = await findSandbox(ctx.db, ctx.tenantId);
  if (existing) {
    ctx.reply.code(200);
    return sandboxOf(ctx, existing.id, plan);
  }
  const id = crypto.randomUUID();
  const today = dayOf(ctx.deps.now());
  // Not counted against the plan's allowance (countCountedCompanies leaves it out); its own
  // default chart comes with insertCompany like every company's.
  await insertCompany(
    ctx.db,
    ctx.tenantId,
    {
      id,
      name: SANDBOX_NAME,
      baseCurrency: 'ZAR',
      vatRegistered: true,
      vatRegisteredFrom: addDays(today, -365),
      vatNumber: SANDBOX_VAT_NUMBER,
      isSandbox: true,
    },
    today,
  );
  await insertSamples(ctx.db, ctx.tenantId, id, await createSamples(ctx, id));
  ctx.reply.code(201);
  return sandboxOf(ctx, id, plan);
}

/**
 * Deletes the sandbox and everything in it (soft), or nothing: refused with 409 naming the
 * records outside the sandbox that point into it.
 */
export async function deleteSandbox(ctx: TenantCtx): Promise<void> {
  await lockTenant(ctx);
  const found = await findSandbox(ctx.db, ctx.tenantId);
  if (!found) throw notFound('Sandbox');
  const blocking = await blockingRecords(ctx.db, ctx.tenantId, found.id);
  if (blocking.length > 0) {
    throw conflict(
      `The sandbox cannot be deleted: ${blocking.length === 1 ? 'a record' : `${blocking.length} records`} ` +
        'outside it point into it (see blocking). Change or delete them first; nothing was deleted.',
      { code: 'SANDBOX_IN_USE', blocking },
    );
  }
  const samples = await samplesOf(ctx.db, ctx.tenantId, found.id, false);
  await retireCompanyDocuments(ctx, found.id);
  await retireContacts(ctx, samples.contactIds);
  await retireProducts(ctx, samples.productIds);
  await retireCompany(ctx, found.id);
}
