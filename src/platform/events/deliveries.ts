// From an event to its deliveries: one per live webhook subscribed to its type, each with
// its first attempt queued in the same transaction as the event (so a delivery exists
// exactly when the change it announces committed).
import type { Tx } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';

/** The job queue of webhook attempts; its data names the tenant and the delivery. */
export const DELIVER_QUEUE = 'webhook-deliver';

export interface DeliverJob {
  tenantId: string;
  deliveryId: string;
}

/** The webhooks that receive `type` now: on, not deleted, and their key (if any) not revoked. */
export async function subscribers(tx: Tx, tenantId: string, type: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('webhooks as w')
    .leftJoin('api_keys as k', (j) =>
      j.onRef('k.tenant_id', '=', 'w.tenant_id').onRef('k.id', '=', 'w.created_by_key_id'),
    )
    .select('w.id')
    .where('w.tenant_id', '=', tenantId)
    .where('w.deleted_at', 'is', null)
    .where('w.enabled', '=', true)
    .where((eb) => eb(eb.val(type), '=', eb.fn.any('w.event_types')))
    .where((eb) => eb.or([eb('w.created_by_key_id', 'is', null), eb('k.revoked_at', 'is', null)]))
    .execute();
  return rows.map((r) => r.id);
}

/** A pending delivery of `eventId` to each webhook, its first attempt queued in `tx`. */
export async function queueDeliveries(
  deps: Pick<AppDeps, 'jobs'>,
  tx: Tx,
  tenantId: string,
  event: { id: string; type: string },
  webhookIds: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const webhookId of webhookIds) {
    const id = crypto.randomUUID();
    await tx
      .insertInto('webhook_deliveries')
      .values({
        tenant_id: tenantId,
        id,
        webhook_id: webhookId,
        event_id: event.id,
        event_type: event.type,
        last_response_status: null,
        last_error: null,
        finished_at: null,
      })
      .execute();
    await deps.jobs.sendInTx(tx, DELIVER_QUEUE, { tenantId, deliveryId: id } satisfies DeliverJob);
    ids.push(id);
  }
  return ids;
}
