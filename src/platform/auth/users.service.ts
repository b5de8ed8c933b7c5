// The people of a business: list, invite, change role, deactivate. The principal is read
// afresh on every request (principal.ts), so a role change or deactivation made here
// applies to that person's very next request.
import { sql } from 'kysely';
import type { Static } from 'typebox';
import { recordAudit } from '../audit/audit.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import type { PublicCtx, TenantCtx } from '../http/context.ts';
import { type Page, pageOf, paging } from '../http/paging.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/problem.ts';
import { sortOrder } from '../http/sync.ts';
import { sendMail } from '../mail/mailer.ts';
import { revokeUserKeys } from './api-keys.service.ts';
import { hashPassword, isSha256Hex } from './passwords.ts';
import { isBuiltInRole } from './permissions.ts';
import { assertCallerHolds, resolveRole } from './roles.service.ts';
import { type LoginResponse, revokeUserSessions, startSession } from './sessions.ts';
import { newOpaqueToken, parseOpaqueToken } from './tokens.ts';
import type { AcceptInvitationBody, UserCreate, UserListQuery, UserUpdate } from './users.schemas.ts';

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export interface User {
  id: string;
  email: string;
  name: string;
  role: string;
  roleName: string;
  active: boolean;
  invitationPending: boolean;
  twoFactorEnabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
}

/** Users with the name of their custom role (kept even when that role was deleted since). */
function selectUsers(tx: Tx, tenantId: string) {
  return tx
    .selectFrom('users as u')
    .leftJoin('roles as r', (j) =>
      j.onRef('r.tenant_id', '=', 'u.tenant_id').on(sql`r.id::text`, '=', sql.ref('u.role')),
    )
    .where('u.tenant_id', '=', tenantId);
}

const USER_COLUMNS = [
  'u.id',
  'u.email',
  'u.name',
  'u.role',
  'u.active',
  'u.password_hash',
  'u.totp_enabled',
  'u.last_login_at',
  'u.created_at',
  'u.updated_at',
  'u.deactivated_at',
  'r.name as custom_role_name',
] as const;

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  active: boolean;
  password_hash: string | null;
  totp_enabled: boolean;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deactivated_at: Date | null;
  custom_role_name: string | null;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    roleName: isBuiltInRole(row.role) ? row.role : (row.custom_role_name ?? row.role),
    active: row.active,
    invitationPending: row.password_hash === null,
    twoFactorEnabled: row.totp_enabled,
    lastLoginAt: row.last_login_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deactivatedAt: row.deactivated_at?.toISOString() ?? null,
  };
}

/** A LIKE pattern that matches `text` literally anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(ctx: TenantCtx, query: Static<typeof UserListQuery>): Promise<Page<User>> {
  const p = paging(query);
  let q = selectUsers(ctx.db, ctx.tenantId);
  const text = query.q?.trim();
  if (text) {
    const pattern = containsPattern(text);
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
  }
  if (query.role !== undefined) q = q.where('u.role', '=', query.role.toLowerCase());
  if (query.isActive !== undefined && query.active !== undefined && query.isActive !== query.active)
    throw badRequest(
      'active',
      'says the opposite of isActive (active is its deprecated name): send isActive alone',
    );
  const active = query.isActive ?? query.active;
  if (active !== undefined) q = q.where('u.active', '=', active);
  if (query.updatedSince !== undefined) q = q.where('u.updated_at', '>=', new Date(query.updatedSince));
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = q.select(USER_COLUMNS);
  if (query.sort) {
    // A sync's order: by a timestamp, ties by id in the same direction.
    const { key, direction } = sortOrder<'createdAt' | 'updatedAt'>(query.sort, query.sort);
    rows = rows
      .orderBy(key === 'createdAt' ? 'u.created_at' : 'u.updated_at', direction)
      .orderBy('u.id', direction);
  } else {
    rows = rows.orderBy(sql`lower(u.name)`).orderBy('u.email').orderBy('u.id');
  }
  const page = await rows.limit(p.limit).offset(p.offset).execute();
  return pageOf(page.map(toUser), Number(count.n), p);
}

export async function getUser(ctx: TenantCtx, id: string): Promise<User> {
  const row = await selectUsers(ctx.db, ctx.tenantId)
    .select(USER_COLUMNS)
    .where('u.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('User');
  return toUser(row);
}

const OWNER_REQUIRED = 'OWNER_REQUIRED';

function assertMayGrantOwner(callerIsOwner: boolean) {
  if (!callerIsOwner) {
    throw forbidden('Only an owner may give someone the owner role', OWNER_REQUIRED);
  }
}

/**
 * Resolves roleId within the tenant, locking a custom role so it cannot be deleted meanwhile.
 * The caller must hold every permission of the role they give.
 */
