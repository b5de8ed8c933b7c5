// The events outbox: emit() writes the event in the caller's transaction, one statement and
// nothing else. Its deliveries (and their jobs) are made after that transaction commits, by
// the dispatcher (dispatch.ts, dispatcher.ts), for the webhooks subscribed at that moment; an
// event exists exactly when the change it announces committed, and is dispatched exactly once.
import { afterCommit } from '../db/tenant.ts';
import type { TenantCtx } from '../http/context.ts';

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
  await ctx.db
    .insertInto('events')
    .values({ tenant_id: ctx.tenantId, id, company_id: companyId, type, data: JSON.stringify(data) })
    .execute();
  afterCommit(ctx.db, () => ctx.deps.events.kick(ctx.tenantId, id));
  return { id, type, companyId, data };
}
