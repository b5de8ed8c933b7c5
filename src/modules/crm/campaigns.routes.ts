// /api/crm/campaigns: marketing campaigns on one channel, their members (leads and contacts)
// and the audience their consent allows. Tenant-wide like the rest of the CRM.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  Campaign,
  CampaignAudience,
  CampaignCreate,
  CampaignListQuery,
  CampaignMembersAdd,
  CampaignMembersAdded,
  CampaignUpdate,
  MemberParams,
} from './campaigns.schemas.ts';
import {
  addMembers,
  createCampaign,
  deleteCampaign,
  getAudience,
  getCampaign,
  listCampaigns,
  removeMember,
  updateCampaign,
} from './campaigns.service.ts';

const CRM = 'The CRM is one book per tenant: no X-Company-Id is needed.';
const COUNTS =
  'counts are read when asked, from the consent in force now: members, and of them the included and the ' +
  'excluded (see GET /api/crm/campaigns/{id}/audience).';

const { read, write } = routeGroup({ module: 'crm', tag: 'Campaigns' });

export const campaignsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/campaigns',
    operationId: 'listCampaigns',
    summary: 'List campaigns, the newest first, each with its counts; filtered by status and channel',
    description: `${CRM} A bare array (campaigns are few). ${COUNTS}`,
    query: CampaignListQuery,
    response: { 200: Type.Array(Campaign) },
    handler: async ({ query }, ctx) => listCampaigns(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/campaigns',
    operationId: 'createCampaign',
    summary: 'Create a campaign on one channel (email, sms, whatsapp, phone or post)',
    description: `${CRM} status defaults to draft; endsOn before startsOn is a 400 naming endsOn.`,
    body: CampaignCreate,
    response: { 201: Campaign },
    handler: async ({ body }, ctx) => createCampaign(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/campaigns/{id}',
    operationId: 'getCampaign',
    summary: 'One campaign, with its counts',
    description: `${CRM} ${COUNTS} A deleted campaign, or another tenant's, is a 404.`,
    params: IdParams,
    response: { 200: Campaign },
    handler: async ({ params }, ctx) => getCampaign(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/campaigns/{id}',
    operationId: 'updateCampaign',
    summary: 'Change a campaign: only the fields sent; null clears description, startsOn or endsOn',
    description: `${CRM} A new channel changes who is included at once (consent is per channel).`,
    params: IdParams,
    body: CampaignUpdate,
    response: { 200: Campaign },
    handler: async ({ params, body }, ctx) => updateCampaign(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/campaigns/{id}',
    operationId: 'deleteCampaign',
    summary: 'Delete a campaign (soft): it leaves the list and its id answers 404',
    description: CRM,
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteCampaign(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/campaigns/{id}/members',
    operationId: 'addCampaignMembers',
    errors: ['NOT_FOUND'],
    summary: 'Add leads and contacts to a campaign (ones already in it are counted, not added again)',
    description:
      `${CRM} Every id must be a live lead or contact of the tenant (else 404, and nothing is added). Answers ` +
      'the campaign with its counts, added (new members) and alreadyMembers. Membership is not consent: the ' +
      'audience decides who is reached.',
    params: IdParams,
    body: CampaignMembersAdd,
    response: { 200: CampaignMembersAdded },
    handler: async ({ params, body }, ctx) => addMembers(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/campaigns/{id}/members/{memberId}',
    operationId: 'removeCampaignMember',
    summary: 'Remove a member from a campaign (it may be added again later)',
    description: `${CRM} memberId is as the audience names it. A member removed already is a 404.`,
    params: MemberParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await removeMember(ctx, params.id, params.memberId);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/campaigns/{id}/audience',
    operationId: 'getCampaignAudience',
    summary: 'Who the campaign may reach on its channel now: the included, and the excluded with why',
    description:
      `${CRM} Read when asked: a consent withdrawn a moment ago excludes at once. A contact is included only ` +
      'when the latest consent recorded for the channel is granted (as GET /api/contacts/{id}/consent shows ' +
      "it); a lead only when the channel is among its consent channels and it is not converted (a converted lead's " +
      'contact decides). Also excluded: no address for the channel (an e-mail address for email; a mobile or ' +
      'phone number for sms, whatsapp and phone; a postal or physical address for post), a deleted lead or ' +
      'contact, and a converted lead whose contact is in the campaign already (a person is reached once). ' +
      'Reasons are in words, e.g. "Consent withdrawn on 2026-10-01", "No consent recorded for SMS", "No e-mail ' +
      'address". Members in the order they were added.',
    params: IdParams,
    response: { 200: CampaignAudience },
    handler: async ({ params }, ctx) => getAudience(ctx, params.id),
  }),
];
