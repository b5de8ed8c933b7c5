// The events outbox: emit() writes the event in the caller's transaction, and with it a
// delivery (and its first attempt's job) for every webhook subscribed to the type, so an
// event and its deliveries exist exactly when the change they announce committed.
import type { TenantCtx } from '../http/context.ts';
import { queueDeliveries, subscribers } from './deliveries.ts';

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
  const webhooks = await subscribers(ctx.db, ctx.tenantId, type);
  if (webhooks.length) await queueDeliveries(ctx.deps, ctx.db, ctx.tenantId, { id, type }, webhooks);
  return { id, type, companyId, data };
}
