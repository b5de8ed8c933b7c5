// Leads by hand: create, read, the paged list (status, owner, source, q, updatedSince), change
// and delete (soft). Conversion is leads.convert.ts, the CSV import leads.import.ts, the
// ingest from other systems leads.external.ts.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { phoneE164 } from './leads.phone.ts';
import { columnsOf, findLead, type Lead, type LeadFields, type LeadRow, toLead } from './leads.queries.ts';
import { LEAD_DEFAULT_SORT, type LEAD_SORT_KEYS, type LeadListQuery } from './leads.schemas.ts';
import { assertUsers } from './teams.users.ts';

type LeadSortKey = (typeof LEAD_SORT_KEYS)[number];

const CONVERTED_BY_CONVERT = 'converted is set by converting the lead (POST /api/crm/leads/{id}/convert)';

export async function getLead(ctx: Pick<TenantCtx, 'db' | 'tenantId'>, id: string): Promise<Lead> {
  const row = await findLead(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Lead');
  return toLead(row);
}

/**
 * Inserts a lead; with an externalRef already used by a lead of the tenant (deleted or not)
 * nothing is inserted and undefined is answered (the caller decides: 409, or the replay).
 */
export async function insertLead(
  ctx: TenantCtx,
  input: LeadFields & { name: string },
  extra: { importId?: string } = {},
): Promise<LeadRow | undefined> {
  if (input.status === 'converted') throw badRequest('status', CONVERTED_BY_CONVERT);
  const columns = columnsOf(input);
  if (input.ownerId) await assertUsers(ctx.db, ctx.tenantId, [input.ownerId], 'ownerId');
  return ctx.db
    .insertInto('crm_leads')
    .values({
      ...columns,
      name: columns.name!,
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      import_id: extra.importId ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'external_ref']).where('external_ref', 'is not', null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function createLead(ctx: TenantCtx, input: LeadFields & { name: string }): Promise<Lead> {
  const row = await insertLead(ctx, input);
  if (!row) throw conflict('externalRef: another lead has this reference', { field: 'externalRef' });
  ctx.reply.code(201);
  return toLead(row);
}

export async function updateLead(ctx: TenantCtx, id: string, input: LeadFields): Promise<Lead> {
  const row = await findLead(ctx.db, ctx.tenantId, id, true);
  if (!row) throw notFound('Lead');
  if (input.status !== undefined && input.status !== row.status) {
    if (input.status === 'converted') throw badRequest('status', CONVERTED_BY_CONVERT);
    if (row.status === 'converted') throw conflict('The lead is converted: its status no longer changes');
  }
  const columns = columnsOf(input);
  if (input.status !== undefined && row.status !== 'converted')
    columns.status = input.status as LeadRow['status'];
  if (input.ownerId) await assertUsers(ctx.db, ctx.tenantId, [input.ownerId], 'ownerId');
  if (!Object.keys(columns).length) return toLead(row);
  const updated = await ctx.db
    .updateTable('crm_leads')
    .set(columns)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLead(updated);
}

export async function deleteLead(ctx: TenantCtx, id: string): Promise<void> {
  const row = await findLead(ctx.db, ctx.tenantId, id, true);
  if (!row) throw notFound('Lead');
  await ctx.db
    .updateTable('crm_leads')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

/** LIKE's wildcards taken literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const SORT_COLUMNS = {
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const satisfies Record<LeadSortKey, readonly string[]>;

export async function listLeads(ctx: TenantCtx, query: Static<typeof LeadListQuery>): Promise<Page<Lead>> {
  const p = paging(query);
  const order = sortOrder<LeadSortKey>(query.sort, LEAD_DEFAULT_SORT);
  let q = ctx.db.selectFrom('crm_leads').where('tenant_id', '=', ctx.tenantId);
  // A sync (updatedSince) learns of deleted leads too, their deletedAt set.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.owner) q = q.where('owner_id', '=', query.owner);
  if (query.source?.trim()) q = q.where(sql<string>`lower(source)`, '=', query.source.trim().toLowerCase());
  const text = query.q?.trim();
  if (text) {
    const pattern = likePattern(text);
    // A whole number however written (082 555 0142, +27 82…) finds the lead by its E.164 form.
    const e164 = phoneE164(text);
    q = q.where((eb) =>
      eb.or([
        eb('name', 'ilike', pattern),
        eb('company_name', 'ilike', pattern),
        eb('email', 'ilike', pattern),
        eb('phone', 'ilike', pattern),
        eb('phone_e164', 'ilike', pattern),
        ...(e164 ? [eb('phone_e164', '=', e164)] : []),
      ]),
    );
  }
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(rows.map(toLead), total, p);
}
