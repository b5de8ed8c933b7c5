// The events dispatcher's one pass (issue 15, "Events that cost little"): makes the deliveries
// of events that committed without them (dispatched_at IS NULL, migration 0035). emit() writes
// the event row only; this runs after its commit (dispatcher.ts says when).
import { sql } from 'kysely';
import { withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import { queueDeliveriesOf, subscribers } from './deliveries.ts';

const BATCH = 500;

export interface Dispatched {
  /** Events marked dispatched. */
  events: number;
  /** Deliveries made for them (each with its first attempt queued). */
  deliveries: number;
}

/**
 * Dispatches every pending event, oldest first, in batches. Safe with any number of
 * dispatchers: the UPDATE ... WHERE dispatched_at IS NULL locks each event, so exactly one
 * of them makes its deliveries (a second waits for the first to commit, then skips the row).
 */
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
      const done = await withTenant(deps.database.db, tenantId, async (tx) => {
        const claimed = await tx
          .updateTable('events')
          .set({ dispatched_at: sql`now()` })
          .where('id', '=', sql<string>`any(${ids}::uuid[])`)
          .where('dispatched_at', 'is', null)
          .returning(['id', 'type'])
          .execute();
        // The subscribers once per type in the batch, then every delivery in two statements.
        const byType = new Map<string, string[]>();
        for (const type of new Set(claimed.map((e) => e.type)))
          byType.set(type, await subscribers(tx, tenantId, type));
        const made = await queueDeliveriesOf(
          deps,
          tx,
          tenantId,
          claimed.map((event) => ({ event, webhookIds: byType.get(event.type) ?? [] })),
        );
        return { events: claimed.length, deliveries: made.length };
      });
      total.events += done.events;
      total.deliveries += done.deliveries;
    }
  }
}
