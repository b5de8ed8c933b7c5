// /api/cost-centres: the company's cost centres, master data of the books like the chart of
// accounts, so in the same module (reports; docs/decisions.md says why).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { CostCentre, CostCentreCreate, CostCentresQuery, CostCentreUpdate } from './cost-centres.schemas.ts';
import {
  createCostCentre,
  getCostCentre,
  listCostCentres,
  updateCostCentre,
} from './cost-centres.service.ts';

const { read, write } = routeGroup({ module: 'reports', tag: 'Cost centres', companyScoped: true });

export const costCentreRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/cost-centres',
    operationId: 'listCostCentres',
    summary: "The company's cost centres (bare array, by code)",
    description:
      'Active and deactivated; isActive=true for only those new lines may name. A bounded list: no paging.',
    query: CostCentresQuery,
    response: { 200: Type.Array(CostCentre) },
    handler: async ({ query }, ctx) => listCostCentres(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/cost-centres/{id}',
    operationId: 'getCostCentre',
    summary: 'One cost centre',
    params: IdParams,
    response: { 200: CostCentre },
    handler: async ({ params }, ctx) => getCostCentre(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/cost-centres',
    operationId: 'createCostCentre',
    errors: ['CONFLICT'],
    summary: 'Add a cost centre (a department, branch or project) to the company',
    description:
      'The code is unique in the company, in any case (409 CONFLICT naming code). Bill, expense and ' +
      'journal lines name it by costCentreId; the income statement reads one with ?costCentreId. 201; 200 with ' +
      'the existing one when clientId was already used.',
    body: CostCentreCreate,
    response: createdOrExisting(CostCentre),
    handler: async ({ body }, ctx) => createCostCentre(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/cost-centres/{id}',
    operationId: 'updateCostCentre',
    errors: ['CONFLICT'],
    summary: 'Rename, recode or deactivate a cost centre',
    description:
      'Never deleted: a deactivated cost centre keeps its history and its income statement, but no new line ' +
      'may name it (400 naming the line).',
    params: IdParams,
    body: CostCentreUpdate,
    response: { 200: CostCentre },
    handler: async ({ params, body }, ctx) => updateCostCentre(ctx, params.id, body),
  }),
];
