// Webhook subscriptions: add (the signing secret answered once), list, get, change, switch
// on or off, delete (softly). Who may receive an event is checked at every change: a
// person must be allowed to view its module, a key must also hold the module's read scope,
// and the plan must include the module.
import { randomBytes } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import { assertModuleLicensed, assertPlanHasWebhooks, assertScope } from '../auth/limits.ts';
import type { WebhooksTable } from '../db/schema.ts';
import type { TenantCtx } from '../http/context.ts';
import { badRequest, notFound, PermissionDenied } from '../http/problem.ts';
import type { EventRegistry } from './event-types.ts';
import { checkWebhookUrl } from './webhook-target.ts';
import type { WebhookSchemas } from './webhooks.schemas.ts';

export interface WebhookView {
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: 'manual' | 'failing' | null;
  consecutiveFailures: number;
  createdBy: { type: 'user' | 'api_key'; id: string };
  createdAt: string;
  updatedAt: string;
}

function toView(row: Selectable<WebhooksTable>): WebhookView {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
    createdBy: { type: row.created_by_type, id: row.created_by_key_id ?? row.created_by },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A new Standard Webhooks signing secret: whsec_ and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The event types, each known and receivable by the caller; duplicates dropped. */
function receivableTypes(ctx: TenantCtx, events: EventRegistry, types: string[]): string[] {
  types.forEach((type, i) => {
    const info = events.info(type);
    if (!info) {
      throw badRequest(
        `eventTypes[${i}]`,
        `"${type}" is not an event type; one of: ${events.all.map((e) => e.type).join(', ')}`,
      );
    }
    assertModuleLicensed(ctx.principal.plan, info.module);
    if (ctx.principal.type === 'api_key') assertScope(ctx.principal.scopes, info.module, 'read');
    if (!ctx.principal.permissions.allows(info.module, 'read'))
      throw new PermissionDenied(info.module, 'read');
  });
  return [...new Set(types)];
}

async function checkedUrl(ctx: TenantCtx, url: string): Promise<string> {
  const verdict = await checkWebhookUrl(url, {
    allowPrivate: ctx.deps.config.webhookAllowPrivateTargets,
    ...(ctx.deps.resolveHost ? { resolve: ctx.deps.resolveHost } : {}),
  });
  if (!verdict.ok) throw badRequest('url', verdict.reason);
  return verdict.url;
}

export async function createWebhook(
  ctx: TenantCtx,
  events: EventRegistry,
  input: Static<WebhookSchemas['WebhookCreate']>,
): Promise<WebhookView & { secret: string }> {
  assertPlanHasWebhooks(ctx.principal.plan);
  const eventTypes = receivableTypes(ctx, events, input.eventTypes);
  const url = await checkedUrl(ctx, input.url);
  const secret = newSigningSecret();
  const byKey = ctx.principal.type === 'api_key';
  const row = await ctx.db
    .insertInto('webhooks')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      url,
      event_types: eventTypes,
      description: input.description ?? null,
      secret,
      disabled_reason: null,
      created_by_type: byKey ? 'api_key' : 'user',
      // A key's webhook belongs to the key; created_by still names a person where there is one.
      created_by:
        ctx.principal.type === 'api_key'
          ? (ctx.principal.userId ?? ctx.principal.keyId)
          : ctx.principal.userId,
      created_by_key_id: ctx.principal.type === 'api_key' ? ctx.principal.keyId : null,
      created_at: ctx.deps.now(),
      updated_at: ctx.deps.now(),
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toView(row), secret };
}

export async function listWebhooks(ctx: TenantCtx): Promise<WebhookView[]> {
  const rows = await ctx.db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toView);
}

async function findWebhook(ctx: TenantCtx, id: string, lock = false) {
  let q = ctx.db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

export async function getWebhook(ctx: TenantCtx, id: string): Promise<WebhookView> {
  return toView(await findWebhook(ctx, id));
}

export async function updateWebhook(
  ctx: TenantCtx,
  events: EventRegistry,
  id: string,
  input: Static<WebhookSchemas['WebhookUpdate']>,
): Promise<WebhookView> {
  await findWebhook(ctx, id, true);
  const changes: Updateable<WebhooksTable> = { updated_at: ctx.deps.now() };
  if (input.eventTypes !== undefined) changes.event_types = receivableTypes(ctx, events, input.eventTypes);
  if (input.url !== undefined) changes.url = await checkedUrl(ctx, input.url);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === true) {
    // Switching back on is the manual step the spec asks for; the failure count starts again.
    Object.assign(changes, { enabled: true, disabled_reason: null, consecutive_failures: 0 });
  } else if (input.enabled === false) {
    Object.assign(changes, { enabled: false, disabled_reason: 'manual' });
  }
  const row = await ctx.db
    .updateTable('webhooks')
    .set(changes)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toView(row);
}

/** Deletes softly: it stops sending at once and leaves the list; its deliveries stay as history. */
export async function deleteWebhook(ctx: TenantCtx, id: string): Promise<void> {
  await findWebhook(ctx, id, true);
  await ctx.db
    .updateTable('webhooks')
    .set({ deleted_at: ctx.deps.now(), updated_at: ctx.deps.now(), enabled: false })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}
