// What claims and mileage trips share: the company of the request, the claimant (an EMPLOYEE
// contact), who made it, and today's date.

import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';

/** The claimant: a live EMPLOYEE contact of the tenant (none, or another tenant's: 404). */
export async function assertEmployee(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  contactId: string,
): Promise<void> {
  const c = await ctx.db
    .selectFrom('contacts')
    .select(['name', 'contact_type'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!c) throw notFound('Contact');
  if (c.contact_type !== 'EMPLOYEE')
    throw badRequest('contactId', `${c.name} is a ${c.contact_type.toLowerCase()}, not an employee`);
}

/** The user who made it (a user, or the owner of a user's API key); null for a business key. */
export function makerOf(ctx: Pick<TenantCtx, 'principal'>): string | null {
  return ctx.principal.userId;
}
