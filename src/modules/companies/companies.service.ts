// Business rules for companies: the plan's allowance, the parent chain, VAT registration
// with its effective date.

import type { Static } from 'typebox';
import type { Plan } from '../../config.ts';
import { assertSandboxWritable } from '../../platform/auth/limits.ts';
import { companyAllowance } from '../../platform/auth/plans.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/problem.ts';
import { today } from '../../platform/work/context.ts';
import { applyLegalForm, seedDefaultChart } from '../ledger/index.ts';
import {
  countCountedCompanies,
  findCompany,
  listCompanies,
  recordVatChange,
  toCompany,
} from './companies.queries.ts';
import {
  CONTACT_COLUMNS,
  type CompanyCreate,
  type CompanyUpdate,
  type LegalForm,
  type VatCategory,
} from './companies.schemas.ts';

export type Company = ReturnType<typeof toCompany>;

export interface NewCompany {
  id: string;
  name: string;
  tradeName?: string | null | undefined;
  /** Default pty_ltd; the chart follows it (drawings only for a sole proprietor or partnership). */
  legalForm?: LegalForm | undefined;
  parentId?: string | null | undefined;
  ownershipPercent?: number | null | undefined;
  baseCurrency: string;
  vatRegistered: boolean;
  vatRegisteredFrom?: string | null | undefined;
  vatNumber?: string | null | undefined;
  /** Default B (two-monthly, ending in the even months). */
  vatCategory?: VatCategory | undefined;
  isSandbox?: boolean;
  /** Address, registration number, e-mail and telephone (printed on documents). */
  contact?: Partial<Record<keyof typeof CONTACT_COLUMNS, string | undefined>>;
}

/** The printed details given, as columns. */
function contactValues(given: Partial<Record<keyof typeof CONTACT_COLUMNS, string | null | undefined>>) {
  const out: Partial<Record<(typeof CONTACT_COLUMNS)[keyof typeof CONTACT_COLUMNS], string | null>> = {};
  for (const [field, column] of Object.entries(CONTACT_COLUMNS) as Array<
    [keyof typeof CONTACT_COLUMNS, (typeof CONTACT_COLUMNS)[keyof typeof CONTACT_COLUMNS]]
  >) {
    const value = given[field];
    if (value !== undefined) out[column] = value === null ? null : value.trim() || null;
  }
  return out;
}

