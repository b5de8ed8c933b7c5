// API shapes of the CSV import: its query (the preview flag, the column names), its answer and
// the record each real run leaves.
import { Type } from 'typebox';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { columnParam, IMPORT_FIELDS, type ImportField } from './leads.import.parse.ts';

const USUAL_HEADERS: Record<ImportField, string> = {
  name: 'Name, Full name (or First name with Last name; else the company)',
  companyName: 'Company, Company name, Organisation',
  email: 'Email, E-mail, Email address',
  phone: 'Phone, Mobile, Cell, Telephone',
  source: 'Source, Lead source',
  notes: 'Notes, Comments',
  estimatedValue: 'Estimated value, Value, Deal value',
  tags: 'Tags (split on , ; or |)',
};

const columnParams = Object.fromEntries(
  IMPORT_FIELDS.map((f) => [
    columnParam(f),
    Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: `The header of the column holding ${f}. Default: the first of ${USUAL_HEADERS[f]}, in any case`,
      }),
    ),
  ]),
);

export const LeadImportQuery = Type.Object({
  preview: Type.Optional(
    Type.Boolean({
      description: 'true: answer the counts the import would give, writing nothing. Default false',
    }),
  ),
  fileName: Type.Optional(Type.String({ maxLength: 255, description: 'Kept with the import’s record' })),
  ...columnParams,
});

export const LeadImportError = named(
  'LeadImportError',
  Type.Object({
    row: Type.Integer({ description: 'As a spreadsheet numbers it: the header is row 1' }),
    field: Type.String(),
    reason: Type.String(),
  }),
);

export const LeadImportResult = named(
  'LeadImportResult',
  Type.Object({
    importId: nullable(Uuid, { description: 'The import’s record; null on a preview' }),
    preview: Type.Boolean(),
    encoding: Type.String({
      description: 'utf-8 (with or without a BOM), utf-16le or utf-16be (with their BOM), or windows-1252',
    }),
    rows: Type.Integer({ description: 'Rows of data (blank lines not counted)' }),
    created: Type.Integer(),
    updated: Type.Integer({ description: 'Rows that matched a lead and filled something it lacked' }),
    duplicates: Type.Integer({ description: 'Rows that matched a lead and added nothing' }),
    errors: Type.Array(LeadImportError, { description: 'Every refused row, each problem of it' }),
  }),
);

export const LeadImport = named(
  'LeadImport',
  Type.Object({
    id: Uuid,
    fileName: nullable(Type.String()),
    encoding: Type.String(),
    rows: Type.Integer(),
    created: Type.Integer(),
    updated: Type.Integer(),
    duplicates: Type.Integer(),
    errorRows: Type.Integer({ description: 'Rows refused' }),
    errors: Type.Array(LeadImportError),
    importedBy: nullable(Uuid, { description: 'The user (or API key) that ran it' }),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const LeadImportListQuery = Type.Object({ ...pageQueryProperties });
