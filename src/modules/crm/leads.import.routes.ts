// The CSV import of leads and the records it leaves.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { columnParam, IMPORT_FIELDS, type ImportField } from './leads.import.parse.ts';
import {
  LeadImport,
  LeadImportListQuery,
  LeadImportQuery,
  LeadImportResult,
} from './leads.import.schemas.ts';
import { importLeads } from './leads.import.ts';
import { getLeadImport, listLeadImports } from './leads.imports.service.ts';

const { read, write } = routeGroup({ module: 'crm', tag: 'Leads' });

/** 10,000 rows of a dozen columns fit with room to spare. */
export const IMPORT_LIMIT = 10 * 1024 * 1024;

export const leadsImportRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/crm/leads/import',
    operationId: 'importLeads',
    binaryBody: ['text/csv'],
    bodyLimit: IMPORT_LIMIT,
    summary: 'Import leads from a CSV file (or preview the import)',
    description:
      'The body is the file itself (Content-Type text/csv), at most 10 MiB and 50,000 rows (413 past either; ' +
      '10,000 rows of a dozen columns fit). ' +
      'UTF-8 with or without a BOM, or Windows-1252 as Excel writes it (the answer says which was read). ' +
      'The first row is the header; columns are found by the *Column parameters or by their usual headers ' +
      '(any case). De-duplication: a row matches a live lead, or an earlier row of the file, by its ' +
      'lower-cased e-mail, else its phone in E.164 (ZA by default), else (a row with neither) its name and ' +
      'company. A match that fills something the lead lacked (company, e-mail, phone, source, notes, value; ' +
      'new tags) counts as updated, one that adds nothing as a duplicate; other rows are created, stamped ' +
      'with the import. A row with no name (nor company), an e-mail that is no address, a phone that is no ' +
      'number or a value that is no amount is refused whole: errors lists each with its row (header = row ' +
      '1). preview=true answers exactly the counts the import would give and writes nothing. Imports of one ' +
      'business run one at a time, so the same file twice adds nothing. 200 with the counts and importId.',
    query: LeadImportQuery,
    response: { 200: LeadImportResult },
    handler: async ({ query, body }, ctx) => {
      const q = query as Record<string, string | boolean | undefined>;
      const columns: Partial<Record<ImportField, string>> = {};
      for (const f of IMPORT_FIELDS) {
        const name = q[columnParam(f)];
        if (typeof name === 'string') columns[f] = name;
      }
      return importLeads(ctx, body, { preview: query.preview === true, fileName: query.fileName, columns });
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/leads/imports',
    operationId: 'listLeadImports',
    summary: 'CSV imports of leads, newest first, paged',
    query: LeadImportListQuery,
    response: { 200: Paged(LeadImport) },
    handler: async ({ query }, ctx) => listLeadImports(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/crm/leads/imports/{id}',
    operationId: 'getLeadImport',
    summary: 'One CSV import of leads: its counts and refused rows',
    params: IdParams,
    response: { 200: LeadImport },
    handler: async ({ params }, ctx) => getLeadImport(ctx, params.id),
  }),
];
