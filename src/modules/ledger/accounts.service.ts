// The chart of accounts of a company: list, create, rename, deactivate. The default South
// African chart is seeded when the company is created (bp_seed_default_chart).

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { AccountCreate, AccountsQuery, AccountUpdate } from './accounts.schemas.ts';
import { SUBTYPES_OF } from './accounts.schemas.ts';
import type { AccountSubtype, AccountsTable, AccountType } from './ledger.tables.ts';

export type Account = ReturnType<typeof toAccount>;

export function toAccount(r: Selectable<AccountsTable>) {
  return {
    id: r.id,
    companyId: r.company_id,
    code: r.code,
    name: r.name,
    type: r.type,
    subtype: r.subtype,
    systemKey: r.system_key,
    isControl: r.is_control,
    isActive: r.is_active,
    description: r.description,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

function findAccount(ctx: TenantCtx, id: string) {
  return ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listAccounts(ctx: TenantCtx, query: Static<typeof AccountsQuery>): Promise<Account[]> {
  let q = ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.type) q = q.where('type', '=', query.type);
  if (query.isActive !== undefined) q = q.where('is_active', '=', query.isActive);
  const rows = await q.orderBy('code').orderBy('id').execute();
  return rows.map(toAccount);
}

export async function getAccount(ctx: TenantCtx, id: string): Promise<Account> {
  const row = await findAccount(ctx, id);
  if (!row) throw notFound('Account');
  return toAccount(row);
}

function checkSubtype(type: AccountType, subtype: AccountSubtype) {
  if (!(SUBTYPES_OF[type] as readonly string[]).includes(subtype)) {
    throw badRequest('subtype', `an ${type} account's subtype is one of ${SUBTYPES_OF[type].join(', ')}`);
  }
}

async function assertCodeFree(ctx: TenantCtx, code: string, exceptId?: string) {
  let q = ctx.db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()));
  if (exceptId) q = q.where('id', '<>', exceptId);
  const taken = await q.executeTakeFirst();
  if (taken) throw conflict(`code: ${code} is already the code of ${taken.name}`, { field: 'code' });
}

export async function createAccount(ctx: TenantCtx, input: Static<typeof AccountCreate>): Promise<Account> {
  const subtype = (input.subtype ?? SUBTYPES_OF[input.type][0]) as AccountSubtype;
  checkSubtype(input.type, subtype);
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      if (await findAccount(ctx, id)) return false;
      await assertCodeFree(ctx, input.code);
      const r = await ctx.db
        .insertInto('accounts')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyOf(ctx),
          code: input.code,
          name: input.name,
          type: input.type,
          subtype,
          description: input.description ?? null,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows) === 1;
    },
    load: (id) => getAccount(ctx, id),
  });
}

export async function updateAccount(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof AccountUpdate>,
): Promise<Account> {
  const row = await findAccount(ctx, id);
  if (!row) throw notFound('Account');
  const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
  if (input.code !== undefined && input.code !== row.code) {
    await assertCodeFree(ctx, input.code, id);
    set.code = input.code;
  }
  if (input.name !== undefined) set.name = input.name;
  if (input.description !== undefined) set.description = input.description;
  if (input.subtype !== undefined && input.subtype !== row.subtype) {
    if (row.system_key) throw conflict(`subtype: ${row.name} is a system account; its place is fixed`);
    checkSubtype(row.type, input.subtype as AccountSubtype);
    set.subtype = input.subtype;
  }
  if (row.system_key === 'drawings' && input.isActive !== undefined && input.isActive !== row.is_active) {
    throw conflict(
      "isActive: Drawings follow the company's legal form (active for a sole proprietor or a partnership); set legalForm on the company",
      { field: 'isActive' },
    );
  }
  if (input.isActive === false && row.system_key) {
    throw conflict(
      `isActive: ${row.name} is a system account that documents post to; it cannot be deactivated`,
      {
        field: 'isActive',
      },
    );
  }
  if (input.isActive !== undefined) set.is_active = input.isActive;
  await ctx.db
    .updateTable('accounts')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getAccount(ctx, id);
}
