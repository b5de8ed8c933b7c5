// The events outbox: emit() writes the event in the caller's transaction, one statement and
// nothing else. Its deliveries (and their jobs) are made after that transaction commits, by
// the dispatcher (dispatch.ts, dispatcher.ts), for the webhooks subscribed at that moment; an
// event exists exactly when the change it announces committed, and is dispatched exactly once.
import { afterCommit } from '../db/tenant.ts';
import type { TenantCtx } from '../http/context.ts';

/**
 * The data of each event type, by type. Empty here: each module adds its own events from its
 * declarations (`<module>.events.ts`: `declare module` merging EventDataOf<its events>), so the
 * platform names no module while emit() accepts only a declared type, with data of its shape.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface EventData {}

export interface EmittedEvent {
  id: string;
  type: string;
  companyId: string | null;
  data: unknown;
}

type EmitCtx = Pick<TenantCtx, 'db' | 'tenantId' | 'companyId' | 'deps'>;

/** Emits a declared event: the compiler holds `data` to the shape its module declared. */
export function emit<K extends keyof EventData & string>(
  ctx: EmitCtx,
  type: K,
  data: EventData[K],
  companyId: string | null = ctx.companyId ?? null,
): Promise<EmittedEvent> {
  return emitUnchecked(ctx, type, data, companyId);
}

/** The outbox's statement for any type and data: emit() for modules; this for the outbox's own tests. */
export async function emitUnchecked(
  ctx: EmitCtx,
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
