// API keys: created with a role and scopes, answered in plaintext once, stored as a hash,
// revoked softly. The key is "bpk_live_<tenant id>.<key id>.<secret>" (a test key, made in
// the sandbox company's context, starts "bpk_test_"): the tenant id lets the lookup run in
// that tenant's transaction under row-level security, the key id makes it a primary-key read,
// and only SHA-256 of the secret is kept.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Plan } from '../../config.ts';
import type { ApiKeysTable } from '../db/schema.ts';
import { isUuid, type Tx } from '../db/tenant.ts';
import type { TenantCtx } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../http/problem.ts';
import type { ApiKeyCreate } from './api-keys.schemas.ts';
import { assertPlanHasApiKeys } from './limits.ts';
import { PLAN_TABLE } from './plans.ts';
import { DEFAULT_KEY_RATE_LIMIT, type KeyMode, signedInUser } from './principal.ts';
import { assertCallerHolds, resolveRole } from './roles.service.ts';
import { isScope } from './scopes.ts';
import { newIdSecret, parseIdSecret } from './tokens.ts';

/** The start of a live key, and of a test key (which acts on the sandbox company only). */
export const KEY_PREFIXES: Record<KeyMode, string> = { live: 'bpk_live_', test: 'bpk_test_' };
export const API_KEY_LIMIT_REACHED = 'API_KEY_LIMIT_REACHED';

export interface ApiKeyView {
  id: string;
  name: string;
  owner: 'user' | 'business';
  userId: string | null;
  roleId: string | null;
  scopes: string[];
  rateLimitPerMinute: number;
  contactId: string | null;
  mode: KeyMode;
  prefix: string;
  lastFour: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  kind: 'key' | 'oauth';
  oauthClientId: string | null;
}

function toView(row: Selectable<ApiKeysTable>): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner_type,
    userId: row.user_id,
    roleId: row.role,
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute ?? DEFAULT_KEY_RATE_LIMIT,
    contactId: row.contact_id,
    mode: row.mode,
    prefix: row.display_prefix,
    lastFour: row.last_four,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    kind: row.oauth_client_id ? 'oauth' : 'key',
    oauthClientId: row.oauth_client_id,
  };
}

/** A new key for this tenant and key id, and the hash of its secret to store. */
export function newApiKey(
  tenantId: string,
  keyId: string,
  mode: KeyMode = 'live',
): { key: string; hash: string } {
  const { value, hash } = newIdSecret(KEY_PREFIXES[mode], tenantId, keyId);
  return { key: value, hash };
}

/** Splits a presented key (its mode read from its prefix); undefined when it is not of our shape. */
export function parseApiKey(
  key: string,
): { tenantId: string; keyId: string; hash: string; mode: KeyMode } | undefined {
  for (const mode of ['live', 'test'] as const) {
    const parsed = parseIdSecret(KEY_PREFIXES[mode], key);
    if (parsed) return { tenantId: parsed.tenantId, keyId: parsed.id, hash: parsed.hash, mode };
  }
  return undefined;
}

function checkScopes(scopes: string[]): string[] {
  scopes.forEach((s, i) => {
    if (!isScope(s)) {
      throw badRequest(
        `scopes[${i}]`,
        `"${s}" is not a scope; see GET /api-scopes (e.g. invoices:read, full)`,
      );
    }
  });
  return [...new Set(scopes)].sort();
}

/**
 * The role a business key acts with: a live role of the tenant, holding nothing the caller lacks.
 * Without roleId, null: the key acts with its creator's role as it is at each call (the key
 * principal reads it then), so it never does more than the person who made it, even after
 * their role is narrowed.
 */
async function businessRole(ctx: TenantCtx, roleId: string | undefined): Promise<string | null> {
  if (roleId === undefined) return null;
  const role = await resolveRole(ctx.db, ctx.tenantId, roleId, { lock: true });
  if (!role) throw badRequest('roleId', 'no such role; use a built-in role name or the id of a custom role');
  if (role.id === 'owner' && ctx.principal.role !== 'owner') {
    throw forbidden('Only an owner may give a key the owner role', 'OWNER_REQUIRED');
  }
  assertCallerHolds(ctx, role.permissions, () => 'roleId');
  return role.id;
}

