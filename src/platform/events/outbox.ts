// The events outbox: emit() writes the event in the caller's transaction, so an event
// exists exactly when the change it announces committed. Delivery reads this table.
import type { TenantCtx } from '../http/context.ts';

export interface EmittedEvent {
  id: string;
  type: string;
  companyId: string | null;
  data: unknown;
}

export async function emit(
  ctx: Pick<TenantCtx, 'db' | 'tenantId' | 'companyId'>,
  type: string,
  data: unknown,
  companyId: string | null = ctx.companyId ?? null,
): Promise<EmittedEvent> {
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('events')
    .values({ tenant_id: ctx.tenantId, id, company_id: companyId, type, data: JSON.stringify(data) })
    .execute();
  return { id, type, companyId, data };
}