async function roleFor(ctx: TenantCtx, roleId: string): Promise<string> {
  const role = await resolveRole(ctx.db, ctx.tenantId, roleId, { lock: true });
  if (!role) {
    throw badRequest('roleId', 'no such role; use a built-in role name or the id of a custom role');
  }
  assertCallerHolds(ctx, role.permissions, () => 'roleId');
  return role.id;
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  return name;
}

function checkPasswordHash(value: string) {
  if (!isSha256Hex(value)) throw badRequest('password', 'must be the lowercase hex SHA-256 of the password');
}

export async function createUser(ctx: TenantCtx, input: Static<typeof UserCreate>): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const name = checkName(input.name);
  if (input.password !== undefined) checkPasswordHash(input.password);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const role = await roleFor(ctx, input.roleId);
  if (role === 'owner') assertMayGrantOwner(ctx.principal.role === 'owner');
  const id = crypto.randomUUID();
  // The sign-in directory is global: an address belongs to one user of one business.
  const claimed = await ctx.db
    .insertInto('user_logins')
    .values({ email, tenant_id: ctx.tenantId, user_id: id })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows) === 0) {
    throw conflict('A user with this e-mail address already exists (a deactivated one can be reactivated)');
  }
  await ctx.db
    .insertInto('users')
    .values({ tenant_id: ctx.tenantId, id, email, name, role, password_hash: passwordHash })
    .execute();
  if (passwordHash === null) await sendInvitation(ctx, { id, email, name });
  return getUser(ctx, id);
}