/** Locks the tenant row (two creates cannot both slip under the count) and checks the plan's count. */
export async function assertRoomForAKey(ctx: { db: Tx; tenantId: string }) {
  const tenant = await ctx.db
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', ctx.tenantId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const plan = tenant.plan as Plan;
  assertPlanHasApiKeys(plan);
  const allowed = PLAN_TABLE[plan].apiKeys;
  const live = await ctx.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', ctx.tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= allowed) {
    throw forbidden(
      `The ${plan} plan allows ${allowed} API keys; revoke one or upgrade to add another`,
      API_KEY_LIMIT_REACHED,
    );
  }
}

/**
 * The mode of a key made with this X-Company-Id (optional on POST /api/api-keys): test when it
 * names the sandbox company, live otherwise; a company outside the tenant is a 404.
 */
async function modeOfCompany(ctx: TenantCtx, header: string | string[] | undefined): Promise<KeyMode> {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return 'live';
  if (!isUuid(value)) throw badRequest('X-Company-Id', 'must be a company id (UUID)');
  const company = await ctx.db
    .selectFrom('companies')
    .select('is_sandbox')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', value.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!company) throw notFound('Company');
  return company.is_sandbox ? 'test' : 'live';
}

export async function createApiKey(
  ctx: TenantCtx,
  input: Static<typeof ApiKeyCreate>,
  companyHeader?: string | string[],
): Promise<ApiKeyView & { key: string }> {
  // Keys are made by people: a key that made keys could outlive what its maker may do.
  const creator = signedInUser(ctx);
  const name = input.name.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  const scopes = checkScopes(input.scopes);
  let role: string | null = null;
  if (input.owner === 'business') role = await businessRole(ctx, input.roleId);
  else if (input.roleId !== undefined) {
    throw badRequest(
      'roleId',
      "a user key acts with its owner's role; leave roleId out or make a business key",
    );
  }
  const mode = await modeOfCompany(ctx, companyHeader);
  // The contact the key is for is one of the tenant's: another tenant's id is a 404, as everywhere.
  if (input.contactId !== undefined && !(await ctx.deps.isContact(ctx.db, ctx.tenantId, input.contactId))) {
    throw notFound('Contact');
  }
  await assertRoomForAKey(ctx);
  const id = crypto.randomUUID();
  const { key, hash } = newApiKey(ctx.tenantId, id, mode);
  const row = await ctx.db
    .insertInto('api_keys')
    .values({
      tenant_id: ctx.tenantId,
      id,
      name,
      owner_type: input.owner,
      user_id: input.owner === 'user' ? creator.userId : null,
      role,
      created_by: creator.userId,
      scopes,
      rate_limit_per_minute: input.rateLimitPerMinute ?? null,
      contact_id: input.contactId ?? null,
      mode,
      display_prefix: KEY_PREFIXES[mode],
      last_four: key.slice(-4),
      secret_hash: hash,
      created_at: ctx.deps.now(),
      updated_at: ctx.deps.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toView(row), key };
}

export async function listApiKeys(ctx: TenantCtx): Promise<ApiKeyView[]> {
  const rows = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toView);
}

export async function getApiKey(ctx: TenantCtx, id: string): Promise<ApiKeyView> {
  const row = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('API key');
  return toView(row);
}

/** Revokes a key (idempotent: a second revocation keeps the first time). */
export async function revokeApiKey(ctx: TenantCtx, id: string): Promise<void> {
  await getApiKey(ctx, id);
  await ctx.db
    .updateTable('api_keys')
    .set({ revoked_at: ctx.deps.now(), revoked_by: ctx.principal.userId, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A deactivated person's own keys end with them (business keys they made do not). */
export async function revokeUserKeys(tx: Tx, tenantId: string, userId: string, now: Date): Promise<void> {
  await tx
    .updateTable('api_keys')
    .set({ revoked_at: now, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
