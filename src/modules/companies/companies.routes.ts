import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Company, CompanyCreate, CompanyUpdate } from './companies.schemas.ts';
import { createCompany, getCompany, listForCaller, updateCompany } from './companies.service.ts';

export const companyRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/companies',
    operationId: 'listCompanies',
    tag: 'Companies',
    module: 'companies',
    access: 'read',
    permission: null,
    anyKey: true,
    summary: 'The companies the caller may reach (bare array; no X-Company-Id needed)',
    description: 'Every API key may read it, whatever its scopes.',
    response: { 200: Type.Array(Company) },
    handler: async (_input, ctx) => listForCaller(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/companies/{id}',
    operationId: 'getCompany',
    tag: 'Companies',
    module: 'companies',
    access: 'read',
    permission: ['companies', 'read'],
    summary: 'One company',
    params: IdParams,
    response: { 200: Company },
    handler: async ({ params }, ctx) => getCompany(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/companies',
    operationId: 'createCompany',
    tag: 'Companies',
    errors: ['COMPANY_LIMIT_REACHED', 'CONFLICT'],
    module: 'companies',
    access: 'write',
    permission: ['companies', 'write'],
    summary: "Create a company within the plan's company allowance",
    description:
      'The sandbox does not count against the allowance. Over it: 403 COMPANY_LIMIT_REACHED. ' +
      'A VAT-registered company needs its VAT number; vatRegisteredFrom defaults to today. vatCategory (its ' +
      'VAT periods) defaults to B, two-monthly periods ending in the even months. ' +
      '201 on create; 200 with the existing company when clientId was already used; 409 when it was the id ' +
      'of a company since deleted.',
    body: CompanyCreate,
    response: createdOrExisting(Company),
    handler: async ({ body }, ctx) => createCompany(ctx, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/companies/{id}',
    operationId: 'updateCompany',
    tag: 'Companies',
    errors: ['SANDBOX_READ_ONLY'],
    module: 'companies',
    access: 'write',
    permission: ['companies', 'write'],
    summary: 'Change a company; a VAT registration change takes effect from vatRegisteredFrom',
    description:
      'Changing vatRegistered (or vatRegisteredFrom) records a registration change effective from ' +
      'vatRegisteredFrom (default today). Documents use the registration in force on their issue date. ' +
      'vatCategory sets the VAT periods from then on (GET /api/reports/vat/periods); periods already ' +
      'submitted keep their dates. ' +
      "The sandbox's name cannot be changed (400 naming name); while the plan lacks API access the sandbox " +
      'is read-only and any change to it is 403 SANDBOX_READ_ONLY.',
    params: IdParams,
    body: CompanyUpdate,
    response: { 200: Company },
    handler: async ({ params, body }, ctx) => updateCompany(ctx, params.id, body),
  }),
];
