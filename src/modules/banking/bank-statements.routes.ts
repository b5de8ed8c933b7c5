// Routes of banking: statements files in (OFX, CAMT.053, CSV), preview, and the statements read;
// the CSV mappings a user saves for an export no bank profile reads.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { MULTIPART_CONTENT_TYPE } from '../../platform/http/multipart.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { BankCsvMapping, BankCsvMappingCreate, BankCsvMappingUpdate } from './bank-csv-mappings.schemas.ts';
import {
  createCsvMapping,
  getCsvMapping,
  listCsvMappings,
  updateCsvMapping,
} from './bank-csv-mappings.service.ts';
import { BankStatement, BankStatementsQuery, BankStatementUpload } from './bank-statements.schemas.ts';
import { getStatement, importStatement, listStatements } from './bank-statements.service.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Bank statements', companyScoped: true });
export const STATEMENT_LIMIT = 20 * 1024 * 1024;

export const bankStatementRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-statements',
    operationId: 'importBankStatement',
    summary: 'Import (or preview) a statement file: OFX/QFX, CAMT.053 or a bank CSV',
    description:
      'multipart/form-data, at most 20 MiB (larger: 413). The format is told from the bytes unless given; a CSV is ' +
      "read with the saved mapping named (mappingId), the profile named, or the layout of whichever bank's export " +
      "the header is (the bank account's bank tried first). A file's decimal mark, date format and Cr/Dr convention " +
      'are decided from all of its rows. A file may hold several statements (OFX accounts, CAMT days): each goes to ' +
      'the account it names; those of this bank account are imported, the others listed in statements, and a file ' +
      'naming none of its statements is 422 with accountsFound; a statement in another currency is 422. ' +
      'preview=true answers what the import would do and writes nothing (200). Otherwise one statement is written ' +
      '(201): its new lines, never a line the account already holds (the same file, an overlapping statement or the ' +
      'bank feed: each duplicate with its reason); identical rows of one day are kept. Rows with errors are not ' +
      'written (each in errors), the rest are. The balances are checked: opening + lines = closing, and the running ' +
      'balance row by row (a gap says where and how much). A file that adds nothing (the same file again, or lines ' +
      'all held) answers 200 with the counts of this call, recorded nowhere (id: the statement the same file was ' +
      'imported as, if it was). A file that cannot be read, or gives no line at all, is 422 with every reason and ' +
      'recorded nowhere; a CSV no layout reads names its columns (columnsFound) and suggests a mapping ' +
      '(suggestedMapping). Lists of rows show their first 100 beside their counts.',
    consumes: MULTIPART_CONTENT_TYPE,
    bodyLimit: STATEMENT_LIMIT,
    errors: ['UNPROCESSABLE'],
    body: BankStatementUpload,
    audit: { resource: 'bank_statements' },
    response: { 201: BankStatement, 200: BankStatement },
    handler: async ({ body }, ctx) => importStatement(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-statements',
    operationId: 'listBankStatements',
    summary: 'Statement files imported, newest first (paged)',
    query: BankStatementsQuery,
    response: { 200: Paged(BankStatement) },
    handler: async ({ query }, ctx) => listStatements(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-statements/{id}',
    operationId: 'getBankStatement',
    summary: 'One imported statement, with its report as it was answered',
    params: IdParams,
    response: { 200: BankStatement },
    handler: async ({ params }, ctx) => getStatement(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-csv-mappings',
    operationId: 'listBankCsvMappings',
    summary: "The company's saved CSV mappings (bare array, by name)",
    response: { 200: Type.Array(BankCsvMapping) },
    handler: async (_input, ctx) => listCsvMappings(ctx),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-csv-mappings/{id}',
    operationId: 'getBankCsvMapping',
    summary: 'One saved CSV mapping',
    params: IdParams,
    response: { 200: BankCsvMapping },
    handler: async ({ params }, ctx) => getCsvMapping(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-csv-mappings',
    operationId: 'createBankCsvMapping',
    errors: ['CONFLICT'],
    summary: 'Save a CSV mapping: column roles, date format, sign convention, skipped rows',
    description:
      'Columns by header name (case and spaces ignored) or 0-based index (header: false). sign signed needs ' +
      'columns.amount; debit_credit needs debit or credit (fee counted as money out). A name once per company ' +
      '(409). 201; 200 with the existing one when clientId was used.',
    body: BankCsvMappingCreate,
    response: createdOrExisting(BankCsvMapping),
    handler: async ({ body }, ctx) => createCsvMapping(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bank-csv-mappings/{id}',
    operationId: 'updateBankCsvMapping',
    errors: ['CONFLICT'],
    summary: 'Change a saved CSV mapping',
    params: IdParams,
    body: BankCsvMappingUpdate,
    response: { 200: BankCsvMapping },
    handler: async ({ params, body }, ctx) => updateCsvMapping(ctx, params.id, body),
  }),
];
