// SQL of the companies module; every function takes the tenant transaction and id.
import type { Selectable } from 'kysely';
import type { CompaniesTable } from '../../platform/db/schema.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import type { LegalForm, VatCategory } from './companies.schemas.ts';

export type CompanyRow = Selectable<CompaniesTable>;

export function toCompany(row: CompanyRow, today: string) {
  return {
    id: row.id,
    name: row.name,
    tradeName: row.trade_name,
    legalForm: row.legal_form as LegalForm,
    parentId: row.parent_id,
    ownershipPercent: row.ownership_percent === null ? null : Number(row.ownership_percent),
    baseCurrency: row.base_currency.trim(),
    vatRegistered: row.vat_registered && row.vat_registered_from !== null && row.vat_registered_from <= today,
    vatRegisteredFrom: row.vat_registered_from,
    vatNumber: row.vat_number,
    vatCategory: row.vat_category as VatCategory,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    province: row.province,
    postalCode: row.postal_code,
    country: row.country,
    registrationNo: row.registration_no,
    email: row.email,
    phone: row.phone,
    isSandbox: row.is_sandbox,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function findCompany(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('companies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function listCompanies(tx: Tx, tenantId: string) {
  return tx
    .selectFrom('companies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countCountedCompanies(tx: Tx, tenantId: string): Promise<number> {
  const r = await tx
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .where('is_sandbox', '=', false)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function recordVatChange(
  tx: Tx,
  tenantId: string,
  companyId: string,
  change: { effectiveFrom: string; registered: boolean; vatNumber: string | null },
) {
  await tx
    .insertInto('company_vat_registrations')
    .values({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      company_id: companyId,
      effective_from: change.effectiveFrom,
      registered: change.registered,
      vat_number: change.vatNumber,
    })
    .execute();
}
