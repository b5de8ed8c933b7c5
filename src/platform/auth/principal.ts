// Who is calling: read fresh on every request, so that a revoked session, a deactivated
// user or a changed role takes effect on the next request rather than at token expiry.
import { isUuid } from '../db/tenant.ts';
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

// Built-in roles never change while the process runs: one set each, built on first use.
const builtInSets = new Map<string, PermissionSet>();

export function permissionsOfRole(role: string, customPermissions: string[] | null): PermissionSet {
  if (isBuiltInRole(role)) {
    let set = builtInSets.get(role);
    if (!set) {
      set = new PermissionSet(builtInRole(role).permissions);
      builtInSets.set(role, set);
    }
    return set;
  }
  return new PermissionSet(customPermissions ?? []);
}

export interface PrincipalRow {
  email: string;
  name: string;
  role: string;
  active: boolean;
  revoked_at: Date | null;
  expires_at: Date;
  permissions: string[] | null;
  /** present when a company was asked about: does it exist in the tenant */
  company_ok?: boolean;
}

/**
 * The principal's SQL, to ride in the transaction's opening round trip (see
 * withTenantOpening). Values are inlined, so each is checked to be a UUID first.
 */
export function principalQuery(claims: AccessClaims, companyId?: string): string {
  for (const id of [claims.tid, claims.sid, claims.sub, ...(companyId ? [companyId] : [])]) {
    if (!isUuid(id)) throw unauthorized('The token is not valid');
  }
  // bp_request_principal (migration 0003) keeps its plan per connection.
  const company = companyId ? `'${companyId}'` : 'null';
  return `select * from bp_request_principal('${claims.tid}', '${claims.sid}', '${claims.sub}', ${company})`;
}

export function principalFromRow(
  row: PrincipalRow | undefined,
  claims: AccessClaims,
  now: Date,
): UserPrincipal {
  if (!row || row.revoked_at || !row.active || row.expires_at.getTime() <= now.getTime()) {
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
