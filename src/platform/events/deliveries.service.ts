// What the API shows and does with deliveries: every attempt of a webhook (paged, newest
// first), a redelivery of a finished delivery under the same webhook-id, and a signed
// webhook.test event to one webhook.
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../http/context.ts';
import { type Page, pageOf, paging } from '../http/paging.ts';
import { conflict, notFound } from '../http/problem.ts';
import { sortOrder } from '../http/sync.ts';
import type { DeliveryListQuery } from './deliveries.schemas.ts';
import { DELIVER_QUEUE, queueDeliveries } from './deliveries.ts';
import { TEST_EVENT_TYPE } from './event-types.ts';

export interface AttemptView {
  attempt: number;
  attemptedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  attempts: AttemptView[];
}

async function liveWebhook(ctx: TenantCtx, id: string) {
  const row = await ctx.db
    .selectFrom('webhooks')
    .select(['id', 'enabled'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

/**
 * A delivery's last change, derived (the table keeps no updated_at): the latest of when it
 * was queued, its last attempt and when it finished. A redelivery puts it back to pending
 * without a timestamp of its own, so a sync sees that once its first new attempt is made
 * (at once, unless the queue is busy).
 */
const updatedAt = sql<Date>`greatest(d.created_at, d.finished_at, (
  select max(a.attempted_at) from webhook_attempts a
  where a.tenant_id = d.tenant_id and a.delivery_id = d.id))`;

export async function listDeliveries(
  ctx: TenantCtx,
  webhookId: string,
  query: Static<typeof DeliveryListQuery>,
): Promise<Page<DeliveryView>> {
  await liveWebhook(ctx, webhookId);
  const p = paging(query);
  const { direction } = sortOrder<'createdAt'>(query.sort, '-createdAt');
  let base = ctx.db
    .selectFrom('webhook_deliveries as d')
    .where('d.tenant_id', '=', ctx.tenantId)
    .where('d.webhook_id', '=', webhookId);
  if (query.eventId) base = base.where('d.event_id', '=', query.eventId);
  if (query.updatedSince) base = base.where(updatedAt, '>=', new Date(query.updatedSince));
  const [rows, count] = await Promise.all([
    base
      .selectAll('d')
      .select(updatedAt.as('updated_at'))
      .orderBy('d.created_at', direction)
      .orderBy('d.id', direction)
      .limit(p.limit)
      .offset(p.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await ctx.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('tenant_id', '=', ctx.tenantId)
        .where('delivery_id', 'in', ids)
        .orderBy('attempt')
        .execute()
    : [];
  const items = rows.map((d) => ({
    id: d.id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    createdAt: d.created_at.toISOString(),
    updatedAt: new Date(d.updated_at).toISOString(),
    finishedAt: d.finished_at?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({
        attempt: a.attempt,
        attemptedAt: a.attempted_at.toISOString(),
        durationMs: a.duration_ms,
        responseStatus: a.response_status,
        error: a.error,
        responseExcerpt: a.response_excerpt,
      })),
  }));
  return pageOf(items, Number(count.n), p);
}

/** Sends a finished delivery again: the same event, the same webhook-id, a fresh round of attempts. */
export async function redeliver(ctx: TenantCtx, webhookId: string, deliveryId: string) {
  const hook = await liveWebhook(ctx, webhookId);
  const delivery = await ctx.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst();
  if (!delivery) throw notFound('Delivery');
  if (delivery.status === 'pending')
    throw conflict('The delivery is still being attempted; redeliver it once it has finished');
  if (!hook.enabled) throw conflict('The webhook is switched off; switch it on to redeliver');
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', finished_at: null })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', deliveryId)
    .execute();
  await ctx.deps.jobs.sendInTx(ctx.db, DELIVER_QUEUE, { tenantId: ctx.tenantId, deliveryId });
  return { deliveryId, status: 'pending' as const };
}

/** A signed webhook.test event to this webhook alone (whatever its event types). */
export async function sendTest(ctx: TenantCtx, webhookId: string) {
  const hook = await liveWebhook(ctx, webhookId);
  if (!hook.enabled) throw conflict('The webhook is switched off; switch it on to test it');
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('events')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: null,
      type: TEST_EVENT_TYPE,
      data: JSON.stringify({ webhookId, message: 'A test event from Business Platform' }),
    })
    .execute();
  const [deliveryId] = await queueDeliveries(ctx.deps, ctx.db, ctx.tenantId, { id, type: TEST_EVENT_TYPE }, [
    webhookId,
  ]);
  return { eventId: id, deliveryId: deliveryId as string, status: 'pending' as const };
}
