// The records CSV imports leave: one, and the list of them (newest first, paged).
import type { Selectable } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { notFound } from '../../platform/http/problem.ts';
import type { CrmLeadImportsTable } from './crm.tables.ts';
import type { RowError } from './leads.import.parse.ts';

function toImport(r: Selectable<CrmLeadImportsTable>) {
  return {
    id: r.id,
    fileName: r.file_name,
    encoding: r.encoding,
    rows: r.row_count,
    created: r.created_count,
    updated: r.updated_count,
    duplicates: r.duplicate_count,
    errorRows: r.error_count,
    errors: r.errors as RowError[],
    importedBy: r.imported_by,
    createdAt: r.created_at.toISOString(),
  };
}

type LeadImport = ReturnType<typeof toImport>;

export async function getLeadImport(ctx: TenantCtx, id: string): Promise<LeadImport> {
  const row = await ctx.db
    .selectFrom('crm_lead_imports')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Lead import');
  return toImport(row);
}

export async function listLeadImports(
  ctx: TenantCtx,
  query: { page?: number; limit?: number },
): Promise<Page<LeadImport>> {
  const p = paging(query);
  const q = ctx.db.selectFrom('crm_lead_imports').where('tenant_id', '=', ctx.tenantId);
  const { rows, total } = await pageOfQuery(q, { columns: ['created_at'], direction: 'desc' }, p);
  return pageOf(rows.map(toImport), total, p);
}
