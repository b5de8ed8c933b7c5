// Roles: the eight built-in ones (fixed, defined in permissions.ts) and a tenant's custom
// ones (rows in `roles`). A user's `role` column holds a built-in name or a custom role id,
// and the principal is re-read on every request, so a change here applies at the next call.
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { RolesTable } from '../db/schema.ts';
import type { Tx } from '../db/tenant.ts';
import type { TenantCtx } from '../http/context.ts';
import { createIdempotent, idFor } from '../http/idempotent.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/problem.ts';
import {
  type Action,
  BUILT_IN_ROLES,
  builtInRole,
  isBuiltInRole,
  isPermission,
  type Resource,
} from './permissions.ts';
import type { RoleCreate, RoleUpdate } from './roles.schemas.ts';

export interface Role {
  id: string;
  name: string;
  builtIn: boolean;
  description: string | null;
  permissions: string[];
  createdAt?: string;
  updatedAt?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function builtInView(name: (typeof BUILT_IN_ROLES)[number]): Role {
  const def = builtInRole(name);
  return { id: name, name, builtIn: true, description: def.description, permissions: [...def.permissions] };
}

function customView(row: Selectable<RolesTable>): Role {
  return {
    id: row.id,
    name: row.name,
    builtIn: false,
    description: row.description,
    permissions: [...row.permissions].sort(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * A live custom role. With `lock`, its row is locked for the rest of the transaction: an
 * assignment and a delete of the same role then run one after the other, and the later one
 * sees what the earlier one did (a row deleted meanwhile no longer matches).
 */
function findCustomRole(tx: Tx, tenantId: string, id: string, lock = false) {
  const q = tx
    .selectFrom('roles')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .where('deleted_at', 'is', null);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * A role reference as users send it (built-in name or custom role UUID) resolved within
 * the tenant; undefined when there is no such live role. Lock it when assigning it.
 */
export async function resolveRole(
  tx: Tx,
  tenantId: string,
  ref: string,
  options: { lock?: boolean } = {},
): Promise<Role | undefined> {
  if (isBuiltInRole(ref)) return builtInView(ref);
  if (!UUID.test(ref)) return undefined;
  const row = await findCustomRole(tx, tenantId, ref, options.lock);
  return row ? customView(row) : undefined;
}

/**
 * Nobody hands out more than they hold: without this, a custom role with admin:manage
 * could make itself a role with every permission. (Owners and admins hold everything.)
 */
export function assertCallerHolds(
  ctx: TenantCtx,
  permissions: readonly string[],
  what: (i: number) => string,
) {
  permissions.forEach((p, i) => {
    const [resource, action] = p.split(':') as [Resource, Action];
    if (!ctx.principal.permissions.allows(resource, action)) {
      throw forbidden(
        `${what(i)}: you cannot grant ${p}, which you do not hold yourself`,
        'PERMISSION_NOT_HELD',
      );
    }
  });
}

/** Each entry must be one of ALL_PERMISSIONS and held by the caller; answers them de-duplicated and sorted. */
function checkPermissions(ctx: TenantCtx, permissions: string[]): string[] {
  permissions.forEach((p, i) => {
    if (!isPermission(p)) {
      throw badRequest(
        `permissions[${i}]`,
        `"${p}" is not a permission; use resource:action, e.g. invoices:write`,
      );
    }
  });
  assertCallerHolds(ctx, permissions, (i) => `permissions[${i}]`);
  return [...new Set(permissions)].sort();
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  return name;
}

/** Names are unique per tenant regardless of case, and may not reuse a built-in role's name. */
async function assertNameFree(ctx: TenantCtx, name: string, exceptId?: string) {
  if (isBuiltInRole(name.toLowerCase())) {
    throw conflict(`"${name}" is the name of a built-in role; choose another name`);
  }
  let q = ctx.db
    .selectFrom('roles')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('deleted_at', 'is', null);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw conflict(`A role named "${name}" already exists`);
}

export async function listRoles(ctx: TenantCtx): Promise<Role[]> {
  const rows = await ctx.db
    .selectFrom('roles')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
  return [...BUILT_IN_ROLES.map(builtInView), ...rows.map(customView)];
}

export async function getRole(ctx: TenantCtx, id: string): Promise<Role> {
  const role = await resolveRole(ctx.db, ctx.tenantId, id);
  if (!role) throw notFound('Role');
  return role;
}

export async function createRole(ctx: TenantCtx, input: Static<typeof RoleCreate>): Promise<Role> {
  const name = checkName(input.name);
  const permissions = checkPermissions(ctx, input.permissions);
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      const existing = await ctx.db
        .selectFrom('roles')
        .select('deleted_at')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (existing?.deleted_at) throw conflict('clientId names a role that has been deleted');
      if (existing) return false;
      await assertNameFree(ctx, name);
      // Any conflict (the id from a concurrent replay, or the name from a concurrent create)
      // leaves no row; which one it was is told apart below.
      const r = await ctx.db
        .insertInto('roles')
        .values({
          tenant_id: ctx.tenantId,
          id,
          name,
          description: input.description ?? null,
          permissions,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows) === 1) return true;
      if (await findCustomRole(ctx.db, ctx.tenantId, id)) return false;
      throw conflict(`A role named "${name}" already exists`);
    },
    load: (id) => getRole(ctx, id),
  });
}

function refuseBuiltIn(id: string) {
  if (isBuiltInRole(id)) {
    throw conflict(
      `"${id}" is a built-in role and cannot be changed or deleted; create a custom role instead`,
    );
  }
}

export async function updateRole(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof RoleUpdate>,
): Promise<Role> {
  refuseBuiltIn(id);
  const row = await findCustomRole(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Role');
  const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
  if (input.name !== undefined) {
    const name = checkName(input.name);
    if (name.toLowerCase() !== row.name.toLowerCase()) await assertNameFree(ctx, name, row.id);
    set.name = name;
  }
  if (input.description !== undefined) set.description = input.description;
  if (input.permissions !== undefined) set.permissions = checkPermissions(ctx, input.permissions);
  await ctx.db
    .updateTable('roles')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  return getRole(ctx, row.id);
}

/** Soft delete; refused while an active user holds the role (they would be left with no rights). */
export async function deleteRole(ctx: TenantCtx, id: string): Promise<void> {
  refuseBuiltIn(id);
  // Locked, so that no user can be given the role between the count and the delete.
  const row = await findCustomRole(ctx.db, ctx.tenantId, id, true);
  if (!row) throw notFound('Role');
  const held = await ctx.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', ctx.tenantId)
    .where('role', '=', row.id)
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  const n = Number(held.n);
  if (n > 0) {
    throw conflict(
      `The role is held by ${n} active ${n === 1 ? 'user' : 'users'}; give them another role first`,
      { activeUsers: n },
    );
  }
  await ctx.db
    .updateTable('roles')
    .set({ deleted_at: ctx.deps.now(), updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
}
