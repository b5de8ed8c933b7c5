// The CSV mappings a user saves (/api/bank-csv-mappings): for a bank export no built-in profile
// reads. Checked whole on every write: the columns the sign convention needs, indexes only
// without a header.

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { BankCsvMappingCreate, BankCsvMappingUpdate } from './bank-csv-mappings.schemas.ts';
import type { BankCsvMappingsTable } from './bank-statements.tables.ts';
import type { CsvMapping } from './statements/csv-profiles.ts';

function toApi(r: Selectable<BankCsvMappingsTable>) {
  const m = (typeof r.mapping === 'string' ? JSON.parse(r.mapping) : r.mapping) as CsvMapping;
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    columns: m.columns,
    dateFormat: m.dateFormat,
    sign: m.sign,
    skipRows: m.skipRows,
    header: m.header ?? true,
    decimalSeparator: m.decimalSeparator ?? '.',
    delimiter: m.delimiter ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The mapping as the parser takes it, its columns checked against its sign and header. */
function checked(m: CsvMapping): CsvMapping {
  const c = m.columns;
  if (m.sign === 'signed' && c.amount === undefined)
    throw badRequest('columns.amount', 'is required with sign signed');
  if (m.sign === 'debit_credit' && c.debit === undefined && c.credit === undefined)
    throw badRequest('columns.debit', 'debit or credit is required with sign debit_credit');
  if (m.header === false)
    for (const [k, v] of Object.entries(c))
      for (const col of Array.isArray(v) ? v : [v])
        if (typeof col === 'string')
          throw badRequest(`columns.${k}`, 'must be an index: the mapping has no header');
  return m;
}

function mappingOf(input: Partial<Static<typeof BankCsvMappingCreate>>, base?: CsvMapping): CsvMapping {
  const m: CsvMapping = {
    columns: input.columns ?? base!.columns,
    dateFormat: input.dateFormat ?? base!.dateFormat,
    sign: input.sign ?? base!.sign,
    skipRows: input.skipRows ?? base?.skipRows ?? 0,
    header: input.header ?? base?.header ?? true,
    decimalSeparator: input.decimalSeparator ?? base?.decimalSeparator ?? 'auto',
  };
  const delimiter = input.delimiter ?? base?.delimiter;
  if (delimiter) m.delimiter = delimiter;
  return checked(m);
}

async function rowOf(db: Tx, tenantId: string, companyId: string, id: string) {
  return db
    .selectFrom('bank_csv_mappings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A mapping an upload names (mappingId): the company's, else 400 naming the field. */
export async function csvMappingFor(ctx: TenantCtx, id: string): Promise<CsvMapping> {
  const r = await rowOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!r) throw badRequest('mappingId', 'no such CSV mapping in this company');
  return toApi(r) as unknown as CsvMapping;
}

export async function listCsvMappings(ctx: TenantCtx) {
  const rows = await ctx.db
    .selectFrom('bank_csv_mappings')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toApi);
}

export async function getCsvMapping(ctx: TenantCtx, id: string) {
  const r = await rowOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!r) throw notFound('CSV mapping');
  return toApi(r);
}

async function assertNameFree(ctx: TenantCtx, name: string, except?: string) {
  let q = ctx.db
    .selectFrom('bank_csv_mappings')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where((eb) => eb(eb.fn('lower', [eb.fn('btrim', ['name'])]), '=', name.trim().toLowerCase()));
  if (except) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst())
    throw conflict(`name: a mapping is already called ${name}`, { field: 'name' });
}

export async function createCsvMapping(ctx: TenantCtx, input: Static<typeof BankCsvMappingCreate>) {
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'bank_csv_mappings',
    owner: ['company_id', companyOf(ctx)],
  });
  if (replay) {
    ctx.reply.code(200);
    return getCsvMapping(ctx, id);
  }
  const mapping = mappingOf(input);
  await assertNameFree(ctx, input.name);
  await ctx.db
    .insertInto('bank_csv_mappings')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyOf(ctx),
      name: input.name.trim(),
      mapping: JSON.stringify(mapping),
    })
    .execute();
  ctx.reply.code(201);
  return getCsvMapping(ctx, id);
}

export async function updateCsvMapping(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BankCsvMappingUpdate>,
) {
  const r = await rowOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!r) throw notFound('CSV mapping');
  const base = toApi(r) as unknown as CsvMapping;
  const mapping = mappingOf(input, base);
  if (input.name !== undefined) await assertNameFree(ctx, input.name, id);
  await ctx.db
    .updateTable('bank_csv_mappings')
    .set({
      mapping: JSON.stringify(mapping),
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getCsvMapping(ctx, id);
}
