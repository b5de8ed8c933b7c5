// OAuth apps: registered by a business that builds an integration, used by people of any
// business. The client secret is answered once; only its hash is kept. Deleting an app is
// soft: it stops new connections and refreshes at once.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { assertPlanHasApiKeys } from '../auth/limits.ts';
import { signedInUser } from '../auth/principal.ts';
import type { OauthAppsTable } from '../db/schema.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import type { TenantCtx } from '../http/context.ts';
import { badRequest, notFound } from '../http/problem.ts';
import { clientIdOf, newClientSecret, parseClientId, redirectUriProblem } from './credentials.ts';
import type { OAuthAppCreate } from './oauth.schemas.ts';

export interface OAuthAppView {
  id: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  secretLastFour: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

function toView(row: Selectable<OauthAppsTable>): OAuthAppView {
  return {
    id: row.id,
    name: row.name,
    clientId: clientIdOf(row.tenant_id, row.id),
    redirectUris: row.redirect_uris,
    secretLastFour: row.secret_last_four,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    // An app is never edited: its one change after creation is its deletion.
    updatedAt: (row.deleted_at ?? row.created_at).toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}

export async function createOAuthApp(
  ctx: TenantCtx,
  input: Static<typeof OAuthAppCreate>,
): Promise<OAuthAppView & { clientSecret: string }> {
  // Like keys, apps are registered by people, on a plan that includes API access.
  const creator = signedInUser(ctx);
  assertPlanHasApiKeys(ctx.principal.plan);
  const name = input.name.trim();
  if (!name) throw badRequest('name', 'must not be blank');
  input.redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) throw badRequest(`redirectUris[${i}]`, problem);
  });
  const { secret, hash } = newClientSecret();
  const row = await ctx.db
    .insertInto('oauth_apps')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      name,
      redirect_uris: [...new Set(input.redirectUris)],
      secret_hash: hash,
      secret_last_four: secret.slice(-4),
      created_by: creator.userId,
      created_at: ctx.deps.now(),
      deleted_at: null,
      deleted_by: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toView(row), clientSecret: secret };
}

export async function listOAuthApps(ctx: TenantCtx): Promise<OAuthAppView[]> {
  const rows = await ctx.db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toView);
}

export async function getOAuthApp(ctx: TenantCtx, id: string): Promise<OAuthAppView> {
  const row = await ctx.db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('OAuth app');
  return toView(row);
}

/** Deletes an app softly (idempotent: a second delete keeps the first time). */
export async function deleteOAuthApp(ctx: TenantCtx, id: string): Promise<void> {
  await getOAuthApp(ctx, id);
  await ctx.db
    .updateTable('oauth_apps')
    .set({
      deleted_at: ctx.deps.now(),
      deleted_by: ctx.principal.type === 'user' ? ctx.principal.userId : null,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** A live app by its client id, read in the developer's tenant; undefined when unknown or deleted. */
export async function findLiveApp(
  root: Parameters<typeof withTenant>[0],
  clientId: string,
): Promise<Selectable<OauthAppsTable> | undefined> {
  const parsed = parseClientId(clientId);
  if (!parsed) return undefined;
  return withTenant(root, parsed.tenantId, (tx: Tx) =>
    tx
      .selectFrom('oauth_apps')
      .selectAll()
      .where('tenant_id', '=', parsed.tenantId)
      .where('id', '=', parsed.appId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),
  );
}
