// Test helpers: leads and opportunities written straight to their tables (their routes are
// built elsewhere at the same time), and a tenant on a plan with the CRM.
import assert from 'node:assert/strict';
import type { Insertable } from 'kysely';
import { as, type Registered, register, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import type { CrmLeadsTable } from './crm.tables.ts';

export type Api = ReturnType<typeof as>;

/** A tenant on the Starter plan (the lowest with the CRM) and its owner's api. */
export async function crmTenant(t: TestApp): Promise<{ r: Registered; api: Api }> {
  const r = await register(t.app, { plan: 'starter' });
  return { r, api: as(t.app, r.token) };
}

type LeadValues = Partial<Omit<Insertable<CrmLeadsTable>, 'tenant_id' | 'id'>>;

/** A lead row of the tenant (name "Lead" unless given); its id. */
export async function insertLead(t: TestApp, tenantId: string, values: LeadValues = {}): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .insertInto('crm_leads')
      .values({ name: 'Lead', ...values, tenant_id: tenantId, id })
      .execute(),
  );
  return id;
}

/** An open opportunity at the tenant's first pipeline stage; its id. */
export async function insertOpportunity(t: TestApp, tenantId: string, name = 'Opportunity'): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, tenantId, async (tx) => {
    const stage = await tx
      .selectFrom('crm_pipeline_stages')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('crm_opportunities')
      .values({ tenant_id: tenantId, id, name, stage_id: stage.id })
      .execute();
  });
  return id;
}

/** POST /api/contacts, asserting 201; the contact's id. */
export async function contactOf(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api({ method: 'POST', url: '/api/contacts', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return String(res.json().id);
}
