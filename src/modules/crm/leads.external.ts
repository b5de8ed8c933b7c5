// POST /external/leads: a lead sent by another system (a web form, a lead vendor) with the API
// key itself. externalRef makes it idempotent: of two sends of one reference exactly one
// inserts (the unique index crm_leads_external_ref, ON CONFLICT DO NOTHING) and both answer
// the same lead, 201 for the first and 200 for every replay, also one made concurrently.
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { type Lead, textOf, toLead } from './leads.queries.ts';
import type { ExternalLeadCreate } from './leads.schemas.ts';
import { insertLead } from './leads.service.ts';

export async function ingestLead(ctx: TenantCtx, body: Static<typeof ExternalLeadCreate>): Promise<Lead> {
  const inserted = await insertLead(ctx, body);
  if (inserted) {
    ctx.reply.code(201);
    return toLead(inserted);
  }
  // The reference was taken: the lead it made, deleted or not (the index covers both).
  const existing = await ctx.db
    .selectFrom('crm_leads')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('external_ref', '=', textOf(body.externalRef))
    .executeTakeFirstOrThrow();
  if (existing.deleted_at)
    throw conflict('externalRef: the lead of this reference was deleted', { field: 'externalRef' });
  ctx.reply.code(200);
  return toLead(existing);
}
