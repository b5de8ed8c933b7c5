// The pipeline's stages (tenant-wide, like the rest of the CRM): list, add, change, remove.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Stage, StageCreate, StageUpdate } from './stages.schemas.ts';
import { createStage, deleteStage, getStage, listStages, updateStage } from './stages.service.ts';

const TENANT_WIDE =
  'The pipeline is one per tenant, shared by its companies: no X-Company-Id is needed. Every tenant starts ' +
  'with four stages (Qualification 10%, Needs analysis 25%, Proposal 50%, Negotiation 75%); won and lost ' +
  "are an opportunity's status, not stages.";

export const stagesRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/crm/stages',
    operationId: 'listPipelineStages',
    tag: 'Opportunities',
    module: 'crm',
    access: 'read',
    permission: ['crm', 'read'],
    summary: "The pipeline's stages in order (a bare array)",
    description: `${TENANT_WIDE} Deleted stages are left out.`,
    response: { 200: Type.Array(Stage) },
    handler: async (_input, ctx) => listStages(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/crm/stages',
    operationId: 'createPipelineStage',
    tag: 'Opportunities',
    errors: ['CONFLICT'],
    module: 'crm',
    access: 'write',
    permission: ['crm', 'write'],
    summary: 'Add a stage to the pipeline',
    description:
      `${TENANT_WIDE} Without position the stage goes last; with one, it is put there and the stages from ` +
      'there on move down one. A name a live stage has already (in any case) is a 409.',
    body: StageCreate,
    response: { 201: Stage },
    handler: async ({ body }, ctx) => createStage(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/crm/stages/{id}',
    operationId: 'getPipelineStage',
    tag: 'Opportunities',
    module: 'crm',
    access: 'read',
    permission: ['crm', 'read'],
    summary: 'One stage of the pipeline',
    description: "A deleted stage, or another tenant's, is a 404.",
    params: IdParams,
    response: { 200: Stage },
    handler: async ({ params }, ctx) => getStage(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/crm/stages/{id}',
    operationId: 'updatePipelineStage',
    tag: 'Opportunities',
    errors: ['CONFLICT'],
    module: 'crm',
    access: 'write',
    permission: ['crm', 'write'],
    summary: 'Rename a stage, change its probability or move it in the pipeline',
    description:
      'Only the fields sent change. A new probability applies at once to every opportunity at the stage ' +
      '(their weighted amounts and the pipeline report). position moves the stage there, the others closing ' +
      'up around it.',
    params: IdParams,
    body: StageUpdate,
    response: { 200: Stage },
    handler: async ({ params, body }, ctx) => updateStage(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/crm/stages/{id}',
    operationId: 'deletePipelineStage',
    tag: 'Opportunities',
    errors: ['CONFLICT'],
    module: 'crm',
    access: 'write',
    permission: ['crm', 'write'],
    summary: 'Remove a stage (soft); refused while open opportunities sit in it',
    description:
      '409 CONFLICT (with openCount) while an open opportunity is at the stage: move it to another stage or ' +
      'close it first. Won and lost opportunities keep naming the stage they were closed at.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteStage(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
