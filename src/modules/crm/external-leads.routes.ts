// POST /external/leads: the ingest other systems call with the API key itself (raw-key.ts),
// under the per-address limit (rate-limit.ts) as well as the key's own meter.
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { defineRoute } from '../../platform/http/catalogue.ts';
import { ingestLead } from './leads.external.ts';
import { ExternalLeadCreate, Lead } from './leads.schemas.ts';

export const externalLeadsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/external/leads',
    module: 'crm',
    access: 'write',
    permission: ['crm', 'write'],
    security: 'apiKey',
    operationId: 'ingestExternalLead',
    tag: 'Leads',
    errors: ['API_KEY_REQUIRED', 'CONFLICT'],
    summary: 'Send a lead from another system (the API key itself as bearer)',
    description:
      'The bearer is the API key itself, with scope crm:write (or full): a token exchanged from a key, or ' +
      "a person's token, is 401 API_KEY_REQUIRED. externalRef makes the call idempotent: a new reference " +
      'makes a lead (201, Location at GET /api/crm/leads/{id}); a reference sent before answers the lead it ' +
      'made (200), also when two sends cross; a reference whose lead was since deleted is 409. Send it ' +
      'always: without it every call makes a lead. Fields as POST /api/crm/leads (phone read as South ' +
      'African unless it starts with +; 400 naming a field that cannot be read); unknown fields 400. Under ' +
      "the per-address limit (60 a minute) as well as the key's own.",
    body: ExternalLeadCreate,
    response: { 201: Lead, 200: Lead },
    handler: async ({ body }, ctx) => ingestLead(ctx, body),
  }),
];
