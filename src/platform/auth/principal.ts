// Who is calling: read fresh on every request, so that a revoked session, a deactivated
// user or a changed role takes effect on the next request rather than at token expiry.
import type { Plan } from '../../config.ts';
import { isUuid } from '../db/tenant.ts';
import { forbidden, unauthorized } from '../http/problem.ts';
import { builtInRole, isBuiltInRole, PermissionSet } from './permissions.ts';
import type { AccessClaims, KeyClaims } from './tokens.ts';

/** Requests with no `rateLimitPerMinute` of their own are metered at this rate (the spec's default). */
export const DEFAULT_KEY_RATE_LIMIT = 120;

export interface UserPrincipal {
  type: 'user';
  userId: string;
  sessionId: string;
  email: string;
  name: string;
  /** built-in role name or custom role id */
  role: string;
  permissions: PermissionSet;
  /** the tenant's plan, read with the principal */
  plan: Plan;
}

/** live: the key acts on every company; test (bpk_test_): on the sandbox company alone. */
export type KeyMode = 'live' | 'test';

/**
 * A token exchanged from an API key. A user key acts as its owner (userId, the owner's
 * current role); a business key acts with the role chosen at creation (userId null), or,
 * made without one, with its creator's role as it is at each call.
 */
export interface KeyPrincipal {
  type: 'api_key';
  keyId: string;
  ownerType: 'user' | 'business';
  userId: string | null;
  /** the key's name, where a person's name would appear (e.g. an invitation's sender) */
  name: string;
  role: string;
  permissions: PermissionSet;
  scopes: string[];
  rateLimitPerMinute: number;
  plan: Plan;
  mode: KeyMode;
}

export type Principal = UserPrincipal | KeyPrincipal;

/** The signed-in person of a personal route (sessions, two-factor, password): never a key. */
export function signedInUser(ctx: { principal: Principal }): UserPrincipal {
  if (ctx.principal.type !== 'user') throw keyNotAccepted();
  return ctx.principal;
}

export function keyNotAccepted() {
  return forbidden(
    "This route belongs to a signed-in person; an API key's token cannot use it",
    'USER_TOKEN_REQUIRED',
  );
}

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
  /** the company asked about is the tenant's sandbox (false when none was asked about) */
  company_is_sandbox?: boolean;
  plan: string;
}

/**
 * The principal's SQL, to ride in the transaction's opening round trip (see
 * withTenantOpening). Values are inlined, so each is checked to be a UUID first.
 */
export function principalQuery(claims: AccessClaims, companyId?: string): string {
  for (const id of [claims.tid, claims.sid, claims.sub, ...(companyId ? [companyId] : [])]) {
    if (!isUuid(id)) throw unauthorized('The token is not valid');
  }
  // bp_request_principal (migration 0015) keeps its plan per connection.
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
    plan: row.plan as Plan,
  };
}

export interface KeyPrincipalRow {
  name: string;
  owner_type: 'user' | 'business';
  user_id: string | null;
  acting_role: string | null;
  owner_active: boolean | null;
  scopes: string[];
  rate_limit_per_minute: number | null;
  revoked_at: Date | null;
  permissions: string[] | null;
  company_ok?: boolean;
  company_is_sandbox?: boolean;
  plan: string;
  mode: KeyMode;
}

/** The key principal's SQL for the opening round trip; values are checked UUIDs. */
export function keyPrincipalQuery(claims: KeyClaims, companyId?: string): string {
  for (const id of [claims.tid, claims.kid, ...(companyId ? [companyId] : [])]) {
    if (!isUuid(id)) throw unauthorized('The token is not valid');
  }
  const company = companyId ? `'${companyId}'` : 'null';
  return `select * from bp_request_key_principal('${claims.tid}', '${claims.kid}', ${company})`;
}

export function keyPrincipalFromRow(row: KeyPrincipalRow | undefined, claims: KeyClaims): KeyPrincipal {
  if (!row || row.revoked_at) throw unauthorized('The API key has been revoked');
  if (!row.owner_active || !row.acting_role) {
    throw unauthorized("The API key's owner has been deactivated");
  }
  return {
    type: 'api_key',
    keyId: claims.kid,
    ownerType: row.owner_type,
    userId: row.user_id,
    name: row.name,
    role: row.acting_role,
    permissions: permissionsOfRole(row.acting_role, row.permissions),
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute ?? DEFAULT_KEY_RATE_LIMIT,
    plan: row.plan as Plan,
    mode: row.mode,
  };
}
