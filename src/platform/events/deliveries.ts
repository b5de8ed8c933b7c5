// From an event to its deliveries: one per live webhook subscribed to its type when the event
// is dispatched (dispatch.ts, after the event's commit), each with its first attempt queued in
// the same transaction that marks the event dispatched (so it is made exactly once).
import type { Tx } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';

/** The job queue of webhook attempts; its data names the tenant and the delivery. */
export const DELIVER_QUEUE = 'webhook-deliver';

export interface DeliverJob {
  tenantId: string;
  deliveryId: string;
}

/** A pending delivery of each event to each of its webhooks, the first attempts queued in `tx`. */
export async function queueDeliveriesOf(
  deps: Pick<AppDeps, 'jobs'>,
  tx: Tx,
  tenantId: string,
  wanted: Array<{ event: { id: string; type: string }; webhookIds: string[] }>,
): Promise<string[]> {
  const rows = wanted.flatMap(({ event, webhookIds }) =>
    webhookIds.map((webhookId) => ({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      webhook_id: webhookId,
      event_id: event.id,
      event_type: event.type,
      last_response_status: null,
      last_error: null,
      finished_at: null,
    })),
  );
  if (!rows.length) return [];
  // Two statements whatever the number: the rows, then their jobs.
  await tx.insertInto('webhook_deliveries').values(rows).execute();
  await deps.jobs.sendManyInTx(
    tx,
    DELIVER_QUEUE,
    rows.map((r) => ({ tenantId, deliveryId: r.id }) satisfies DeliverJob),
  );
  return rows.map((r) => r.id);
}

/** A pending delivery of one event to each webhook, its first attempt queued in `tx`. */
export function queueDeliveries(
  deps: Pick<AppDeps, 'jobs'>,
  tx: Tx,
  tenantId: string,
  event: { id: string; type: string },
  webhookIds: string[],
): Promise<string[]> {
  return queueDeliveriesOf(deps, tx, tenantId, [{ event, webhookIds }]);
}
