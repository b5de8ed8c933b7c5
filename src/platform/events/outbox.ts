// The events outbox: emit() writes the event in the caller's transaction, and with it a
// delivery (and its first attempt's job) for every webhook subscribed to the type, so an
// event and its deliveries exist exactly when the change they announce committed.
//
// One round trip when nothing subscribes (the usual case, and the one a create pays for on
// every document): the insert of the event and the look-up of its subscribers are one
// statement. Deliveries, when there are subscribers, follow.
import { sql } from 'kysely';
import type { TenantCtx } from '../http/context.ts';
import { queueDeliveries } from './deliveries.ts';

export interface EmittedEvent {
  id: string;
  type: string;
  companyId: string | null;
  data: unknown;
}

export async function emit(
  ctx: Pick<TenantCtx, 'db' | 'tenantId' | 'companyId' | 'deps'>,
  type: string,
  data: unknown,
  companyId: string | null = ctx.companyId ?? null,
): Promise<EmittedEvent> {
  const id = crypto.randomUUID();
  // PostgreSQL runs a data-modifying WITH exactly once, whether or not the query reads it: the
  // event is written even when no webhook subscribes. The subscribers: the webhooks that
  // receive `type` now, on, not deleted, and their key (if any) not revoked.
  const rows = await ctx.db
    .with('event', (db) =>
      db
        .insertInto('events')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyId,
          type,
          data: JSON.stringify(data),
          // Deliveries are still made here, in the caller's transaction (migration 0035's
          // after-commit dispatcher is not wired yet): the event is dispatched as it is written.
          dispatched_at: sql`now()`,
        })
        .returning('id'),
    )
    .selectFrom('webhooks as w')
    .leftJoin('api_keys as k', (j) =>
      j.onRef('k.tenant_id', '=', 'w.tenant_id').onRef('k.id', '=', 'w.created_by_key_id'),
    )
    .select('w.id')
    .where('w.tenant_id', '=', ctx.tenantId)
    .where('w.deleted_at', 'is', null)
    .where('w.enabled', '=', true)
    .where((eb) => eb(eb.val(type), '=', eb.fn.any('w.event_types')))
    .where((eb) => eb.or([eb('w.created_by_key_id', 'is', null), eb('k.revoked_at', 'is', null)]))
    .execute();
  const webhooks = rows.map((r) => r.id);
  if (webhooks.length) await queueDeliveries(ctx.deps, ctx.db, ctx.tenantId, { id, type }, webhooks);
  return { id, type, companyId, data };
}
