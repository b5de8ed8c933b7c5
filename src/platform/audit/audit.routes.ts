// GET /api/audit-log: who did what to which record, when; newest first. The entries are
// written by the route catalogue (every successful write) and by the sign-in routes.
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import type { TenantCtx } from '../http/context.ts';
import { stringEnum } from '../http/enums.ts';
import { nullable } from '../http/nullable.ts';
import { type Page, Paged, pageOf, pageQueryProperties, paging } from '../http/paging.ts';
import { badRequest } from '../http/problem.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import { sortOrder, syncQueryProperties } from '../http/sync.ts';

export const AuditQuery = Type.Object(
  {
    ...pageQueryProperties,
    // Entries never change, so `sort` alone: no updatedSince (from/to select by time).
    sort: syncQueryProperties(['createdAt'], '-createdAt').sort,
    from: Type.Optional(Type.String({ format: 'date', description: 'Entries on or after this day (UTC)' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Entries on or before this day (UTC)' })),
    actorId: Type.Optional(Uuid),
    resource: Type.Optional(
      Type.String({ maxLength: 100, description: 'Exact, e.g. user, role, companies' }),
    ),
    resourceId: Type.Optional(Type.String({ maxLength: 200 })),
    action: Type.Optional(
      Type.String({ maxLength: 200, description: 'Contains (any case), e.g. "PATCH" or "/api/users"' }),
    ),
    companyId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const AuditActorType = named(
  'AuditActorType',
  stringEnum(['user', 'api_key', 'system', 'anonymous'], {
    description:
      'Who acted: a person, an API key (or OAuth connection), the service itself, or nobody signed in',
  }),
);

export const AuditEntry = named(
  'AuditEntry',
  Type.Object({
    id: Uuid,
    createdAt: Type.String({ format: 'date-time', description: 'When it happened (entries never change)' }),
    occurredAt: Type.String({ format: 'date-time', description: 'The same as createdAt' }),
    actorType: AuditActorType,
    actorId: nullable(Uuid),
    action: Type.String({ description: 'The operation, e.g. "POST /api/roles"' }),
    resource: Type.String(),
    resourceId: nullable(Type.String()),
    companyId: nullable(Uuid),
    requestId: nullable(Type.String()),
    ip: nullable(Type.String()),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What was sent (params, body, status), secrets replaced by "[redacted]"',
    }),
  }),
);

type AuditItem = Static<typeof AuditEntry>;

const DAY_MS = 86_400_000;

function dayStart(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export async function listAuditLog(
  ctx: TenantCtx,
  query: Static<typeof AuditQuery>,
): Promise<Page<AuditItem>> {
  const p = paging(query);
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  let q = ctx.db.selectFrom('audit_log').where('tenant_id', '=', ctx.tenantId);
  if (query.from) q = q.where('occurred_at', '>=', dayStart(query.from));
  if (query.to) q = q.where('occurred_at', '<', new Date(dayStart(query.to).getTime() + DAY_MS));
  if (query.actorId) q = q.where('actor_id', '=', query.actorId);
  if (query.resource) q = q.where('resource', '=', query.resource);
  if (query.resourceId) q = q.where('resource_id', '=', query.resourceId);
  if (query.companyId) q = q.where('company_id', '=', query.companyId);
  if (query.action) {
    q = q.where('action', 'ilike', `%${query.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const { direction } = sortOrder<'createdAt'>(query.sort, '-createdAt');
  const rows = await q
    .selectAll()
    .orderBy('occurred_at', direction)
    // Entries of one transaction share a timestamp; later insert order is not recoverable
    // from a random id, so ties fall back to a stable (if arbitrary) order: the id, the same way.
    .orderBy(sql`id`, direction)
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  const items = rows.map((r) => ({
    id: r.id,
    createdAt: r.occurred_at.toISOString(),
    occurredAt: r.occurred_at.toISOString(),
    actorType: r.actor_type as Static<typeof AuditActorType>,
    actorId: r.actor_id,
    action: r.action,
    resource: r.resource,
    resourceId: r.resource_id,
    companyId: r.company_id,
    requestId: r.request_id,
    ip: r.ip,
    details: (r.details ?? {}) as Record<string, unknown>,
  }));
  return pageOf(items, Number(count.n), p);
}

export const auditRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/audit-log',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    operationId: 'listAuditLog',
    tag: 'Audit log',
    summary: 'The audit log, newest first (paged)',
    description:
      'Every successful change made through the API is recorded with who made it, the operation, the record ' +
      'and company it touched, the request id and address, and what was sent, secrets redacted. Filters: ' +
      '`from`/`to` (days, UTC, inclusive; unparseable → 400), `actorId`, `resource`, `resourceId`, ' +
      '`action` (contains) and `companyId`. `sort`: `-createdAt` (default, newest first) or `createdAt`; ' +
      'ties by id the same way.',
    query: AuditQuery,
    response: { 200: Paged(AuditEntry) },
    handler: async ({ query }, ctx) => listAuditLog(ctx, query),
  }),
];
