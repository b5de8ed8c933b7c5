// The events dispatcher's passes (issue 15, "Events that cost little"): makes the deliveries of
// events that committed without them (dispatched_at IS NULL, migration 0035). emit() writes the
// event row only; these run after its commit (dispatcher.ts says when).
import { sql } from 'kysely';
import { type Tx, withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import { DELIVER_QUEUE, type DeliverJob } from './deliveries.ts';

const BATCH = 500;

export interface Dispatched {
  /** Events marked dispatched. */
  events: number;
  /** Deliveries made for them (each with its first attempt queued). */
  deliveries: number;
}

/**
 * Claims these pending events of one tenant and makes their deliveries, in one statement, then
 * queues the deliveries' first attempts in one more. The UPDATE ... WHERE dispatched_at IS NULL
 * locks each event: with any number of dispatchers, exactly one makes its deliveries (a second
 * waits for the first to commit, then skips the row). A delivery goes to every webhook that
 * receives the type now: on, not deleted, and its key (if any) not revoked.
 */
async function claimAndQueue(
  deps: Pick<AppDeps, 'jobs'>,
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<Dispatched> {
  const { rows } = await sql<{ events: number; deliveries: string[] }>`
    with claimed as (
      update events set dispatched_at = now()
       where tenant_id = ${tenantId} and id = any(${ids}::uuid[]) and dispatched_at is null
      returning id, type, created_at
    ), made as (
      insert into webhook_deliveries (tenant_id, id, webhook_id, event_id, event_type)
      select ${tenantId}, gen_random_uuid(), w.id, c.id, c.type
        from claimed c
        join webhooks w on w.tenant_id = ${tenantId} and c.type = any(w.event_types)
        left join api_keys k on k.tenant_id = w.tenant_id and k.id = w.created_by_key_id
       where w.deleted_at is null and w.enabled and (w.created_by_key_id is null or k.revoked_at is null)
       order by c.created_at
      returning id
    )
    select (select count(*) from claimed)::int as events,
           coalesce((select array_agg(id) from made), '{}') as deliveries`.execute(tx);
  const { events, deliveries } = rows[0]!;
  await deps.jobs.sendManyInTx(
    tx,
    DELIVER_QUEUE,
    deliveries.map((deliveryId) => ({ tenantId, deliveryId }) satisfies DeliverJob),
  );
  return { events, deliveries: deliveries.length };
}

/** Dispatches these events of one tenant (those still pending): the emitting process's pass. */
export function dispatchEvents(
  deps: Pick<AppDeps, 'database' | 'jobs'>,
  tenantId: string,
  ids: string[],
): Promise<Dispatched> {
  return withTenant(deps.database.db, tenantId, (tx) => claimAndQueue(deps, tx, tenantId, ids));
}

/** Dispatches every pending event of every tenant, oldest first, in batches: the sweep. */
export async function dispatchPending(deps: Pick<AppDeps, 'database' | 'jobs'>): Promise<Dispatched> {
  const total: Dispatched = { events: 0, deliveries: 0 };
  for (;;) {
    // The login role sees pending events of every tenant only with this setting on (0035's policy).
    const pending = await deps.database.db.transaction().execute(async (tx) => {
      await sql`select set_config('app.event_dispatch', 'on', true)`.execute(tx);
      return tx
        .selectFrom('events')
        .select(['tenant_id', 'id'])
        .where('dispatched_at', 'is', null)
        .orderBy('created_at')
        .limit(BATCH)
        .execute();
    });
    if (!pending.length) return total;
    const byTenant = new Map<string, string[]>();
    for (const e of pending) byTenant.set(e.tenant_id, [...(byTenant.get(e.tenant_id) ?? []), e.id]);
    for (const [tenantId, ids] of byTenant) {
      const done = await dispatchEvents(deps, tenantId, ids);
      total.events += done.events;
      total.deliveries += done.deliveries;
    }
  }
}
