// Leads: people or businesses not yet customers. Tenant-wide (no X-Company-Id), module crm.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { convertLead } from './leads.convert.ts';
import { Lead, LeadConvert, LeadCreate, LeadListQuery, LeadUpdate } from './leads.schemas.ts';
import { createLead, deleteLead, getLead, listLeads, updateLead } from './leads.service.ts';

const { read, write } = routeGroup({ module: 'crm', tag: 'Leads' });

const FIELD_RULES =
  'phone is read as South African unless it starts with + and a country code, and kept as given with ' +
  'phoneE164 beside it; a number that cannot be read is a 400 naming phone. email must be an address, ' +
  'ownerId a user of the business, estimatedValue at most two decimals (400 naming each). status ' +
  'converted is reached by converting only (400).';

export const leadsRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/leads',
    operationId: 'createLead',
    errors: ['CONFLICT'],
    summary: 'Create a lead',
    description: `${FIELD_RULES} An externalRef another lead has: 409.`,
    body: LeadCreate,
    response: { 201: Lead },
    handler: async ({ body }, ctx) => createLead(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/leads',
    operationId: 'listLeads',
    summary: 'Leads, newest first, paged',
    description:
      'Filters (before paging): status, owner (a user id), source (exactly, in any case), q (part of the ' +
      'name, company name, e-mail or phone, in any case). sort: createdAt or updatedAt, `-` for ' +
      'descending; default -createdAt; ties by id. updatedSince: leads changed at or after the instant, ' +
      'deleted ones too (deletedAt set; listed nowhere else).',
    query: LeadListQuery,
    response: { 200: Paged(Lead) },
    handler: async ({ query }, ctx) => listLeads(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/leads/{id}',
    operationId: 'getLead',
    summary: 'One lead',
    params: IdParams,
    response: { 200: Lead },
    handler: async ({ params }, ctx) => getLead(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/crm/leads/{id}',
    operationId: 'updateLead',
    errors: ['CONFLICT'],
    summary: 'Change a lead (the fields sent; null clears)',
    description: `${FIELD_RULES} A converted lead keeps its status (409 on another).`,
    params: IdParams,
    body: LeadUpdate,
    response: { 200: Lead },
    handler: async ({ params, body }, ctx) => updateLead(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/crm/leads/{id}',
    operationId: 'deleteLead',
    summary: 'Delete a lead (marked deleted)',
    description:
      '204; the lead answers 404 from then on, and is listed only to updatedSince, with deletedAt.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteLead(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/leads/{id}/convert',
    operationId: 'convertLead',
    errors: ['CONFLICT'],
    summary: 'Convert a lead into a customer (and optionally an opportunity)',
    description:
      'Without contactId a CUSTOMER contact is made from the lead: named its companyName (else its name), ' +
      'with its e-mail and phone (E.164); the consentChannels become granted consents in the contact’s ' +
      'history (method other, note "given as a lead", dated when the lead was captured). With contactId that ' +
      'contact is linked instead (400 when it is no contact of the business). With opportunity an ' +
      'opportunity is made for the contact: at stageId (400 when no stage of the pipeline) or the first ' +
      'stage, of amount or the lead’s estimatedValue (or 0), named name or as the contact. The lead becomes ' +
      'converted with contactId, opportunityId and convertedAt. A converted lead again: 409. Answers the lead.',
    params: IdParams,
    body: LeadConvert,
    response: { 200: Lead },
    handler: async ({ params, body }, ctx) => convertLead(ctx, params.id, body),
  }),
];
