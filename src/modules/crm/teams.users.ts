// Users named by the CRM (an opportunity's owner, a team's members, a target's person): each
// must be a user of the tenant, else a 400 naming the field.
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';

/** The ids, lower-cased and each kept once, all users of the tenant (400 naming the first that is not). */
export async function assertUsers(tx: Tx, tenantId: string, ids: string[], field: string): Promise<string[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  const found = await tx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', wanted)
    .execute();
  const known = new Set(found.map((u) => u.id));
  const missing = ids.findIndex((id) => !known.has(id.toLowerCase()));
  if (missing >= 0)
    throw badRequest(
      ids.length > 1 || field.endsWith('Ids') ? `${field}[${missing}]` : field,
      'no such user',
    );
  return wanted;
}
