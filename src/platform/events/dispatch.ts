// The events dispatcher (issue 15, "Events that cost little"): makes the deliveries of events
// that committed without them (dispatched_at IS NULL, migration 0035), after their commit.
// NOT YET WIRED: emit() still makes deliveries in the caller's transaction and stamps
// dispatched_at itself, so today nothing is pending. The next step: emit() inserts the event
// only, and the job worker runs dispatchPending on an in-process kick, LISTEN and a sweep.
import { sql } from 'kysely';
import { withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import { queueDeliveries, subscribers } from './deliveries.ts';

const BATCH = 200;

/**
 * Dispatches every pending event, oldest first, in batches; answers how many it dispatched.
 * Safe with two dispatchers: the UPDATE ... WHERE dispatched_at IS NULL locks each event, so
 * exactly one of them makes its deliveries.
 */
export async function dispatchPending(deps: Pick<AppDeps, 'database' | 'jobs'>): Promise<number> {
  let total = 0;
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
      total += await withTenant(deps.database.db, tenantId, async (tx) => {
        const claimed = await tx
          .updateTable('events')
          .set({ dispatched_at: sql`now()` })
          .where('id', '=', sql<string>`any(${ids}::uuid[])`)
          .where('dispatched_at', 'is', null)
          .returning(['id', 'type'])
          .execute();
        for (const event of claimed) {
          const webhooks = await subscribers(tx, tenantId, event.type);
          if (webhooks.length) await queueDeliveries(deps, tx, tenantId, event, webhooks);
        }
        return claimed.length;
      });
    }
  }
}
