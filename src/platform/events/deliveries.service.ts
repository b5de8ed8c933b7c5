// What the API shows and does with deliveries: every attempt of a webhook (paged, newest
// first), a redelivery of a finished delivery under the same webhook-id, and a signed
// webhook.test event to one webhook.
import type { Static } from 'typebox';
import type { TenantCtx } from '../http/context.ts';
import { type Page, pageOf, paging } from '../http/paging.ts';
import { conflict, notFound } from '../http/problem.ts';
import type { AttemptListQuery } from './deliveries.schemas.ts';
import { DELIVER_QUEUE, queueDeliveries } from './deliveries.ts';
import { TEST_EVENT_TYPE } from './event-types.ts';

export interface AttemptView {
  id: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  deliveryStatus: 'pending' | 'succeeded' | 'failed' | 'cancelled';
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

export async function listAttempts(
  ctx: TenantCtx,
  webhookId: string,
  query: Static<typeof AttemptListQuery>,
): Promise<Page<AttemptView>> {
  await liveWebhook(ctx, webhookId);
  const p = paging(query);
  let base = ctx.db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', (j) =>
      j.onRef('d.tenant_id', '=', 'a.tenant_id').onRef('d.id', '=', 'a.delivery_id'),
    )
    .where('a.tenant_id', '=', ctx.tenantId)
    .where('a.webhook_id', '=', webhookId);
  if (query.deliveryId) base = base.where('a.delivery_id', '=', query.deliveryId);
  if (query.eventId) base = base.where('a.event_id', '=', query.eventId);
  const [rows, count] = await Promise.all([
    base
      .select([
        'a.id',
        'a.delivery_id',
        'a.event_id',
        'd.event_type',
        'a.attempt',
        'a.attempted_at',
        'a.duration_ms',
        'a.response_status',
        'a.error',
        'a.response_excerpt',
        'd.status',
      ])
      .orderBy('a.attempted_at', 'desc')
      .orderBy('a.attempt', 'desc')
      .limit(p.limit)
      .offset(p.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((r) => ({
    id: r.id,
    deliveryId: r.delivery_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: r.attempt,
    attemptedAt: r.attempted_at.toISOString(),
    durationMs: r.duration_ms,
    responseStatus: r.response_status,
    error: r.error,
    responseExcerpt: r.response_excerpt,
    deliveryStatus: r.status,
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