/** Stores a single-use invitation token and e-mails it; the job worker sends it after commit. */
async function sendInvitation(ctx: TenantCtx, user: { id: string; email: string; name: string }) {
  const now = ctx.deps.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
  const { token, hash } = newOpaqueToken(ctx.tenantId);
  await ctx.db
    .insertInto('user_tokens')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      user_id: user.id,
      purpose: 'invite',
      token_hash: hash,
      expires_at: expiresAt,
    })
    .execute();
  const tenant = await ctx.db
    .selectFrom('tenants')
    .select('name')
    .where('id', '=', ctx.tenantId)
    .executeTakeFirstOrThrow();
  const link = `${ctx.deps.config.publicBaseUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
  await sendMail(ctx, {
    to: user.email,
    kind: 'invitation',
    subject: `You are invited to ${tenant.name}`,
    text:
      `Hello ${user.name},\n\n` +
      `${ctx.principal.name} has invited you to ${tenant.name}.\n\n` +
      `Choose your password here: ${link}\n\n` +
      `Or send this token with your password to POST /auth/accept-invitation:\n${token}\n\n` +
      `The invitation works once and expires on ${expiresAt.toISOString().slice(0, 10)}.\n`,
  });
}

export async function updateUser(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof UserUpdate>,
): Promise<User> {
  // Role and status changes of one business run one at a time (the tenant row is the lock),
  // so two owners demoting each other cannot both succeed and leave no owner. The caller's
  // own role is read again under the lock: an owner demoted a moment ago is no longer one.
  let callerIsOwner = ctx.principal.role === 'owner';
  if (input.roleId !== undefined || input.active !== undefined) {
    await ctx.db.selectFrom('tenants').select('id').where('id', '=', ctx.tenantId).forUpdate().execute();
    // A business key has no person behind it: its role is the one it was given.
    const callerId = ctx.principal.userId;
    if (callerId) {
      const caller = await ctx.db
        .selectFrom('users')
        .select('role')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', callerId)
        .executeTakeFirstOrThrow();
      callerIsOwner = caller.role === 'owner';
    }
  }
  const row = await ctx.db
    .selectFrom('users')
    .select(['id', 'role', 'active'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('User');

  const now = ctx.deps.now();
  const set: Record<string, unknown> = { updated_at: now };
  if (input.name !== undefined) set.name = checkName(input.name);
  const role = input.roleId === undefined ? row.role : await roleFor(ctx, input.roleId);
  const active = input.active ?? row.active;
  const roleChanges = role !== row.role;
  const deactivating = row.active && !active;
  const reactivating = !row.active && active;

  if (row.role === 'owner' && (roleChanges || deactivating || reactivating)) {
    if (!callerIsOwner) throw forbidden("Only an owner may change an owner's role or status", OWNER_REQUIRED);
  }
  if (roleChanges && role === 'owner') assertMayGrantOwner(callerIsOwner);
  if (deactivating && id === ctx.principal.userId) throw conflict('You cannot deactivate yourself');
  if (row.role === 'owner' && row.active && (roleChanges || deactivating)) {
    const others = await ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', ctx.tenantId)
      .where('role', '=', 'owner')
      .where('active', '=', true)
      .where('id', '!=', id)
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) {
      throw conflict('This is the last active owner; make someone else an owner first');
    }
  }
  if (reactivating && !roleChanges) {
    // Reactivating gives the role back, so it is checked like an assignment.
    const current = await resolveRole(ctx.db, ctx.tenantId, role, { lock: true });
    if (!current) {
      throw conflict("The user's role has been deleted; send a roleId to reactivate them with another role");
    }
    assertCallerHolds(ctx, current.permissions, () => 'active');
  }

  if (roleChanges) set.role = role;
  if (deactivating) {
    set.active = false;
    set.deactivated_at = now;
  }
  if (reactivating) {
    set.active = true;
    set.deactivated_at = null;
  }
  await ctx.db
    .updateTable('users')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  // Their access tokens fail on the next request, their refresh tokens at once.
  if (deactivating) {
    await revokeUserSessions(ctx.db, ctx.tenantId, id, 'user deactivated', now);
    await revokeUserKeys(ctx.db, ctx.tenantId, id, now);
  }
  return getUser(ctx, id);
}

const INVALID_INVITATION = 'the invitation is not valid, has expired or has already been used';

/** Sets the invited user's password with the e-mailed token, once, and signs them in. */
export async function acceptInvitation(
  ctx: PublicCtx,
  input: Static<typeof AcceptInvitationBody>,
): Promise<LoginResponse> {
  checkPasswordHash(input.password);
  const parsed = parseOpaqueToken(input.token);
  if (!parsed) throw badRequest('token', INVALID_INVITATION);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.deps.now();
  const login = await withTenant(ctx.root, parsed.tenantId, async (tx) => {
    const invite = await tx
      .selectFrom('user_tokens as t')
      .innerJoin('users as u', (j) =>
        j.onRef('u.tenant_id', '=', 't.tenant_id').onRef('u.id', '=', 't.user_id'),
      )
      .select(['t.id', 't.used_at', 't.expires_at', 'u.id as user_id', 'u.email', 'u.role', 'u.active'])
      .where('t.tenant_id', '=', parsed.tenantId)
      .where('t.token_hash', '=', parsed.hash)
      .where('t.purpose', '=', 'invite')
      .executeTakeFirst();
    if (!invite || invite.used_at || invite.expires_at <= now || !invite.active) return undefined;
    // Single use even against a concurrent second attempt: only one update finds it unused.
    const used = await tx
      .updateTable('user_tokens')
      .set({ used_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', invite.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) return undefined;
    await tx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', invite.user_id)
      .execute();
    await recordAudit(tx, parsed.tenantId, {
      actorType: 'user',
      actorId: invite.user_id,
      action: 'POST /auth/accept-invitation',
      resource: 'user',
      resourceId: invite.user_id,
      requestId: ctx.requestId,
      ip: ctx.ip,
    });
    return startSession(
      tx,
      ctx.deps.config.jwtSecret,
      { tenantId: parsed.tenantId, userId: invite.user_id, email: invite.email, role: invite.role },
      { ip: ctx.ip, userAgent: ctx.userAgent, now },
    );
  });
  if (!login) throw badRequest('token', INVALID_INVITATION);
  return login;
}
