import { Type } from 'typebox';
import { IMAGE_TYPES } from '../../platform/files/images.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  InvoiceSettings,
  InvoiceSettingsPatch,
  TEMPLATE_BODY_LIMIT,
  Template,
  TemplateCreate,
  TemplatePatch,
} from './settings.schemas.ts';
import { getSettings, updateSettings } from './settings.ts';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  templateLogo,
  updateTemplate,
} from './templates.ts';

const { read, write } = routeGroup({ module: 'invoices', companyScoped: true });

const LOGO_RULES =
  'logo: { contentType: image/png or image/jpeg, data: base64 }. The bytes must really be that image (checked ' +
  'by their signature and read through: a damaged or other file is a 400 naming logo.data, a mismatched type ' +
  'names logo.contentType); at most 512 KiB decoded (400 naming logo.data) and 2000 pixels a side. A body over ' +
  '1 MiB is a 413. Colours are #rrggbb.';

export const settingsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoice-settings',
    operationId: 'getInvoiceSettings',
    tag: 'Invoice settings',
    summary: "The company's invoice settings (the defaults while never changed)",
    description:
      'Prefixes per document type (INV-, QUO-, PRO-, SO-, DN-, CN-, DBN-, CS-, DEP- by default), the number of ' +
      'digits (4), the defaults a new document takes when its body leaves them out (payment term 30 days, ' +
      'terms and notes text), the banking details printed on invoices, and the default template.',
    response: { 200: InvoiceSettings },
    handler: async (_input, ctx) => getSettings(ctx),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/invoice-settings',
    operationId: 'updateInvoiceSettings',
    tag: 'Invoice settings',
    audit: { resource: 'invoice_settings' },
    summary: 'Change the invoice settings (only the fields given)',
    description:
      'prefixes: any of the nine document types (another key is a 400 naming prefixes.<key>); each up to 12 ' +
      'letters, digits and - / . _ #, not ending in a digit, may be empty; two types may not share one. A new ' +
      'prefix or digit count applies to numbers taken from then on: documents keep their numbers and each ' +
      "type's counter goes on (INV-0007, then TAX-0008). Text fields: null or blank clears. defaultTemplateId " +
      'names a template of the company (400 otherwise), null for the built-in look.',
    body: InvoiceSettingsPatch,
    response: { 200: InvoiceSettings },
    handler: async ({ body }, ctx) => updateSettings(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoice-templates',
    operationId: 'createInvoiceTemplate',
    tag: 'Invoice templates',
    errors: ['CONFLICT'],
    audit: { resource: 'invoice_templates' },
    bodyLimit: TEMPLATE_BODY_LIMIT,
    summary: 'Create a template: how documents look on paper',
    description:
      `name, primaryColour (title, table heading band; default #1f4e79), accentColour (customer and totals boxes; ` +
      `default #f2f2f2), footer (every page's foot), logo. ${LOGO_RULES} A document prints with its templateId's ` +
      "template, else the settings' defaultTemplateId's. 201; 200 with the template when clientId was already used.",
    body: TemplateCreate,
    response: createdOrExisting(Template),
    handler: async ({ body }, ctx) => createTemplate(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoice-templates',
    operationId: 'listInvoiceTemplates',
    tag: 'Invoice templates',
    summary: "The company's templates by name (bare array)",
    response: { 200: Type.Array(Template) },
    handler: async (_input, ctx) => listTemplates(ctx),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoice-templates/{id}',
    operationId: 'getInvoiceTemplate',
    tag: 'Invoice templates',
    summary: 'One template',
    params: IdParams,
    response: { 200: Template },
    handler: async ({ params }, ctx) => getTemplate(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/invoice-templates/{id}',
    operationId: 'updateInvoiceTemplate',
    tag: 'Invoice templates',
    audit: { resource: 'invoice_templates' },
    bodyLimit: TEMPLATE_BODY_LIMIT,
    summary: 'Change a template (only the fields given; logo null removes the logo)',
    description: LOGO_RULES,
    params: IdParams,
    body: TemplatePatch,
    response: { 200: Template },
    handler: async ({ params, body }, ctx) => updateTemplate(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoice-templates/{id}',
    operationId: 'deleteInvoiceTemplate',
    tag: 'Invoice templates',
    audit: { resource: 'invoice_templates' },
    summary: 'Delete a template (marked deleted; 404 from then on)',
    description:
      "Documents that named it print with the settings' default template from then on (or the built-in look); " +
      'when it was the default, the settings name none.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteTemplate(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoice-templates/{id}/logo',
    operationId: 'getInvoiceTemplateLogo',
    tag: 'Invoice templates',
    produces: IMAGE_TYPES,
    summary: "The template's logo, as its own image type",
    description: 'image/png or image/jpeg, inline. A template without a logo is a 404.',
    params: IdParams,
    response: { 200: Type.String({ contentMediaType: 'image/*', description: 'The image bytes' }) },
    handler: async ({ params }, ctx) => templateLogo(ctx, params.id),
  }),
];
