// Converting a lead: it becomes a customer (a new contact, or one the caller names) and, when
// asked, an opportunity at the first stage of the pipeline. The marketing channels the person
// agreed to as a lead go into the new contact's consent history (POPIA s69 asks us to show
// when and how consent was given: dated when the lead was captured). One transaction.
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { contactName, createContact, recordConsent } from '../contacts/index.ts';
import { amountOf, findLead, type Lead, type LeadRow, toLead } from './leads.queries.ts';
import type { ConsentChannel, LeadConvert } from './leads.schemas.ts';

type ConvertBody = Static<typeof LeadConvert>;

async function makeContact(ctx: TenantCtx, lead: LeadRow): Promise<string> {
  const contact = await createContact(ctx, {
    contactType: 'CUSTOMER',
    name: lead.company_name ?? lead.name,
    ...(lead.email ? { email: lead.email } : {}),
    ...(lead.phone_e164 ? { phone: lead.phone_e164 } : {}),
    ...(lead.company_name ? { notes: `Contact person: ${lead.name}` } : {}),
  });
  for (const channel of lead.consent_channels as ConsentChannel[]) {
    await recordConsent(ctx, contact.id, {
      channel,
      status: 'granted',
      method: 'other',
      note: 'given as a lead',
      recordedAt: lead.created_at.toISOString(),
    });
  }
  return contact.id;
}

async function stageOf(ctx: TenantCtx, stageId: string | undefined): Promise<string> {
  let q = ctx.db
    .selectFrom('crm_pipeline_stages')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null);
  if (stageId) q = q.where('id', '=', stageId);
  const stage = await q.orderBy('position').orderBy('created_at').executeTakeFirst();
  if (stage) return stage.id;
  if (stageId) throw badRequest('opportunity.stageId', 'is not a stage of the pipeline');
  throw conflict('The pipeline has no stages: add one before converting with an opportunity');
}

async function makeOpportunity(
  ctx: TenantCtx,
  lead: LeadRow,
  contactId: string,
  o: NonNullable<ConvertBody['opportunity']>,
): Promise<string> {
  const id = crypto.randomUUID();
  const amount =
    o.amount !== undefined ? amountOf(o.amount, 'opportunity.amount') : (lead.estimated_value ?? '0.00');
  await ctx.db
    .insertInto('crm_opportunities')
    .values({
      tenant_id: ctx.tenantId,
      id,
      name: o.name?.trim() || lead.company_name || lead.name,
      lead_id: lead.id,
      contact_id: contactId,
      stage_id: await stageOf(ctx, o.stageId),
      owner_id: lead.owner_id,
      amount: amount ?? '0.00',
      expected_close_date: o.expectedCloseDate ?? null,
    })
    .execute();
  return id;
}

export async function convertLead(ctx: TenantCtx, id: string, body: ConvertBody): Promise<Lead> {
  const lead = await findLead(ctx.db, ctx.tenantId, id, true);
  if (!lead) throw notFound('Lead');
  if (lead.status === 'converted') throw conflict('The lead is already converted');
  let contactId: string;
  if (body.contactId) {
    if ((await contactName(ctx, body.contactId)) === undefined)
      throw badRequest('contactId', 'is not a contact of this business');
    contactId = body.contactId;
  } else {
    contactId = await makeContact(ctx, lead);
  }
  const opportunityId = body.opportunity
    ? await makeOpportunity(ctx, lead, contactId, body.opportunity)
    : null;
  const row = await ctx.db
    .updateTable('crm_leads')
    .set({
      status: 'converted',
      converted_at: ctx.deps.now(),
      contact_id: contactId,
      opportunity_id: opportunityId,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // createContact and recordConsent answer 201 for their own records; the lead is answered.
  ctx.reply.code(200);
  return toLead(row);
}
