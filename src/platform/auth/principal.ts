// Who is calling: read fresh on every request, so that a revoked session, a deactivated
// user or a changed role takes effect on the next request rather than at token expiry.
import { sql } from 'kysely';
import type { Tx } from '../db/tenant.ts';
import { unauthorized } from '../http/problem.ts';
import { builtInRole, isBuiltInRole, PermissionSet } from './permissions.ts';
import type { AccessClaims } from './tokens.ts';

export interface UserPrincipal {
  type: 'user';
  userId: string;
  sessionId: string;
  email: string;
  name: string;
  /** built-in role name or custom role id */
  role: string;
  permissions: PermissionSet;
}

export type Principal = UserPrincipal;

export function permissionsOfRole(role: string, customPermissions: string[] | null): PermissionSet {
  if (isBuiltInRole(role)) return new PermissionSet(builtInRole(role).permissions);
  return new PermissionSet(customPermissions ?? []);
}

export async function loadUserPrincipal(tx: Tx, claims: AccessClaims): Promise<UserPrincipal> {
  const row = await tx
    .selectFrom('sessions as s')
    .innerJoin('users as u', (j) =>
      j.onRef('u.tenant_id', '=', 's.tenant_id').onRef('u.id', '=', 's.user_id'),
    )
    .leftJoin('roles as r', (j) =>
      j
        .onRef('r.tenant_id', '=', 'u.tenant_id')
        .on(sql`r.id::text`, '=', sql.ref('u.role'))
        .on('r.deleted_at', 'is', null),
    )
    .select(['u.email', 'u.name', 'u.role', 'u.active', 's.revoked_at', 's.expires_at', 'r.permissions'])
    .where('s.tenant_id', '=', claims.tid)
    .where('s.id', '=', claims.sid)
    .where('s.user_id', '=', claims.sub)
    .executeTakeFirst();
  if (!row || row.revoked_at || !row.active || row.expires_at.getTime() <= Date.now()) {
    throw unauthorized('The token is no longer valid; sign in again');
  }
  return {
    type: 'user',
    userId: claims.sub,
    sessionId: claims.sid,
    email: row.email,
    name: row.name,
    role: row.role,
    permissions: permissionsOfRole(row.role, row.permissions),
  };
}