/** Inserts a company (ON CONFLICT DO NOTHING on its id); true when it was new. */
export async function insertCompany(
  tx: Tx,
  tenantId: string,
  c: NewCompany,
  todayIso: string,
): Promise<boolean> {
  const from = c.vatRegistered ? (c.vatRegisteredFrom ?? todayIso) : null;
  const r = await tx
    .insertInto('companies')
    .values({
      tenant_id: tenantId,
      id: c.id,
      name: c.name,
      trade_name: c.tradeName ?? null,
      legal_form: c.legalForm ?? 'pty_ltd',
      parent_id: c.parentId ?? null,
      ownership_percent: c.ownershipPercent ?? null,
      base_currency: c.baseCurrency,
      vat_registered: c.vatRegistered,
      vat_registered_from: from,
      vat_number: c.vatNumber ?? null,
      vat_category: c.vatCategory ?? 'B',
      is_sandbox: c.isSandbox ?? false,
      ...contactValues(c.contact ?? {}),
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
    .executeTakeFirst();
  const created = Number(r.numInsertedOrUpdatedRows) === 1;
  // Every company starts with the South African default chart and an unlocked ledger.
  if (created) await seedDefaultChart(tx, tenantId, c.id);
  if (created && from) {
    await recordVatChange(tx, tenantId, c.id, {
      effectiveFrom: from,
      registered: true,
      vatNumber: c.vatNumber ?? null,
    });
  }
  return created;
}

export async function listForCaller(ctx: TenantCtx): Promise<Company[]> {
  const rows = await listCompanies(ctx.db, ctx.tenantId);
  return rows.map((r) => toCompany(r, today(ctx)));
}

export async function getCompany(ctx: TenantCtx, id: string): Promise<Company> {
  const row = await findCompany(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Company');
  return toCompany(row, today(ctx));
}

async function checkParent(ctx: TenantCtx, companyId: string, parentId: string) {
  if (parentId === companyId) throw badRequest('parentId', 'a company cannot be its own parent');
  // Walk up from the proposed parent: meeting this company again would close a loop.
  let cursor: string | null = parentId;
  for (let depth = 0; cursor; depth++) {
    if (depth > 50) throw badRequest('parentId', 'the company hierarchy is too deep');
    const row = await findCompany(ctx.db, ctx.tenantId, cursor);
    if (!row) throw badRequest('parentId', 'no such company');
    if (row.id === companyId) throw badRequest('parentId', 'this would make the hierarchy circular');
    cursor = row.parent_id;
  }
}

export async function createCompany(ctx: TenantCtx, input: Static<typeof CompanyCreate>): Promise<Company> {
  const id = idFor(input.clientId);
  if (input.vatRegistered && !input.vatNumber) {
    throw badRequest('vatNumber', 'is required when the company is VAT-registered');
  }
  return createIdempotent(ctx, {
    id,
    insert: async (newId) => {
      if (await findCompany(ctx.db, ctx.tenantId, newId)) return false;
      // Lock the tenant row so two concurrent creates cannot both squeeze under the allowance.
      const tenant = await ctx.db
        .selectFrom('tenants')
        .select('plan')
        .where('id', '=', ctx.tenantId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const allowance = companyAllowance(tenant.plan as Plan);
      if (allowance !== null && (await countCountedCompanies(ctx.db, ctx.tenantId)) >= allowance) {
        throw forbidden(
          `The ${tenant.plan} plan allows ${allowance} ${allowance === 1 ? 'company' : 'companies'}; upgrade to add another`,
          'COMPANY_LIMIT_REACHED',
        );
      }
      if (input.parentId) await checkParent(ctx, newId, input.parentId);
      const created = await insertCompany(
        ctx.db,
        ctx.tenantId,
        {
          id: newId,
          name: input.name,
          tradeName: input.tradeName,
          legalForm: input.legalForm,
          parentId: input.parentId,
          ownershipPercent: input.ownershipPercent,
          baseCurrency: input.baseCurrency ?? 'ZAR',
          vatRegistered: input.vatRegistered ?? false,
          vatRegisteredFrom: input.vatRegisteredFrom,
          vatNumber: input.vatNumber,
          vatCategory: input.vatCategory,
          contact: input,
        },
        today(ctx),
      );
      // Not live (checked above), yet taken: the id of a company since deleted.
      if (!created) {
        throw conflict('clientId: was the id of a company that has since been deleted', {
          field: 'clientId',
        });
      }
      return created;
    },
    load: (newId) => getCompany(ctx, newId),
  });
}

export async function updateCompany(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof CompanyUpdate>,
): Promise<Company> {
  const row = await findCompany(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Company');
  // The sandbox company itself is read-only with the rest of the sandbox (the catalogue
  // refuses writes sent with its X-Company-Id; this route names it in the path instead).
  if (row.is_sandbox) assertSandboxWritable(ctx.principal.plan);
  if (row.is_sandbox && input.name !== undefined && input.name !== row.name) {
    throw badRequest('name', 'the sandbox company cannot be renamed');
  }
  if (input.parentId) await checkParent(ctx, id, input.parentId);
  const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
  if (input.name !== undefined) set.name = input.name;
  if (input.tradeName !== undefined) set.trade_name = input.tradeName;
  if (input.legalForm !== undefined) set.legal_form = input.legalForm;
  if (input.parentId !== undefined) set.parent_id = input.parentId;
  if (input.ownershipPercent !== undefined) set.ownership_percent = input.ownershipPercent;
  if (input.isActive !== undefined) set.is_active = input.isActive;
  if (input.vatNumber !== undefined) set.vat_number = input.vatNumber;
  if (input.vatCategory !== undefined) set.vat_category = input.vatCategory;
  Object.assign(set, contactValues(input));

  const vatChanges = input.vatRegistered !== undefined || input.vatRegisteredFrom !== undefined;
  if (vatChanges) {
    const registered = input.vatRegistered ?? row.vat_registered;
    const vatNumber = input.vatNumber !== undefined ? input.vatNumber : row.vat_number;
    if (registered && !vatNumber)
      throw badRequest('vatNumber', 'is required when the company is VAT-registered');
    const effectiveFrom = input.vatRegisteredFrom ?? today(ctx);
    set.vat_registered = registered;
    set.vat_registered_from = registered ? effectiveFrom : null;
    await recordVatChange(ctx.db, ctx.tenantId, id, {
      effectiveFrom,
      registered,
      vatNumber: vatNumber ?? null,
    });
  }
  await ctx.db
    .updateTable('companies')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  // Drawings follow the legal form: added or activated for a sole proprietor or a partnership,
  // deactivated for any other form.
  if (input.legalForm !== undefined && input.legalForm !== row.legal_form) {
    await applyLegalForm(ctx.db, ctx.tenantId, id);
  }
  return getCompany(ctx, id);
}

/** Marks a company deleted: it leaves every list and its id answers 404 (the sandbox's delete). */
export async function retireCompany(ctx: TenantCtx, id: string): Promise<void> {
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('companies')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}
